package dev.solweb.provider.seat.scripted;

import dev.solweb.provider.failure.ProviderFailure.Kind;
import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.model.Attachment;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.scenario.Scenario;
import dev.solweb.provider.scenario.ScenarioPlayer;
import dev.solweb.provider.scenario.ScriptedReply.Fault;
import dev.solweb.provider.scenario.ScriptedReply;
import dev.solweb.provider.scenario.StreamScript;
import dev.solweb.provider.seat.AccountBlock;
import dev.solweb.provider.seat.BrowserSeat;
import dev.solweb.provider.seat.Deletion;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.SeatProbe;
import dev.solweb.provider.seat.SeatReply;
import dev.solweb.provider.seat.TurnProgress.Stage;
import dev.solweb.provider.seat.TurnProgress;
import dev.solweb.provider.seat.UploadReadiness;
import dev.solweb.provider.translate.ConversationPlace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A seat with no browser: replies and faults come from a {@link Scenario}, and every send is
 * recorded in the shared {@link ScenarioPlayer}, so tests assert on exactly what reached "the
 * browser". Selected only by name ({@code --seat scripted:<file|name>}), never as a fallback.
 *
 * <p>Progress comes from the script: typing, sent at the Send boundary, then after
 * {@code delay_ms} thinking for {@code thinking_ms} (when set), writing and complete with the
 * answer's characters (its prose and code blocks); a fault ends the turn where the page would.
 */
public final class ScriptedSeat implements BrowserSeat {

  public static final String URL_PREFIX = "scripted:/c/";
  private static final Pattern PROJECT_SLUG = Pattern.compile("/g/g-p-([A-Za-z0-9_-]+)");
  private static final Duration DEFAULT_CAP = Duration.ofHours(1);
  /** A valid 1x1 PNG: what a scripted image reply saves. */
  private static final byte[] PNG_1X1 = Base64.getDecoder().decode(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==");

  private final ScenarioPlayer player;
  private final Clock clock;
  private final UploadReadiness readiness;
  private String conversationId;
  private String conversationUrl;
  private ConversationPlace place = ConversationPlace.HISTORY;
  private Effort effort;
  private volatile CountDownLatch inFlight = new CountDownLatch(0);
  private volatile boolean stopRequested;
  private volatile TurnProgress progress = TurnProgress.NONE;
  private boolean closed;
  /** The files each turn with files received, in order: what tests compare with what a client sent. */
  private final List<List<Attachment>> received = new CopyOnWriteArrayList<>();

  public ScriptedSeat(ScenarioPlayer player, Clock clock) {
    this(player, clock, UploadReadiness.PROCESSED);
  }

  /**
   * As above, with when the seat counts files as uploaded. The scripted page shows a file's chip
   * before its processing ends (row 46), so a seat made ready on {@link UploadReadiness#CHIP}
   * sends its turns without their files, as that page drops them.
   */
  public ScriptedSeat(ScenarioPlayer player, Clock clock, UploadReadiness readiness) {
    this.player = player;
    this.clock = clock;
    this.readiness = readiness;
  }

  @Override
  public SeatProbe probe() throws SeatException {
    checkOpen();
    Scenario scenario = player.scenario();
    return switch (scenario.state()) {
      case "ready" -> SeatProbe.ready(scenario.account());
      case "logged_out" -> new SeatProbe(SeatProbe.State.LOGGED_OUT, null, null, "login wall, no composer");
      case "challenged" -> new SeatProbe(SeatProbe.State.CHALLENGED, null, null, "Cloudflare challenge");
      case "capped" -> new SeatProbe(
          SeatProbe.State.CAPPED,
          scenario.account(),
          scenario.capResumeAt() == null ? clock.instant().plus(DEFAULT_CAP) : Instant.parse(scenario.capResumeAt()),
          "usage cap banner");
      default -> throw new IllegalStateException("Unhandled scenario state: " + scenario.state());
    };
  }

  @Override
  public void openNew() throws SeatException {
    openNew(ConversationPlace.HISTORY);
  }

  /**
   * Opens in {@code place}: a project's conversations get {@code scripted:/g/g-p-<slug>/c/<id>}
   * URLs (the slug of a project URL, else {@code 0-<name-slug>}), and the player records the
   * place. A project the player refuses is a typed unavailable before anything is typed.
   */
  @Override
  public void openNew(ConversationPlace where) throws SeatException {
    checkOpen();
    if (where instanceof ConversationPlace.Project project && player.projectRefused(project.nameOrUrl())) {
      throw SeatException.failed(ProviderFailure.of(Kind.UNAVAILABLE, "the project \"" + project.nameOrUrl()
          + "\" is not on the page (scripted); nothing was typed"), false);
    }
    player.opened(where);
    place = where;
    conversationId = null;
    stopRequested = false;
  }

  /** Deletes a conversation of the player by its URL; one that is not there is NOT_FOUND. A scripted failure records nothing. */
  @Override
  public Deletion delete(String conversationUrl) throws SeatException {
    checkOpen();
    Optional<String> failure = player.deleteFailure();
    if (failure.isPresent()) {
      throw SeatException.failed(ProviderFailure.of(Kind.UNAVAILABLE, failure.get() + " (scripted); nothing was deleted"), false);
    }
    return player.deleteByOwner(conversationUrl, idOf(conversationUrl)) ? Deletion.DELETED : Deletion.NOT_FOUND;
  }

  /** The conversation id of one of our URLs, or null for any other URL. */
  private static String idOf(String conversationUrl) {
    if (!conversationUrl.startsWith("scripted:/")) {
      return null;
    }
    int at = conversationUrl.lastIndexOf("/c/");
    return at < 0 ? null : conversationUrl.substring(at + 3);
  }

  private String urlOf(String id) {
    if (place instanceof ConversationPlace.Project project) {
      Matcher slug = PROJECT_SLUG.matcher(project.nameOrUrl());
      String name = slug.find() ? slug.group(1)
          : "0-" + project.nameOrUrl().toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
      return "scripted:/g/g-p-" + name + "/c/" + id;
    }
    return URL_PREFIX + id;
  }

  @Override
  public void resume(String conversationUrl) throws SeatException {
    checkOpen();
    String id = idOf(conversationUrl);
    if (id == null) {
      throw SeatException.conversationMissing(conversationUrl);
    }
    stopRequested = false;
    if (player.peek(id).map(r -> r.fault() == Fault.DELETED).orElse(false)) {
      player.next(id);
      player.delete(id);
    }
    if (!player.exists(id)) {
      throw SeatException.conversationMissing(conversationUrl);
    }
    conversationId = id;
    this.conversationUrl = conversationUrl;
  }

  @Override
  public dev.solweb.provider.seat.ModelOffer models() {
    // The scripted account's picker: one Sol row that runs every effort (no page to read).
    List<Effort> all = List.of(Effort.values());
    return new dev.solweb.provider.seat.ModelOffer(List.of(new dev.solweb.provider.seat.ModelOffer.Row(
        "GPT-6.2 Sol (scripted)", "Sol", "6.2", false, false, true, all)), all, "GPT-6.2 Sol (scripted)");
  }

  @Override
  public Effort setEffort(Effort wanted) throws SeatException {
    checkOpen();
    this.effort = wanted;
    String scriptedLabel = conversationId == null ? null : player.peek(conversationId).map(ScriptedReply::effortLabel).orElse(null);
    if (scriptedLabel == null) {
      return wanted;
    }
    return Effort.fromLabel(scriptedLabel).orElseThrow(() -> SeatException.failed(ProviderFailure.of(Kind.UNAVAILABLE,
        "the effort control reads \"" + scriptedLabel + "\", which is no effort the seat knows; nothing was sent"), false));
  }

  @Override
  public SeatReply send(String text) throws SeatException {
    return sendTurn(text, List.of(), null, List.of());
  }

  /**
   * A turn with files: recorded with the Send (their names in the player's submission, the files
   * themselves in {@link #received}). A scenario may script the upload failing
   * ({@code upload_failed}, {@code upload_throttled}): then nothing is sent.
   */
  @Override
  public SeatReply send(String text, List<Attachment> attachments) throws SeatException {
    if (attachments.size() > Attachment.MAX_PER_TURN) {
      throw SeatException.failed(ProviderFailure.of(Kind.UNAVAILABLE, attachments.size() + " files in one turn; the page"
          + " takes at most " + Attachment.MAX_PER_TURN + "; nothing was sent"), false);
    }
    return sendTurn(text, attachments.stream().map(Attachment::name).toList(), null, attachments);
  }

  /** The files of every turn sent with files, oldest first. */
  public List<List<Attachment>> received() {
    return List.copyOf(received);
  }

  /**
   * A one-shot ask: attachments must be readable files (checked before Send, as an upload would
   * fail), and each image name of the scripted reply becomes a small PNG written into
   * {@code outputDir}, named as scripted (a name already taken gets a {@code -N} suffix).
   */
  @Override
  public SeatReply ask(String text, List<Path> attachments, Path outputDir) throws SeatException {
    for (Path attachment : attachments) {
      if (!Files.isRegularFile(attachment) || !Files.isReadable(attachment)) {
        throw SeatException.failed(ProviderFailure.of(Kind.UNAVAILABLE,
            "attachment " + attachment + " is not a readable file; nothing was sent"), false);
      }
    }
    return sendTurn(text, attachments.stream().map(Path::toString).toList(), outputDir, List.of());
  }

  private SeatReply sendTurn(String text, List<String> attachments, Path outputDir, List<Attachment> files)
      throws SeatException {
    checkOpen();
    if (effort == null) {
      throw new IllegalStateException("setEffort must be called before send");
    }
    progress.report(Stage.TYPING, 0);
    String id = conversationId != null ? conversationId : player.openConversation(text);
    ScriptedReply reply = player.next(id).orElse(null);
    Fault fault = reply == null ? null : reply.fault();

    // Faults that stop the turn before the Send click; delay_ms is how long the page takes to show them.
    boolean beforeSend = fault == Fault.LOGGED_OUT || fault == Fault.CLOUDFLARE || fault == Fault.TOO_LONG
        || fault == Fault.CRASH_BEFORE_SEND || fault == Fault.TOO_MANY_REQUESTS;
    if (beforeSend) {
      waitOrStop(reply.delayMs(), false);
    }
    if (fault == Fault.LOGGED_OUT) {
      throw SeatException.failed(ProviderFailure.of(Kind.UNAVAILABLE, "logged out: login wall, no composer"), false);
    }
    if (fault == Fault.CLOUDFLARE) {
      throw SeatException.failed(ProviderFailure.of(Kind.UNAVAILABLE, "Cloudflare challenge page"), false);
    }
    if (fault == Fault.TOO_LONG) {
      throw SeatException.failed(ProviderFailure.of(Kind.CONTEXT_OVERFLOW,
          "the message you submitted was too long; it exceeds the context window of the page"), false);
    }
    if (fault == Fault.TOO_MANY_REQUESTS) {
      AccountBlock block = AccountBlock.tooManyRequests("Too many requests");
      throw SeatException.blocked(block.failure("ChatGPT's rate-limit modal covers the page (scripted \"Too many"
          + " requests\"); nothing was sent; the account pauses for " + block.pause().orElseThrow().toMinutes() + " min",
          clock.instant()), block, false);
    }
    if (fault == Fault.CRASH_BEFORE_SEND) {
      throw SeatException.broken("browser connection lost before Send (scripted crash)", false, null);
    }
    if (fault == Fault.UPLOAD_FAILED && !attachments.isEmpty()) {
      throw SeatException.failed(ProviderFailure.of(Kind.UNAVAILABLE, "the upload of " + attachments.get(0)
          + " failed (scripted); its chip was removed and nothing was sent"), false);
    }
    if (fault == Fault.UPLOAD_THROTTLED && !attachments.isEmpty()) {
      throw SeatException.failed(ProviderFailure.capped("the page's uploads are capped (scripted 429 throttled); nothing"
          + " was typed", clock.instant().plusSeconds(reply.resumeInSeconds() != null ? reply.resumeInSeconds()
          : DEFAULT_CAP.toSeconds()), clock.instant()), false);
    }

    // The Send boundary.
    if (readiness == UploadReadiness.CHIP) {
      attachments = List.of(); // Send clicked on the chip alone: the page dropped the files
      files = List.of();
    }
    String label = reply != null && reply.effortLabel() != null ? reply.effortLabel() : effort.label();
    player.record(new ScenarioPlayer.Send(id, effort, label, text, clock.instant(), attachments));
    if (!files.isEmpty()) {
      received.add(List.copyOf(files));
    }
    if (conversationId == null) {
      conversationUrl = urlOf(id);
    }
    conversationId = id;
    String url = conversationUrl;
    progress.report(Stage.SENT, 0);

    if (reply == null) {
      throw SeatException.failed(ProviderFailure.of(Kind.UNAVAILABLE,
          "scripted conversation " + id + " has no reply left (scenario exhausted)"), true);
    }
    waitOrStop(fault == Fault.HANG ? Long.MAX_VALUE : reply.delayMs(), true);
    if (reply.thinkingMs() > 0) {
      progress.report(Stage.THINKING, 0);
      waitOrStop(reply.thinkingMs(), true);
    }
    StreamScript.Fault refused = reply.stream().fault();
    if (refused == StreamScript.Fault.HTTP_429) {
      long clears = reply.stream().clearsInSeconds() != null ? reply.stream().clearsInSeconds() : DEFAULT_CAP.toSeconds();
      throw SeatException.failed(ProviderFailure.capped("ChatGPT answered HTTP 429 (scripted)",
          clock.instant().plusSeconds(clears), clock.instant()), true);
    }
    if (refused == StreamScript.Fault.HTTP_403) {
      throw SeatException.blocked(ProviderFailure.of(Kind.UNAVAILABLE,
          "ChatGPT refused the turn (HTTP 403): Unusual activity has been detected from your device (scripted); the"
              + " account is stopped until a person clears it on the operator page"),
          AccountBlock.unusualActivity("Unusual activity has been detected from your device"), true);
    }
    if (fault == null || fault == Fault.DELETED || fault == Fault.UPLOAD_FAILED || fault == Fault.UPLOAD_THROTTLED) {
      List<String> images = outputDir == null ? reply.images() : harvest(reply.images(), outputDir);
      written(reply);
      return new SeatReply(reply.blocks(), reply.prose(), url, reply.modelSlug(), images, SeatReply.Source.SCRIPT);
    }
    switch (fault) {
      case CAP, CAP_DOWNGRADE, MODEL_CAP_EXCEEDED, SMALLER_MODEL -> {
        Instant resumeAt = reply.resumeAt() != null ? Instant.parse(reply.resumeAt())
            : clock.instant().plusSeconds(reply.resumeInSeconds() != null ? reply.resumeInSeconds() : DEFAULT_CAP.toSeconds());
        String what = fault == Fault.CAP || fault == Fault.MODEL_CAP_EXCEEDED ? "usage cap reached"
            : "plan limit reached; the answer came from a lower model";
        throw SeatException.failed(ProviderFailure.capped(what, resumeAt, clock.instant()), true);
      }
      case CRASH -> throw SeatException.broken("browser connection lost after Send (scripted crash)", true, null);
      case CAPACITY -> throw SeatException.failed(
          ProviderFailure.of(Kind.UNAVAILABLE, "ChatGPT is at capacity right now; not resent"), true);
      case UNUSUAL_ACTIVITY -> throw SeatException.blocked(ProviderFailure.of(Kind.UNAVAILABLE, "ChatGPT detected unusual"
          + " activity; a person must check the account, then clear the stop on the operator page"),
          AccountBlock.unusualActivity("Unusual activity has been detected from your device"), true);
      case CONVERSATION_FULL -> throw SeatException.conversationFull(
          "ChatGPT says this conversation reached its maximum length; the next turn starts a new chat", true);
      case FEATURE_CAP -> {
        if (!attachments.isEmpty()) {
          throw SeatException.failed(ProviderFailure.capped("files and images are unavailable until usage resets",
              clock.instant().plusSeconds(reply.resumeInSeconds() != null ? reply.resumeInSeconds() : DEFAULT_CAP.toSeconds()),
              clock.instant()), true);
        }
        List<String> images = outputDir == null ? reply.images() : harvest(reply.images(), outputDir);
        written(reply);
        return new SeatReply(reply.blocks(), reply.prose(), url, reply.modelSlug(), images);
      }
      case SOMETHING_WENT_WRONG -> throw SeatException.failed(
          ProviderFailure.of(Kind.UNAVAILABLE, "ChatGPT showed \"Something went wrong\"; Retry was not clicked"), true);
      case STRUCTURED_QUESTION -> throw SeatException.failed(ProviderFailure.of(Kind.UNAVAILABLE,
          "ChatGPT asked a structured question and waits for the user (\"Waiting for your answer\"): the model has not"
              + " answered; nothing was resent"), true);
      default -> throw new IllegalStateException("Unhandled fault after Send: " + fault);
    }
  }

  /**
   * The scripted page's regenerate on the open conversation's last answer: offered while the
   * conversation has a prompt and a reply left in its script, which answers without a new Send
   * (the player counts a regeneration); a scripted fault fails it after the click.
   */
  @Override
  public Optional<SeatReply> regenerate() throws SeatException {
    checkOpen();
    if (conversationId == null || player.peek(conversationId).isEmpty()
        || player.sends().stream().noneMatch(s -> s.conversationId().equals(conversationId))) {
      return Optional.empty(); // no answer bar to regenerate from
    }
    ScriptedReply reply = player.next(conversationId).orElseThrow();
    player.regenerated(conversationId);
    progress.report(Stage.SENT, 0);
    Fault fault = reply.fault();
    waitOrStop(fault == Fault.HANG ? Long.MAX_VALUE : reply.delayMs(), true);
    if (fault != null && fault != Fault.DELETED) {
      throw SeatException.failed(ProviderFailure.of(Kind.UNAVAILABLE, "the regenerated answer failed (scripted "
          + fault.name().toLowerCase(java.util.Locale.ROOT) + "); not resent"), true);
    }
    written(reply);
    return Optional.of(new SeatReply(reply.blocks(), reply.prose(), conversationUrl, reply.modelSlug(), reply.images(),
        SeatReply.Source.SCRIPT));
  }

  /** The answer arrived whole: writing, then complete, with its characters (prose and code blocks). */
  private void written(ScriptedReply reply) {
    int chars = reply.prose().length() + reply.blocks().stream().mapToInt(String::length).sum();
    progress.report(Stage.WRITING, chars);
    progress.report(Stage.COMPLETE, chars);
  }

  @Override
  public void progress(TurnProgress listener) {
    progress = listener == null ? TurnProgress.NONE : listener;
  }

  /** Saves one small PNG per scripted image name into {@code outputDir}; returns absolute paths. */
  private static List<String> harvest(List<String> names, Path outputDir) throws SeatException {
    List<String> saved = new ArrayList<>();
    try {
      Files.createDirectories(outputDir);
      for (String name : names) {
        String file = Path.of(name).getFileName().toString();
        Path target = outputDir.resolve(file);
        String stem = file.contains(".") ? file.substring(0, file.lastIndexOf('.')) : file;
        String extension = file.contains(".") ? file.substring(file.lastIndexOf('.')) : "";
        for (int n = 1; Files.exists(target); n++) {
          target = outputDir.resolve(stem + "-" + n + extension);
        }
        Files.write(target, PNG_1X1, StandardOpenOption.CREATE_NEW);
        saved.add(target.toAbsolutePath().toString());
      }
    } catch (IOException e) {
      throw SeatException.failed(ProviderFailure.of(Kind.UNAVAILABLE,
          "cannot save the reply's images into " + outputDir + ": " + e.getMessage()), true);
    }
    return saved;
  }

  private void waitOrStop(long millis, boolean afterSend) throws SeatException {
    CountDownLatch latch = new CountDownLatch(1);
    inFlight = latch;
    try {
      if (!stopRequested && millis > 0) {
        latch.await(millis == Long.MAX_VALUE ? Long.MAX_VALUE : millis, TimeUnit.MILLISECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stopRequested = true;
    } finally {
      inFlight = new CountDownLatch(0);
    }
    if (stopRequested) {
      stopRequested = false;
      throw SeatException.failed(ProviderFailure.of(Kind.CANCELLED,
          afterSend ? "Stop clicked; the turn was cancelled" : "cancelled before Send"), afterSend);
    }
  }

  @Override
  public void stop() {
    stopRequested = true;
    inFlight.countDown();
  }

  @Override
  public void close() {
    closed = true;
    stop();
  }

  private void checkOpen() throws SeatException {
    if (closed) {
      throw SeatException.broken("scripted seat is closed", false, null);
    }
  }
}

package dev.solweb.provider.seat.playwright;

import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.PlaywrightException;
import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.failure.ProviderFailure.Kind;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.seat.AnswerStats;
import dev.solweb.provider.seat.BrowserSeat;
import dev.solweb.provider.translate.ConversationPlace;
import dev.solweb.provider.seat.Deletion;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.SeatProbe;
import dev.solweb.provider.seat.SeatReply;
import dev.solweb.provider.seat.TurnProgress;
import dev.solweb.provider.seat.playwright.PageVerdicts.Verdict;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.logging.Logger;
import java.util.regex.Pattern;

/**
 * A {@link BrowserSeat} on a real ChatGPT page: Chromium with a persistent profile, driven by
 * Playwright for Java. Every Playwright object is created and used on the thread that calls the
 * seat (the dispatcher's seat thread); {@link #stop()} only raises a flag that {@link #send}'s
 * poll loop reads before it clicks Stop itself.
 *
 * <p>The Send click is the boundary: every failure before it carries {@code afterSend=false}
 * and may be retried; every failure after it carries {@code afterSend=true} and nothing is ever
 * resent, so Retry and Regenerate are never clicked. A closed or crashed browser is
 * {@link SeatException.Reason#BROKEN}: the dispatcher rebuilds the seat once.
 */
public final class PlaywrightSeat implements BrowserSeat {

  static final List<String> CHROMIUM_ARGS = List.of(
      "--no-sandbox", "--disable-gpu", "--disable-background-networking",
      "--disable-component-update", "--disable-sync", "--no-first-run");

  private static final Duration POLL = Duration.ofMillis(30);
  private static final Duration PAGE_READY = Duration.ofSeconds(20);
  private static final Duration SEND_READY = Duration.ofSeconds(15);
  private static final Duration NO_ANSWER = Duration.ofSeconds(20);
  private static final Duration DURABLE_URL = Duration.ofSeconds(20);
  private static final Duration CAP_ESTIMATE = Duration.ofHours(1);
  /** How long a menu item or confirmation may take to appear after its click. */
  private static final Duration MENU_WAIT = Duration.ofSeconds(5);
  /** How long the sidebar may take to list the owner's projects. */
  private static final Duration PROJECT_LIST = Duration.ofSeconds(3);
  private static final int SETTLED_POLLS = 5;
  private static final Pattern CLOSED = Pattern.compile(
      "closed|crash|disconnected|Target.*gone|connection.*(lost|reset)|not connected|Browser has been",
      Pattern.CASE_INSENSITIVE);

  private final PlaywrightOptions options;
  private final Path profile;
  private final Clock clock;
  private final Playwright playwright;
  private final BrowserContext context;
  private final Page page;
  private final ChatGptPage chat;
  private final HistoryPage history;
  /** Where the conversation this tab holds lives: set by openNew and resume, used by every send into it. */
  private Place place = Place.HISTORY;
  /** The temporary chat this tab still shows (its reply URL), or null: nothing else can reopen it. */
  private String temporaryHeld;
  private final CompletionTracker.Rule completion;
  private volatile boolean stopRequested;
  private volatile boolean pageCrashed;
  private final PageWait wait = new PageWait(POLL, () -> stopRequested = true);
  private Effort effort;
  private String account;
  private boolean closed;
  private volatile Duration lastCompletionLag = Duration.ZERO;
  private volatile Duration lastStreamLag;
  /** Where the current turn's time goes (bench-seat only; never read for a decision). */
  private volatile TurnTimings timings = new TurnTimings();
  private volatile Map<String, Duration> lastTimings = Map.of();
  private final PageStream stream;
  private final ProgressFeed progress = new ProgressFeed();
  /** A stream answer whose DOM reading is still to be compared (at the seat's next probe). */
  private CrossCheck pendingCheck;
  private static final Logger LOG = Logger.getLogger(PlaywrightSeat.class.getName());
  /** How long a turn-path HTTP error waits for the page's own banner, which says more (an exact reset time). */
  private static final Duration BANNER_GRACE = Duration.ofSeconds(1);

  /**
   * Launches Chromium on {@code profile}. The caller holds the {@link ProfileLock}.
   *
   * @throws SeatException BROKEN when Playwright or Chromium cannot start (nothing was sent)
   */
  public PlaywrightSeat(PlaywrightOptions options, Path profile, Clock clock, CompletionTracker.Rule completion)
      throws SeatException {
    this.options = options;
    this.profile = profile;
    this.clock = clock;
    this.completion = completion;
    Playwright pw = null;
    try {
      pw = Playwright.create(new Playwright.CreateOptions().setEnv(Map.of("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")));
      BrowserContext ctx = pw.chromium().launchPersistentContext(profile,
          new BrowserType.LaunchPersistentContextOptions()
              .setExecutablePath(options.chromiumPath())
              .setHeadless(options.headless())
              .setArgs(CHROMIUM_ARGS)
              .setViewportSize(1280, 900));
      String origin = options.chatUrl().getScheme() + "://" + options.chatUrl().getRawAuthority();
      ctx.grantPermissions(List.of("clipboard-read", "clipboard-write"),
          new BrowserContext.GrantPermissionsOptions().setOrigin(origin));
      ctx.addInitScript(PageScripts.INIT);
      if (!"off".equals(System.getProperty("solweb.streamTap"))) {
        ctx.addInitScript(StreamTap.INIT_SCRIPT);
      }
      Page p = ctx.pages().isEmpty() ? ctx.newPage() : ctx.pages().get(0);
      p.onCrash(crashed -> pageCrashed = true);
      this.playwright = pw;
      this.context = ctx;
      this.page = p;
      this.chat = new ChatGptPage(p, options.chatUrl());
      this.history = new HistoryPage(p, chat, options.chatUrl());
      this.stream = new PageStream(p);
    } catch (PlaywrightException e) {
      if (pw != null) {
        closeQuietly(pw);
      }
      OrphanReaper.reap(profile);
      throw SeatException.broken("could not start Chromium " + options.chromiumPath() + " on profile "
          + profile + ": " + firstLine(e.getMessage()), false, e);
    }
  }

  @Override
  public SeatProbe probe() throws SeatException {
    checkOpen();
    // The dispatcher probes first in every turn: a Stop aimed at an earlier turn ends here, while
    // a Stop that arrives during this turn's resume or effort steps still cancels its send.
    stopRequested = false;
    return guard(false, () -> {
      crossCheck();
      if (!chat.onSite()) {
        chat.openHome();
      } else if (chat.state(Set.of()).faultShown()) {
        // A banner left from an earlier turn (a cap that has since lifted, an error) is stale:
        // only a fresh load tells what the page says now.
        chat.reload();
      }
      return observe(PAGE_READY);
    });
  }

  @Override
  public void openNew() throws SeatException {
    checkOpen();
    guard(false, () -> {
      leave(Place.HISTORY);
      chat.openHome();
      requireReady(observe(PAGE_READY));
      return null;
    });
  }

  /**
   * Opens a new conversation in {@code where} and proves it before anything is typed: a project's
   * home ({@code /g/g-p-<slug>/project}), found by its URL or as the ONE sidebar project with that
   * name; or a temporary chat whose banner shows. The place holds for the sends into the
   * conversation this tab now holds, until the next openNew or resume.
   */
  @Override
  public void openNew(ConversationPlace where) throws SeatException {
    checkOpen();
    if (where instanceof ConversationPlace.Project p) {
      guard(false, () -> {
        leave(Place.HISTORY);
        String home = projectHome(p.nameOrUrl());
        String slug = history.projectSlug(home).orElseThrow();
        chat.open(home);
        requireReady(observe(PAGE_READY));
        // The page settled (observe): a project that does not exist has sent it elsewhere by now.
        wait.until(PROJECT_LIST, () -> history.isProjectHome(chat.url(), slug) && chat.state(Set.of()).composer() ? Boolean.TRUE : null,
            () -> failed(Kind.UNAVAILABLE, "project " + home + " did not open: the page shows " + chat.url()
                + "; nothing was typed", false));
        place = new Place(slug, false);
        return null;
      });
    } else if (where instanceof ConversationPlace.Temporary) {
      guard(false, () -> {
        leave(Place.HISTORY);
        chat.open(history.temporaryHome());
        requireReady(observe(PAGE_READY));
        wait.until(PAGE_READY, () -> history.temporaryShown() ? Boolean.TRUE : null,
            () -> failed(Kind.UNAVAILABLE, "the page did not confirm a temporary chat at " + history.temporaryHome()
                + " (no \"Temporary Chat\" banner or \"Turn off temporary chat\" control; the account may have them off)"
                + "; nothing was typed", false));
        place = new Place(null, true);
        return null;
      });
    } else {
      openNew();
    }
  }

  /** The project's home URL: given as one, or the one sidebar project of that name (none or several: unavailable). */
  private String projectHome(String nameOrUrl) throws SeatException {
    if (nameOrUrl.contains("://") || nameOrUrl.startsWith("/")) {
      return history.projectHome(nameOrUrl).orElseThrow(() -> failed(Kind.UNAVAILABLE, "\"" + nameOrUrl
          + "\" is not a project URL of " + options.chatUrl() + " (/g/g-p-<slug>/project); nothing was typed", false));
    }
    chat.openHome();
    requireReady(observe(PAGE_READY));
    String wanted = nameOrUrl.replaceAll("\\s+", " ").strip();
    List<HistoryPage.ProjectLink> named = wait.until(PROJECT_LIST, () -> {
      List<HistoryPage.ProjectLink> m = history.projects().stream().filter(l -> l.name().equals(wanted)).toList();
      return m.isEmpty() ? null : m;
    }, () -> null);
    if (named == null) {
      throw failed(Kind.UNAVAILABLE, "no project named \"" + wanted + "\" in the sidebar; nothing was typed", false);
    }
    if (named.size() > 1) {
      throw failed(Kind.UNAVAILABLE, named.size() + " projects are named \"" + wanted + "\" ("
          + named.stream().map(HistoryPage.ProjectLink::url).toList() + "); name one by its URL; nothing was typed", false);
    }
    return named.get(0).url();
  }

  /** Leaving the conversation this tab holds: a temporary chat cannot be reopened after this. */
  private void leave(Place next) {
    place = next;
    temporaryHeld = null;
  }

  /**
   * Deletes the conversation at {@code conversationUrl} through its own header menu and the
   * page's confirmation, then reloads the exact URL and requires the page's not-found state.
   * Only the open conversation's header control is clicked, after checking the page shows
   * exactly that conversation: a sidebar row names another one and is never touched.
   */
  @Override
  public Deletion delete(String conversationUrl) throws SeatException {
    checkOpen();
    Optional<String> exact = chat.durableUrl(conversationUrl);
    if (exact.isEmpty()) {
      throw failed(Kind.UNAVAILABLE, "\"" + conversationUrl + "\" is not a conversation URL of " + options.chatUrl()
          + "; nothing was deleted", false);
    }
    String url = exact.get();
    return guard(false, () -> {
      leave(Place.HISTORY);
      if (!opensAsConversation(url)) {
        return Deletion.NOT_FOUND;
      }
      // The header may draw its menu button after the thread; it must be this conversation's page.
      wait.until(MENU_WAIT, () -> url.equals(chat.durableUrl(chat.url()).orElse(null)) && history.headerOptionsShown()
          ? Boolean.TRUE : null,
          () -> failed(Kind.UNAVAILABLE, "the page shows no conversation menu for " + url + "; nothing was deleted", false));
      history.openHeaderMenu();
      wait.until(MENU_WAIT, () -> history.deleteItemShown() ? Boolean.TRUE : null, () -> {
        history.escape();
        return failed(Kind.UNAVAILABLE, "the conversation menu of " + url + " showed no Delete item; nothing was deleted", false);
      });
      history.clickDelete();
      wait.until(MENU_WAIT, () -> history.confirmShown() ? Boolean.TRUE : null, () -> {
        history.escape();
        return failed(Kind.UNAVAILABLE, "the delete confirmation for " + url + " never appeared; nothing was deleted", false);
      });
      history.clickConfirm();
      // The page answers the confirmation by leaving the chat (home) or by showing it gone.
      wait.until(MENU_WAIT, () -> !history.confirmShown() && (!url.equals(chat.durableUrl(chat.url()).orElse(null))
          || chat.state(Set.of()).banner(Verdict.MISSING).isPresent()) ? Boolean.TRUE : null, () -> null);
      if (opensAsConversation(url)) {
        throw failed(Kind.UNAVAILABLE, "ChatGPT took the delete of " + url + " but the conversation still opens; it was"
            + " not deleted (record no tombstone)", false);
      }
      return Deletion.DELETED;
    });
  }

  /**
   * Opens the exact URL and tells whether the conversation shows (true) or the page says it is
   * gone (false: its not-found message, or the app sent the browser home).
   */
  private boolean opensAsConversation(String url) throws SeatException {
    chat.open(url);
    return wait.until(PAGE_READY, () -> {
      ChatGptPage.State s = chat.state(Set.of());
      if (s.banner(Verdict.MISSING).isPresent()) {
        return Boolean.FALSE;
      }
      if (s.loginWall() || s.challenge()) {
        requireReady(stateOf(s));
      }
      boolean onIt = url.equals(chat.durableUrl(s.url()).orElse(null));
      if (onIt && s.composer() && s.turns() > 0) {
        return Boolean.TRUE;
      }
      if (!onIt && chat.durableUrl(s.url()).isEmpty() && s.composer() && !s.url().contains("/c/")) {
        return Boolean.FALSE; // redirected home
      }
      return null;
    }, () -> failed(Kind.UNAVAILABLE, "conversation " + url + " neither loaded nor showed not-found within "
        + PAGE_READY.toSeconds() + " s; nothing was deleted", false));
  }

  @Override
  public void resume(String conversationUrl) throws SeatException {
    checkOpen();
    if (HistoryPage.isTemporary(conversationUrl)) {
      resumeTemporary(conversationUrl);
      return;
    }
    Optional<String> wanted = chat.durableUrl(conversationUrl);
    Optional<String> project = wanted.flatMap(history::projectSlug);
    leave(new Place(project.orElse(null), false));
    if (wanted.isEmpty()) {
      // Not a conversation this seat could have created: never navigate to it.
      throw SeatException.conversationMissing(conversationUrl);
    }
    guard(false, () -> {
      ChatGptPage.State now = chat.state(Set.of());
      if (!(wanted.equals(chat.durableUrl(now.url())) && now.composer() && now.turns() > 0 && !now.faultShown())) {
        chat.open(wanted.get());
      }
      return wait.until(PAGE_READY, () -> {
        ChatGptPage.State s = chat.state(Set.of());
        if (s.banner(Verdict.MISSING).isPresent()) {
          throw SeatException.conversationMissing(conversationUrl);
        }
        if (s.loginWall() || s.challenge()) {
          requireReady(stateOf(s));
        }
        boolean onIt = wanted.equals(chat.durableUrl(s.url()));
        if (onIt && s.composer() && s.turns() > 0) {
          requireReady(stateOf(s));
          return Boolean.TRUE;
        }
        if (project.isPresent() && !onIt && history.conversationId(s.url()).equals(history.conversationId(wanted.get()))) {
          // The chat left its project (the app moved its URL): resuming it would keep a managed
          // chat outside the project. Nothing was typed, so a replay into a fresh one is safe.
          throw SeatException.conversationMissing(conversationUrl + " (no longer in project " + project.get()
              + ": the page shows " + s.url() + ")");
        }
        if (!onIt && chat.durableUrl(s.url()).isEmpty() && s.composer() && !s.url().contains("/c/")) {
          throw SeatException.conversationMissing(conversationUrl); // redirected home
        }
        return null;
      }, () -> SeatException.failed(ProviderFailure.of(Kind.UNAVAILABLE,
          "conversation " + conversationUrl + " did not load within " + PAGE_READY.toSeconds() + " s"), false));
    });
  }

  /**
   * A temporary chat lives only in the tab that holds it: the tab must still show it (the
   * temporary page, its turns); otherwise it is missing (nothing can reopen it) and the caller replays.
   */
  private void resumeTemporary(String conversationUrl) throws SeatException {
    boolean held = guard(false, () -> {
      ChatGptPage.State now = chat.state(Set.of());
      return conversationUrl.equals(temporaryHeld) && now.url().contains(HistoryPage.TEMPORARY_QUERY)
          && chat.durableUrl(now.url()).isEmpty() && now.composer() && now.turns() > 0;
    });
    if (!held) {
      leave(Place.HISTORY);
      throw SeatException.conversationMissing(conversationUrl + " (a temporary chat is not kept once its page is left)");
    }
    place = new Place(null, true);
  }

  @Override
  public Effort setEffort(Effort wanted) throws SeatException {
    checkOpen();
    return guard(false, () -> {
      try {
        Effort shown = chat.chooseEffort(wanted);
        this.effort = wanted;
        return shown;
      } catch (ChatGptPage.EffortUnavailable e) {
        throw failed(Kind.UNAVAILABLE, "cannot set effort " + wanted.label() + ": " + e.getMessage() + "; nothing was sent", false);
      }
    });
  }

  /**
   * For benchmarks: from the arrival in the page of the chunk that completed the last turn by the
   * stream's rule to the seat returning its reply; null when the stream did not decide that turn.
   */
  public Duration lastStreamLag() {
    return lastStreamLag;
  }

  /**
   * For benchmarks: where the last turn's time went inside {@code send}, phase by phase in order
   * (read page, clear composer, typing, wait sendable, effort read-back, Send click, page time to
   * the stream's terminal chunk, terminal chunk seen, cross-check, code blocks, images, url).
   */
  public Map<String, Duration> lastTimings() {
    return lastTimings;
  }

  /**
   * For benchmarks: how long the last completed turn's text had held still when the seat called
   * it complete (the page's last change to completion).
   */
  public Duration lastCompletionLag() {
    return lastCompletionLag;
  }

  @Override
  public void progress(TurnProgress listener) {
    progress.listener(listener);
  }

  @Override
  public SeatReply send(String raw) throws SeatException {
    return turn(raw, List.of(), null);
  }

  /**
   * A one-shot ask: the files go through the composer's upload input before the text, the turn
   * is sent and completed like any other (same Send boundary), then the reply's generated images
   * are downloaded into {@code outputDir}. Unreadable attachments fail before anything is typed.
   */
  @Override
  public SeatReply ask(String text, List<Path> attachments, Path outputDir) throws SeatException {
    for (Path attachment : attachments) {
      if (!attachment.isAbsolute() || !Files.isRegularFile(attachment) || !Files.isReadable(attachment)) {
        throw failed(Kind.UNAVAILABLE, "attachment " + attachment + " is not an absolute readable file; nothing was sent", false);
      }
    }
    if (outputDir != null && !outputDir.isAbsolute()) {
      throw failed(Kind.UNAVAILABLE, "output directory " + outputDir + " is not absolute; nothing was sent", false);
    }
    return turn(text, attachments, outputDir);
  }

  private SeatReply turn(String raw, List<Path> attachments, Path outputDir) throws SeatException {
    checkOpen();
    if (effort == null) {
      throw new IllegalStateException("setEffort must be called before send");
    }
    String text = raw.replace("\r\n", "\n").replace('\r', '\n');
    boolean[] sent = {false};
    try {
      return guard(sent, () -> sendGuarded(text, sent, attachments, outputDir));
    } finally {
      stopRequested = false;
    }
  }

  private SeatReply sendGuarded(String text, boolean[] sent, List<Path> attachments, Path outputDir) throws SeatException {
    if (stopRequested) {
      throw failed(Kind.CANCELLED, "stopped before typing; nothing was sent", false);
    }
    timings = new TurnTimings();
    ChatGptPage.State before = chat.state(Set.of());
    failOnPageFaults(before, false, !attachments.isEmpty());
    if (!before.composer()) {
      requireReady(stateOf(before));
      throw failed(Kind.UNAVAILABLE, "no composer on the page", false);
    }
    requirePlace();
    Set<String> baseline = before.assistantIds();
    Set<String> linksBefore = chat.conversationLinks();
    timings.mark("read page");

    progress.typing();
    chat.clearComposer();
    if (!attachments.isEmpty()) {
      chat.attach(attachments);
    }
    timings.mark("clear composer");
    typeExactly(text);
    timings.mark("typing");
    waitSendable(!attachments.isEmpty());
    timings.mark("wait sendable");
    checkEffortLabel();
    timings.mark("effort read-back");
    if (stopRequested) {
      chat.clearComposer();
      throw failed(Kind.CANCELLED, "stopped before Send; nothing was sent", false);
    }

    // ---- The Send boundary: from here on nothing is ever resent. ----
    stream.begin();
    sent[0] = true;
    chat.clickSend();
    timings.mark("send click");
    progress.sent();
    try {
      return awaitAnswer(baseline, linksBefore, !attachments.isEmpty(), outputDir);
    } finally {
      stream.end();
    }
  }

  /** One poll's outcome after Send: the page state and whose rule ended the turn. */
  private record Ended(ChatGptPage.State state, AnswerArbiter.Decision decision, boolean domComplete) {}

  /**
   * Polls the page after Send until the answer is complete by the stream's rule or, where the
   * stream cannot judge, the DOM's ({@link AnswerArbiter}); then reads it from the source that decided.
   */
  private SeatReply awaitAnswer(Set<String> baseline, Set<String> linksBefore, boolean withAttachments, Path outputDir)
      throws SeatException {
    long clicked = System.nanoTime();
    long clickedMillis = System.currentTimeMillis();
    CompletionTracker tracker = new CompletionTracker(completion);
    Ended ended = wait.until(Duration.ofDays(365), () -> {
      if (stopRequested) {
        clickStopAndWait();
        throw failed(Kind.CANCELLED, "Stop clicked; the turn was cancelled", true);
      }
      ChatGptPage.State now = chat.state(baseline);
      stream.poll();
      // The page's own banner first: it names the exact time a cap lifts; the stream's error
      // bodies and frames count once the page had a moment to show it.
      failOnPageFaults(now, true, withAttachments);
      failOnStreamFaults();
      progress.poll(stream.turn().thinkingNow() || now.thinking(), stream.turn().thinking(),
          stream.turn().charsReceived(), now.targetText());
      long t = System.nanoTime();
      boolean domComplete = tracker.observe(t,
          new CompletionTracker.Observation(now.stopVisible(), now.actionBar(), now.thinking(), now.targetText()));
      AnswerArbiter.Decision decision = AnswerArbiter.decide(stream.pollView(domComplete));
      // A one-shot ask harvests its images from the DOM, which may draw them after the stream ended.
      boolean imagesDrawn = outputDir == null || domComplete || decision != AnswerArbiter.Decision.STREAM;
      if (decision != AnswerArbiter.Decision.WAIT && imagesDrawn) {
        lastCompletionLag = Duration.ofNanos(t - tracker.lastChangeNanos());
        return new Ended(now, decision, domComplete);
      }
      if (now.targetId() == null && !now.stopVisible() && !stream.live() && stream.turn().charsReceived() == 0
          && t - clicked > NO_ANSWER.toNanos()) {
        throw failed(Kind.UNAVAILABLE, "Send was clicked but no answer started within "
            + NO_ANSWER.toSeconds() + " s; not resent", true);
      }
      return null;
    }, () -> null, () -> stream.awaitNews(POLL)); // a poll as soon as the stream moves, else every POLL
    long decidedMillis = System.currentTimeMillis();
    timings.mark("waiting for the answer");
    if (stream.completedAtMillis() > 0) {
      timings.put("  of which page time to the terminal chunk", Duration.ofMillis(Math.max(0, stream.completedAtMillis() - clickedMillis)));
      timings.put("  of which terminal chunk to decision", Duration.ofMillis(Math.max(0, decidedMillis - stream.completedAtMillis())));
    }
    ChatGptPage.State s = ended.state();
    StreamTurn turn = stream.turn();
    if (ended.decision() == AnswerArbiter.Decision.CUT) {
      disagree("the DOM showed the answer complete but the stream ended mid-answer");
      throw failed(Kind.UNAVAILABLE, "the page's stream ended before the answer finished (" + turn.charsReceived()
          + " characters, no finish or terminal frame) although the page shows it done; the answer is cut; not resent", true);
    }
    if (ended.decision() == AnswerArbiter.Decision.DOM_OVER_DEAD_STREAM) {
      disagree("the stream ended without its terminal frames (" + stream.cutBodies() + " cut bodies) while the DOM "
          + "showed the answer complete; the DOM decided");
    }
    boolean fromStream = ended.decision() == AnswerArbiter.Decision.STREAM;
    String slug = fromStream && turn.modelSlug() != null ? turn.modelSlug()
        : s.targetSlug() != null ? s.targetSlug() : turn.modelSlug();
    Optional<String> downgrade = StreamVerdicts.downgrade(effort, slug, turn.modelAdjustments());
    if (downgrade.isPresent()) {
      throw SeatException.failed(ProviderFailure.capped(downgrade.get() + " (plan limit downgrade)" + resumeNote(s),
          capResume(s), clock.instant()), true);
    }
    String messageId = fromStream ? turn.answerMessageId().orElse(s.targetId()) : s.targetId();
    List<String> blocks;
    String prose;
    if (fromStream) {
      MarkdownFences.Split split = MarkdownFences.split(turn.answerMarkdown().orElse(""));
      blocks = split.blocks();
      prose = split.prose();
    } else {
      ChatGptPage.CodeBlocks answer = chat.codeBlocks(s.targetId());
      blocks = answer.blocks();
      prose = answer.prose();
    }
    timings.mark("code blocks");
    String imageMessage = messageId != null && chat.hasMessage(messageId) ? messageId : s.targetId();
    List<ChatGptPage.ImageRef> imageRefs = outputDir == null || imageMessage == null ? List.of() : chat.images(imageMessage);
    if (blocks.isEmpty() && prose.isEmpty() && imageRefs.isEmpty()) {
      throw failed(Kind.PROTOCOL, "the answer was empty", true);
    }
    List<String> images = imageRefs.isEmpty() ? List.of() : harvest(imageRefs, outputDir);
    timings.mark("images");
    String url = placedUrl(turn.conversationId(), linksBefore);
    timings.mark("conversation url");
    SeatReply.Source source = fromStream ? SeatReply.Source.STREAM : SeatReply.Source.DOM;
    if (fromStream) {
      pendingCheck = new CrossCheck(messageId, s.targetId(), blocks);
      if (ended.domComplete()) {
        crossCheck(); // the DOM already finished too: compare now, it costs one read
      }
      timings.mark("cross-check");
    }
    AnswerStats.GLOBAL.answered(source);
    lastStreamLag = fromStream && stream.completedAtMillis() > 0
        ? Duration.ofMillis(Math.max(0, System.currentTimeMillis() - stream.completedAtMillis())) : null;
    lastTimings = timings.phases();
    progress.complete(fromStream ? turn.answerMarkdown().orElse("").length()
        : s.targetText() == null ? 0 : s.targetText().length());
    return new SeatReply(blocks, prose, url, slug, images, source);
  }

  /** A stream answer to compare with the DOM's reading of the same message. */
  private record CrossCheck(String messageId, String domTargetId, List<String> streamBlocks) {}

  /**
   * Compares the last stream answer with what the DOM shows for it (the Copy markdown, else the
   * per-block DOM text); a difference, or a DOM that never showed it, is logged and counted: the
   * stream's answer stood, since it was complete.
   */
  private void crossCheck() {
    CrossCheck check = pendingCheck;
    pendingCheck = null;
    if (check == null || !chat.onSite()) {
      return;
    }
    String id = check.messageId() != null && chat.hasMessage(check.messageId()) ? check.messageId() : check.domTargetId();
    if (id == null || !chat.hasMessage(id)) {
      disagree("the DOM never showed the streamed answer " + check.messageId());
      return;
    }
    List<String> dom = chat.codeBlocks(id, check.streamBlocks()::equals).blocks();
    if (!dom.equals(check.streamBlocks())) {
      disagree("the DOM's code blocks of " + id + " differ from the stream's (" + dom.size() + " vs "
          + check.streamBlocks().size() + " blocks); the stream's stood");
    }
  }

  private static void disagree(String what) {
    AnswerStats.GLOBAL.disagreed();
    LOG.warning("stream and DOM disagree: " + what);
  }

  /** The stream's HTTP errors and error or limit frames as typed failures (after Send: never resent). */
  private void failOnStreamFaults() throws SeatException {
    for (PageStream.HttpError e : stream.httpErrors()) {
      if (System.nanoTime() - e.seenNanos() < BANNER_GRACE.toNanos()) {
        return;
      }
      throw SeatException.failed(StreamVerdicts.httpFailure(e, clock.instant()), true);
    }
    if (stream.seen() && !stream.live() && !stream.handoffUnfollowed()) {
      Optional<ProviderFailure> f = StreamVerdicts.streamFailure(stream.turn(), clock.instant());
      if (f.isPresent()) {
        throw SeatException.failed(f.get(), true);
      }
    }
  }

  /**
   * The conversation's durable URL: the address bar's /c/&lt;id&gt; when it shows one, else the
   * one the stream's conversation id names (the address bar may never leave /c/WEB:), else the
   * page's own ways ({@link #waitConversationUrl}).
   */
  private String conversationUrl(String streamConversationId, Set<String> linksBefore) throws SeatException {
    Optional<String> now = chat.durableUrl(chat.url());
    if (now.isPresent()) {
      return now.get();
    }
    Optional<String> named = chat.conversationUrl(streamConversationId);
    return named.isPresent() ? named.get() : waitConversationUrl(linksBefore);
  }

  /** Where the seat's conversations live: the history, one project (its slug), or temporary chats. */
  private record Place(String projectSlug, boolean temporary) {
    static final Place HISTORY = new Place(null, false);
  }

  /** Before typing: the page still is where openNew proved it (a project's page, the temporary banner). */
  private void requirePlace() throws SeatException {
    if (place.temporary() && temporaryHeld == null && !history.temporaryShown()) {
      throw failed(Kind.UNAVAILABLE, "the page no longer shows the temporary chat (" + chat.url() + "); nothing was sent", false);
    }
    if (place.projectSlug() != null && !place.projectSlug().equals(history.projectSlug(chat.url()).orElse(null))) {
      throw failed(Kind.UNAVAILABLE, "the page left project " + place.projectSlug() + " (" + chat.url() + "); nothing was sent", false);
    }
  }

  /**
   * The reply's conversation URL for the place it was sent in: a temporary chat's is
   * {@code <origin>/c/<id>?temporary-chat=true} from the stream's id (the page never shows it);
   * a project's must be {@code /g/<slug>/c/<id>} of that project (else the chat went elsewhere:
   * unavailable, after Send, not resent).
   */
  private String placedUrl(String streamConversationId, Set<String> linksBefore) throws SeatException {
    if (place.temporary()) {
      String id = streamConversationId != null ? streamConversationId
          : chat.durableUrl(chat.url()).flatMap(history::conversationId).orElse(null);
      if (id == null || chat.conversationUrl(id).isEmpty()) {
        throw failed(Kind.UNAVAILABLE, "the temporary chat answered but its stream named no conversation id; not resent", true);
      }
      temporaryHeld = history.temporaryConversationUrl(id);
      return temporaryHeld;
    }
    if (place.projectSlug() == null) {
      return conversationUrl(streamConversationId, linksBefore);
    }
    String slug = place.projectSlug();
    Optional<String> shown = chat.durableUrl(chat.url());
    String url = shown.isPresent() ? shown.get()
        : streamConversationId != null && chat.conversationUrl(streamConversationId).isPresent()
            ? history.projectConversationUrl(slug, streamConversationId) : waitConversationUrl(linksBefore);
    if (!slug.equals(history.projectSlug(url).orElse(null))) {
      throw failed(Kind.UNAVAILABLE, "the conversation was created outside project " + slug + " (" + url + "); not resent", true);
    }
    return url;
  }

  /** Saves the answer's images (after Send, so a failure here is never resent). */
  private List<String> harvest(List<ChatGptPage.ImageRef> images, Path outputDir) throws SeatException {
    try {
      return new ImageHarvest(chat).save(images, outputDir);
    } catch (IOException e) {
      throw failed(Kind.UNAVAILABLE, "cannot save the reply's images into " + outputDir + ": " + e.getMessage(), true);
    }
  }

  /**
   * Types the text with real input (insertText), falling back to a real clipboard paste when the
   * editor took none of it; either way the composer must then hold exactly the text.
   */
  private void typeExactly(String text) throws SeatException {
    // A composer that takes nothing at all is busy (the page still finishing an earlier answer
    // after its stream ended), not full: both real input paths are tried again until it takes text.
    Optional<String> got = wait.<Optional<String>>until(SEND_READY, () -> {
      String now = chat.insertText(text);
      if (now != null && now.isEmpty() && !text.isEmpty()) {
        now = chat.pasteFromClipboard(text);
      }
      return now == null ? Optional.<String>empty() : now.isEmpty() && !text.isEmpty() ? null : Optional.of(now);
    }, () -> failed(Kind.UNAVAILABLE, "the composer took none of the text for " + SEND_READY.toSeconds()
        + " s (the page is still busy or ignores input); nothing was sent", false));
    checkComposer(text, got.orElse(null));
  }

  private void checkComposer(String text, String got) throws SeatException {
    if (got == null) {
      requireReady(stateOf(chat.state(Set.of())));
      throw failed(Kind.UNAVAILABLE, "the composer disappeared while typing", false);
    }
    if (got.equals(text)) {
      return;
    }
    // An editor may normalize whitespace (as it would for a person's paste); lost content is fatal.
    if (got.replaceAll("\\s+", "").equals(text.replaceAll("\\s+", ""))) {
      return;
    }
    chat.clearComposer();
    throw failed(Kind.CONTEXT_OVERFLOW, "the composer holds " + got.length() + " of " + text.length()
        + " characters after typing (truncated); nothing was sent", false);
  }

  /** Waits until Send is enabled, failing typed (before Send) when the page refuses the text. */
  private void waitSendable(boolean withAttachments) throws SeatException {
    wait.until(SEND_READY, () -> {
      ChatGptPage.State s = chat.state(Set.of());
      failOnPageFaults(s, false, withAttachments);
      if (s.sendEnabled() && !s.stopVisible()) {
        return Boolean.TRUE;
      }
      if (!s.composer()) {
        requireReady(stateOf(s));
      }
      return null;
    }, () -> failed(Kind.UNAVAILABLE, "Send stayed disabled for " + SEND_READY.toSeconds() + " s; nothing was sent", false));
  }

  /** The effort label is read back at send time: a mismatch is never sent. */
  private void checkEffortLabel() throws SeatException {
    String label = chat.effortPillLabel();
    if (EffortLabels.effort(label).orElse(null) == effort) {
      return;
    }
    chat.clearComposer();
    ChatGptPage.State s = chat.state(Set.of());
    Optional<ChatGptPage.Banner> cap = s.banner(Verdict.CAP_DOWNGRADE, Verdict.CAP);
    String detail = "the effort pill reads \"" + label + "\" but " + effort.label() + " was set; nothing was sent";
    if (cap.isPresent()) {
      throw SeatException.failed(ProviderFailure.capped(detail, capResume(s), clock.instant()), false);
    }
    throw failed(Kind.UNAVAILABLE, detail, false);
  }

  /** Turns what a page shows into typed failures: walls, challenges, and every banner by its verdict. */
  private void failOnPageFaults(ChatGptPage.State s, boolean afterSend, boolean withAttachments) throws SeatException {
    if (pageCrashed) {
      throw SeatException.broken("the ChatGPT tab crashed", afterSend, null);
    }
    if (s.challenge()) {
      throw failed(Kind.UNAVAILABLE, "Cloudflare challenge page (" + s.title() + ")" + notSent(afterSend), afterSend);
    }
    if (s.loginWall()) {
      throw failed(Kind.UNAVAILABLE, "logged out: login wall" + notSent(afterSend), afterSend);
    }
    for (ChatGptPage.Banner banner : s.banners()) {
      SeatException e = failureFor(banner, s, afterSend, withAttachments);
      if (e != null) {
        throw e;
      }
    }
  }

  /** What one banner means for this turn, or null when it does not stop it: the table's verdict, made typed. */
  private SeatException failureFor(ChatGptPage.Banner banner, ChatGptPage.State s, boolean afterSend, boolean withAttachments) {
    String text = clip(banner.text());
    return switch (banner.verdict()) {
      case TOO_LONG -> failed(Kind.CONTEXT_OVERFLOW, "ChatGPT refused the message as too long: " + text, afterSend);
      case CONVERSATION_FULL -> SeatException.conversationFull("ChatGPT says the conversation reached its maximum length (\""
          + text + "\"); nothing was resent, the next turn goes to a new conversation", afterSend);
      case FEATURE_CAP -> withAttachments
          ? SeatException.failed(ProviderFailure.capped("uploads are capped: " + text, capResume(s), clock.instant()), afterSend)
          : null;
      case CAP, CAP_DOWNGRADE -> SeatException.failed(
          ProviderFailure.capped("usage cap: " + text, capResume(s), clock.instant()), afterSend);
      case CAPACITY -> failed(Kind.UNAVAILABLE, "ChatGPT is over capacity: \"" + text + "\"" + notSent(afterSend), afterSend);
      case UNUSUAL_ACTIVITY -> failed(Kind.UNAVAILABLE, "ChatGPT reports unusual activity (a person must look at the account): \""
          + text + "\"" + notSent(afterSend), afterSend);
      case ERROR -> failed(Kind.UNAVAILABLE, "ChatGPT showed \"" + text + "\""
          + (afterSend ? "; Retry was not clicked and nothing was resent" : ""), afterSend);
      case MISSING -> failed(Kind.UNAVAILABLE, text, afterSend);
      case OTHER -> null;
    };
  }

  private static String notSent(boolean afterSend) {
    return afterSend ? "" : "; nothing was sent";
  }

  private Instant capResume(ChatGptPage.State s) {
    Instant now = clock.instant();
    for (ChatGptPage.Banner banner : s.banners()) {
      if (isCap(banner.verdict())) {
        Optional<Instant> at = CapTimes.parse(banner.text(), now, ZoneId.systemDefault());
        if (at.isPresent()) {
          return at.get();
        }
      }
    }
    // A banner without a time: the turn's 429 body may still say when (clears_in).
    for (PageStream.HttpError e : stream.httpErrors()) {
      ProviderFailure f = StreamVerdicts.httpFailure(e, now);
      if (e.status() == 429 && !f.detail().contains("estimate")) {
        return Instant.parse(f.resumeAt());
      }
    }
    return now.plus(CAP_ESTIMATE);
  }

  private String resumeNote(ChatGptPage.State s) {
    boolean shown = s.banners().stream().anyMatch(b ->
        isCap(b.verdict()) && CapTimes.parse(b.text(), clock.instant(), ZoneId.systemDefault()).isPresent());
    return shown ? "" : "; the page named no reset time, resume_at is an estimate";
  }

  private static boolean isCap(Verdict v) {
    return v == Verdict.CAP || v == Verdict.CAP_DOWNGRADE || v == Verdict.FEATURE_CAP;
  }

  private void clickStopAndWait() throws SeatException {
    if (!chat.stopLikeShown()) {
      return;
    }
    chat.clickStop();
    wait.until(Duration.ofSeconds(5), () -> chat.stopLikeShown() ? null : Boolean.TRUE, () -> null);
  }

  /**
   * The durable conversation URL: the address bar's /c/&lt;id&gt; (a transient /c/WEB:&lt;id&gt;
   * is never returned), else the history link that appeared with this turn (when the address bar
   * never shows the id: onflip, 7 of 25 new chats).
   */
  private String waitConversationUrl(Set<String> linksBefore) throws SeatException {
    return wait.until(DURABLE_URL, () -> {
      Optional<String> url = chat.durableUrl(chat.url());
      if (url.isPresent()) {
        return url.get();
      }
      Set<String> links = chat.conversationLinks();
      links.removeAll(linksBefore);
      return links.size() == 1 ? links.iterator().next() : null;
    }, () -> failed(Kind.UNAVAILABLE, "the answer completed but neither the address bar nor the history showed a durable"
        + " conversation URL (still " + chat.url() + ")", true));
  }

  /**
   * Waits for the page to settle into a known state and reports it. Pages render banners and
   * walls after their first paint, so a state counts once it held for {@link #SETTLED_POLLS} polls.
   */
  private SeatProbe observe(Duration within) {
    long deadline = System.nanoTime() + within.toNanos();
    SeatProbe last = null;
    int same = 0;
    while (true) {
      ChatGptPage.State s = chat.state(Set.of());
      SeatProbe probe = stateOf(s);
      same = last != null && last.state() == probe.state() ? same + 1 : 1;
      last = probe;
      // A document already seen settled needs no second wait (probe runs before every turn).
      boolean settled = (same >= SETTLED_POLLS || s.settled()) && probe.state() != SeatProbe.State.ERROR;
      if (settled || System.nanoTime() - deadline > 0) {
        if (probe.state() != SeatProbe.State.READY) {
          return probe;
        }
        if (!s.settled() || account == null) {
          ChatGptPage.Session session = chat.session();
          if (session.known() && session.email() == null) {
            return new SeatProbe(SeatProbe.State.LOGGED_OUT, null, null, "guest session: no logged-in user");
          }
          account = session.known() ? session.email() : null;
          chat.markSettled();
        }
        return new SeatProbe(SeatProbe.State.READY, account, null,
            account != null ? "ready" : "ready; account unknown (session endpoint did not answer)");
      }
      sleep();
    }
  }

  private SeatProbe stateOf(ChatGptPage.State s) {
    if (s.challenge()) {
      return new SeatProbe(SeatProbe.State.CHALLENGED, null, null, "Cloudflare challenge: " + s.title());
    }
    if (s.loginWall()) {
      return new SeatProbe(SeatProbe.State.LOGGED_OUT, null, null, "login wall");
    }
    for (ChatGptPage.Banner banner : s.banners()) {
      switch (banner.verdict()) {
        case CAP, CAP_DOWNGRADE -> {
          return new SeatProbe(SeatProbe.State.CAPPED, null, capResume(s), clip(banner.text()));
        }
        case ERROR, CAPACITY, UNUSUAL_ACTIVITY -> {
          return new SeatProbe(SeatProbe.State.ERROR, null, null, clip(banner.text()));
        }
        default -> { }
      }
    }
    if (s.composer()) {
      return SeatProbe.ready(null);
    }
    return new SeatProbe(SeatProbe.State.ERROR, null, null, "no composer on " + s.url());
  }

  private void requireReady(SeatProbe probe) throws SeatException {
    switch (probe.state()) {
      case READY -> { }
      case LOGGED_OUT -> throw failed(Kind.UNAVAILABLE, "logged out: " + probe.detail() + "; nothing was sent", false);
      case CHALLENGED -> throw failed(Kind.UNAVAILABLE, probe.detail() + "; nothing was sent", false);
      case CAPPED -> throw SeatException.failed(ProviderFailure.capped(probe.detail(), probe.capResumeAt(), clock.instant()), false);
      case ERROR -> throw failed(Kind.UNAVAILABLE, "page not ready: " + probe.detail(), false);
      default -> throw new IllegalStateException("Unhandled probe state: " + probe.state());
    }
  }

  @Override
  public void stop() {
    stopRequested = true;
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      context.close();
    } catch (PlaywrightException ignored) {
      // A dead browser has nothing left to close.
    }
    closeQuietly(playwright);
    OrphanReaper.reap(profile);
  }

  public Path profile() {
    return profile;
  }

  // ---- Reading the page for solwebctl (doctor, capture): never types, never sends ----------

  /**
   * Reads the page into a {@link PageReport}: {@code url} is opened first (same site as the
   * seat's chat URL), null reads the page as it is (the home page if the tab is blank).
   * Never types, never clicks Send, Stop or Retry; may open the effort menu and Escape it.
   *
   * @throws SeatException FAILED (unavailable) when the page cannot be opened at all
   */
  public PageReport inspect(URI url, boolean openEffortMenu) throws SeatException {
    checkOpen();
    PageInspector inspector = new PageInspector(page, chat);
    return guard(false, () -> {
      try {
        return inspector.inspect(target(url), openEffortMenu);
      } catch (PageInspector.Unopenable e) {
        throw failed(Kind.UNAVAILABLE, e.getMessage(), false);
      }
    });
  }

  @Override
  public String doctor(URI url, boolean openEffortMenu) throws SeatException {
    return inspect(url, openEffortMenu).toJson();
  }

  /**
   * The page as sanitized HTML for a bug report (see {@link CaptureSanitizer}); with
   * {@code openEffortMenu} the effort menu is open in the capture and closed with Escape after.
   */
  public String capture(URI url, boolean openEffortMenu) throws SeatException {
    checkOpen();
    PageInspector inspector = new PageInspector(page, chat);
    return guard(false, () -> {
      try {
        URI to = target(url);
        if (to != null) {
          inspector.open(to);
        }
        inspector.settle();
        ChatGptPage.Session session = chat.onSite() ? chat.session() : new ChatGptPage.Session(false, null);
        boolean opened = openEffortMenu && inspector.openEffortMenu();
        try {
          return CaptureSanitizer.capture(page, session.email()).html();
        } finally {
          if (opened) {
            inspector.closeEffortMenu();
          }
        }
      } catch (PageInspector.Unopenable e) {
        throw failed(Kind.UNAVAILABLE, e.getMessage(), false);
      }
    });
  }

  /** Where a doctor read goes: the given URL if on the seat's site, the home page for a blank tab. */
  private URI target(URI url) throws SeatException {
    if (url != null) {
      if (!url.getScheme().equalsIgnoreCase(options.chatUrl().getScheme())
          || !url.getRawAuthority().equalsIgnoreCase(options.chatUrl().getRawAuthority())) {
        throw failed(Kind.UNAVAILABLE, "the seat reads only its own site " + options.chatUrl() + ", not " + url, false);
      }
      return url;
    }
    return page.url().startsWith("http") ? null : options.chatUrl();
  }

  // ---- Plumbing --------------------------------------------------------------------------

  @FunctionalInterface
  private interface Step<T> {
    T run() throws SeatException;
  }

  private <T> T guard(boolean afterSend, Step<T> step) throws SeatException {
    return guard(new boolean[] {afterSend}, step);
  }

  /** Maps Playwright's exceptions: a dead browser is BROKEN, anything else a typed failure. */
  private <T> T guard(boolean[] afterSend, Step<T> step) throws SeatException {
    try {
      return step.run();
    } catch (PlaywrightException e) {
      boolean dead = pageCrashed || page.isClosed() || (e.getMessage() != null && CLOSED.matcher(e.getMessage()).find());
      if (dead) {
        throw SeatException.broken("browser connection lost" + (afterSend[0] ? " after Send" : " before Send")
            + ": " + firstLine(e.getMessage()), afterSend[0], e);
      }
      throw new SeatException(SeatException.Reason.FAILED, ProviderFailure.of(Kind.UNAVAILABLE,
          "page automation failed" + (afterSend[0] ? " after Send (not resent)" : "") + ": " + firstLine(e.getMessage())),
          afterSend[0], e);
    }
  }

  private static SeatException failed(Kind kind, String detail, boolean afterSend) {
    return SeatException.failed(ProviderFailure.of(kind, detail), afterSend);
  }

  private void checkOpen() throws SeatException {
    if (closed) {
      throw SeatException.broken("Playwright seat on " + profile + " is closed", false, null);
    }
    if (pageCrashed || page.isClosed()) {
      throw SeatException.broken("the ChatGPT tab is gone", false, null);
    }
  }

  /** One poll interval; an interrupt of the seat thread counts as a Stop request. */
  private void sleep() {
    wait.pause();
  }

  private static void closeQuietly(Playwright pw) {
    try {
      pw.close();
    } catch (RuntimeException ignored) {
      // The driver may already be gone with the browser.
    }
  }

  private static String clip(String s) {
    String one = s.replaceAll("\\s+", " ").strip();
    return one.length() > 300 ? one.substring(0, 300) + "…" : one;
  }

  /** Playwright messages span lines and carry the driver's stack and paths: one clean line for a detail. */
  private static String firstLine(String s) {
    return PlaywrightMessages.clean(s);
  }

  /** Options in force; for the factory and tests. */
  PlaywrightOptions options() {
    return options;
  }
}

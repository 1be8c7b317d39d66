package dev.solweb.provider.seat.playwright;

import static dev.solweb.provider.seat.playwright.SeatFaults.failed;

import com.microsoft.playwright.PlaywrightException;
import dev.solweb.provider.failure.ProviderFailure.Kind;
import dev.solweb.provider.model.Attachment;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.seat.AnswerStats;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.SeatReply;
import dev.solweb.provider.seat.SentMessage;
import dev.solweb.provider.seat.playwright.page.ChatGptPage;
import dev.solweb.provider.seat.playwright.page.CompletionTracker;
import dev.solweb.provider.seat.playwright.page.Controls;
import dev.solweb.provider.seat.playwright.page.EffortPicker;
import dev.solweb.provider.seat.playwright.page.ImageHarvest;
import dev.solweb.provider.seat.playwright.page.MarkdownFences;
import dev.solweb.provider.seat.playwright.page.PageVerdicts.Verdict;
import dev.solweb.provider.seat.playwright.page.PageWait;
import dev.solweb.provider.seat.playwright.traffic.AnswerArbiter;
import dev.solweb.provider.seat.playwright.traffic.HistoryPolls;
import dev.solweb.provider.seat.playwright.traffic.ObservedRequest;
import dev.solweb.provider.seat.playwright.traffic.PageStream;
import dev.solweb.provider.seat.playwright.traffic.StreamStatus;
import dev.solweb.provider.seat.playwright.traffic.StreamTap;
import dev.solweb.provider.seat.playwright.traffic.StreamTurn;
import dev.solweb.provider.seat.playwright.traffic.StreamVerdicts;
import dev.solweb.provider.seat.playwright.traffic.WireEffort;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.logging.Logger;

/**
 * One turn's steps on the page, in order: read the page, type the text exactly, wait for Send,
 * check the effort, cross the Send boundary, wait for the answer by the stream's rule (the DOM's
 * where the stream cannot judge, {@link AnswerArbiter}) and read it back from the source that
 * decided. Everything before the Send click fails with {@code afterSend=false}; from the click on
 * nothing is ever resent. One instance per turn, on the seat's thread; the seat guards it.
 */
final class PageTurn {

  static final Duration POLL = Duration.ofMillis(30);
  /**
   * How long the seat waits after typing for the page's {@code /prepare} once the page is known to
   * send one. No source gives the page's debounce (REAL-PAGE row 31); fakesol's is 300 ms.
   */
  static final Duration PREPARE_WAIT = Duration.ofSeconds(3);
  /** The same wait on a page not yet seen to prepare or not (a seat's first turn). */
  static final Duration FIRST_PREPARE_WAIT = Duration.ofMillis(800);
  /** How long a Send click may take to become the page's turn request. */
  private static final Duration SEND_PROOF = Duration.ofSeconds(5);
  /** How long the page may show a send (composer emptied, Stop) before a request the tap did not see is given up on. */
  private static final Duration SEND_DOM_GRACE = Duration.ofSeconds(1);
  /** How long the seat waits for the page's answer to a stream_status it asked. */
  private static final Duration STATUS_ANSWER = Duration.ofSeconds(1);
  private static final Logger LOG = Logger.getLogger(PageTurn.class.getName());
  private static final Duration SEND_READY = Duration.ofSeconds(15);
  private static final Duration NO_ANSWER = Duration.ofSeconds(20);

  /** What the seat hands a turn: the page, its stream, the funnel and the seat's own state. */
  record Tab(ChatGptPage chat, PageStream stream, SeatNavigation navigation, SeatFaults faults, PageWait pageWait,
      ProgressFeed progress, CompletionTracker.Rule completion, AtomicBoolean stopRequested, HistoryPolls polls) {}

  /** The phase {@link #timings} gives the uploads: from the first {@code setInputFiles} to every file processed. */
  static final String UPLOAD_PHASE = "upload: input to ready";

  /** What the seat keeps of a finished turn: the bench figures and the deferred DOM cross-check. */
  record Figures(Duration completionLag, Duration streamLag, java.util.Map<String, Duration> timings, CrossCheck pending) {}

  /** One poll's outcome after Send: the page state and whose rule ended the turn. */
  private record Ended(ChatGptPage.State state, AnswerArbiter.Decision decision, boolean domComplete) {}

  private final Tab tab;
  private final ChatGptPage chat;
  private final PageStream stream;
  private final Effort effort;
  /** Where the current turn's time goes (bench-seat only; never read for a decision). */
  private final TurnTimings timings = new TurnTimings();
  private Duration completionLag = Duration.ZERO;
  private Duration streamLag;
  private CrossCheck pending;
  /** The Send's user message id and the URL reported with it, once the request proved it. */
  private String sentMessage;
  private String reportedUrl;
  private Consumer<SentMessage> atSend;
  /** Whether this page has the tap (read once per turn). */
  private boolean tapped;
  /** The last stream_status the page answered this turn ({@link #stillStreaming}), and when the seat may ask again. */
  private StreamStatus lastStatus = StreamStatus.UNKNOWN;
  private final HistoryPolls.Poller statusPolls;

  PageTurn(Tab tab, Effort effort) {
    this.tab = tab;
    this.chat = tab.chat();
    this.stream = tab.stream();
    this.effort = effort;
    this.statusPolls = tab.polls().poller();
  }

  Figures figures() {
    return new Figures(completionLag, streamLag, timings.phases(), pending);
  }

  /**
   * Types and sends {@code text} (normalized line ends), with {@code attachments} uploaded first;
   * {@code sent[0]} goes true at the Send boundary, so the seat's guard knows which side a
   * Playwright error fell on.
   */
  SeatReply run(String text, boolean[] sent, List<Attachment> attachments, PageUploads uploads, Path outputDir,
      Consumer<SentMessage> atSend) throws SeatException {
    if (tab.stopRequested().get()) {
      throw failed(Kind.CANCELLED, "stopped before typing; nothing was sent", false);
    }
    boolean withAttachments = !attachments.isEmpty();
    ChatGptPage.State before = chat.state(Set.of());
    tab.faults().failOnPage(before, false, withAttachments);
    if (!before.composer()) {
      tab.faults().requireReady(tab.faults().probe(before));
      throw failed(Kind.UNAVAILABLE, "no composer on the page", false);
    }
    tab.navigation().requirePlace();
    Set<String> baseline = before.assistantIds();
    Set<String> linksBefore = chat.conversationLinks();
    timings.mark("read page");

    tab.progress().typing();
    tapped = stream.tapped(); // without the tap the page's requests cannot be seen: the DOM and the click decide
    stream.watch(); // from here on the page's /prepare and turn requests are this turn's
    long typing = stream.mark();
    chat.clearComposer();
    timings.mark("clear composer");
    if (withAttachments) {
      timings.put(UPLOAD_PHASE, uploads.upload(attachments)); // proven by the page's traffic, before anything is typed
      timings.mark("uploads");
    }
    typeExactly(text);
    timings.mark("typing");
    waitSendable(withAttachments);
    timings.mark("wait sendable");
    checkEffort(typing);
    if (tab.stopRequested().get()) {
      chat.clearComposer();
      throw failed(Kind.CANCELLED, "stopped before Send; nothing was sent", false);
    }

    // ---- The Send boundary (the page's own turn request): from here on nothing is ever resent. ----
    stream.begin();
    sendProven(sent, atSend);
    if (withAttachments) {
      uploads.checkSent(); // the Send body names every file id (row 48), or the turn fails
    }
    timings.mark("send click");
    tab.progress().sent();
    try {
      return awaitAnswer(baseline, linksBefore, withAttachments, outputDir);
    } finally {
      stream.end();
    }
  }

  /**
   * Row 35's Regenerate on the last answer ({@link dev.solweb.provider.seat.BrowserSeat#regenerate}):
   * one click, proven by the page's own turn request (action {@code variant}, no new user
   * message), then the new answer read as a Send's. Empty, with nothing sent, when the page
   * offers none, the tap cannot see the page's requests, or no regeneration request follows the
   * click; {@code sent[0]} goes true once it did.
   */
  Optional<SeatReply> regenerate(boolean[] sent) throws SeatException {
    if (tab.stopRequested().get()) {
      throw failed(Kind.CANCELLED, "stopped before Regenerate; nothing was sent", false);
    }
    ChatGptPage.State before = chat.state(Set.of());
    tab.faults().failOnPage(before, false, false);
    tapped = stream.tapped();
    if (!tapped) {
      return Optional.empty(); // only the page's request can prove what the click did
    }
    Set<String> baseline = before.assistantIds();
    Set<String> linksBefore = chat.conversationLinks();
    stream.watch();
    long mark = stream.mark();
    stream.begin();
    try {
      if (!chat.clickRegenerate()) {
        return Optional.empty();
      }
      Optional<ObservedRequest> request = stream.awaitRequest(ObservedRequest.Kind.TURN, mark, SEND_PROOF);
      if (request.isEmpty() || !request.get().regeneration()) {
        LOG.info("Regenerate was clicked but the page made no regeneration request"
            + request.map(r -> " (its turn request says action " + r.action() + ")").orElse("") + "; not offered");
        return Optional.empty();
      }
      sent[0] = true;
      crossed(request.get(), message -> { }); // its effort checked as a Send's (it names no new message)
      timings.mark("regenerate click");
      tab.progress().sent();
      return Optional.of(awaitAnswer(baseline, linksBefore, false, null));
    } finally {
      stream.end();
    }
  }

  // ---- Effort, from the page's /prepare --------------------------------------------------------

  /**
   * The effort the page will use, checked before Send: its {@code /prepare} (sent while the user
   * types, debounced) names the model and {@code thinking_effort} ({@link WireEffort}); a mismatch
   * is chosen again once and checked again, and a page still wrong, or naming an effort the table
   * does not know, is refused with nothing sent. A page that sends no {@code /prepare} (older
   * shapes) has its pill label read back instead.
   */
  private void checkEffort(long typing) throws SeatException {
    Duration bound = !tapped ? Duration.ZERO
        : stream.prepares() == null ? FIRST_PREPARE_WAIT : stream.prepares() ? PREPARE_WAIT : Duration.ZERO;
    Optional<ObservedRequest> prepared = bound.isZero() ? Optional.empty()
        : stream.awaitRequest(ObservedRequest.Kind.PREPARE, typing, bound);
    timings.mark("prepare wait");
    if (prepared.isEmpty()) {
      checkEffortLabel();
      timings.mark("effort read-back");
      return;
    }
    Optional<Effort> named = WireEffort.effort(prepared.get());
    if (named.isPresent() && named.get() == effort) {
      return;
    }
    refuseUnknown(prepared.get(), named);
    long again = stream.mark();
    chat.chooseEffort(effort, true); // once more, whatever the pill says; the page prepares again for the choice
    Optional<ObservedRequest> second = stream.awaitRequest(ObservedRequest.Kind.PREPARE, again, PREPARE_WAIT);
    timings.mark("effort chosen again");
    if (second.isEmpty()) {
      chat.clearComposer();
      throw failed(Kind.UNAVAILABLE, "the page's /prepare names " + prepared.get().effortWords() + " (" + named.get().label()
          + ") but " + effort.label() + " was asked, and after choosing " + effort.label() + " again the page sent no new"
          + " /prepare within " + PREPARE_WAIT.toSeconds() + " s; nothing was sent", false);
    }
    Optional<Effort> now = WireEffort.effort(second.get());
    refuseUnknown(second.get(), now);
    if (now.get() != effort) {
      chat.clearComposer();
      throw tab.faults().effortRefused(chat.state(Set.of()), "the page will send " + second.get().effortWords() + " ("
          + now.get().label() + ") but " + effort.label() + " was asked, also after choosing it again; nothing was sent");
    }
  }

  /** A /prepare whose model and effort the table does not know: refused by name, before Send. */
  private void refuseUnknown(ObservedRequest request, Optional<Effort> named) throws SeatException {
    if (named.isEmpty()) {
      chat.clearComposer();
      throw failed(Kind.UNAVAILABLE, "the page's /prepare names " + request.effortWords() + ", which is no effort the seat"
          + " knows (" + effort.label() + " was asked); nothing was sent", false);
    }
  }

  // ---- The Send boundary ---------------------------------------------------------------------

  /**
   * Clicks Send and waits for the proof: the page's own turn request ({@code /f/conversation}). A
   * request seen is a send, whatever the click returned; a click with no request and a page that
   * still holds the text was not one, so it is clicked once more, and a second such click fails
   * with nothing sent. Where the seat cannot see the page's requests (no tap) or the page shows
   * the send another way (the composer emptied, Stop), the click is the boundary, as before.
   */
  private void sendProven(boolean[] sent, Consumer<SentMessage> atSend) throws SeatException {
    if (!tapped) {
      sent[0] = true;
      chat.clickSend();
      return;
    }
    for (int click = 1; ; click++) {
      long mark = stream.mark();
      PlaywrightException clickFailed = null;
      try {
        chat.clickSend();
      } catch (PlaywrightException e) {
        clickFailed = e; // the request decides whether it sent
      }
      long clicked = System.nanoTime();
      while (true) {
        Optional<ObservedRequest> request = stream.awaitRequest(ObservedRequest.Kind.TURN, mark, POLL);
        if (request.isPresent()) {
          sent[0] = true;
          crossed(request.get(), atSend);
          return;
        }
        long waited = System.nanoTime() - clicked;
        boolean shown = shownSent();
        if (shown && (waited > SEND_DOM_GRACE.toNanos() || clickFailed != null)) {
          sent[0] = true; // sent by a way the tap does not see: the click is the boundary
          LOG.info("the page shows the send but made no turn request the seat saw; the click is the Send boundary");
          return;
        }
        if (waited > SEND_PROOF.toNanos()) {
          break;
        }
      }
      if (click == 2) {
        chat.clearComposer();
        throw failed(Kind.UNAVAILABLE, "Send was clicked twice but the page made no turn request within "
            + SEND_PROOF.toSeconds() + " s and still holds the text; nothing was sent", false);
      }
    }
  }

  /** Whether the page shows a send the tap did not see: its composer emptied, or Stop. */
  private boolean shownSent() {
    ChatGptPage.State s = chat.state(Set.of());
    String left = chat.composerText();
    return s.stopVisible() || (left != null && left.isEmpty());
  }

  /** The Send crossed: what its request names is reported, and its effort checked once more (recorded, never resent). */
  private void crossed(ObservedRequest request, Consumer<SentMessage> atSend) {
    stream.prepared(request.prepareState() != null || stream.request(ObservedRequest.Kind.PREPARE, 0).isPresent());
    if (request.userMessageId() != null) {
      sentMessage = request.userMessageId();
      reportedUrl = request.conversationId() == null ? null : tab.navigation().urlOf(request.conversationId());
      atSend.accept(new SentMessage(sentMessage, reportedUrl));
      this.atSend = atSend;
    }
    if (request.model() == null && request.thinkingEffort() == null) {
      return; // an older page names no effort in its request
    }
    Optional<Effort> sentWith = WireEffort.effort(request);
    if (sentWith.isEmpty() || sentWith.get() != effort) {
      AnswerStats.GLOBAL.effortMismatchAfterSend();
      LOG.warning("the page's turn request names " + request.effortWords() + " ("
          + sentWith.map(Effort::label).orElse("no effort the seat knows") + ") but " + effort.label()
          + " was asked; the turn is not resent");
    }
  }

  /** A new chat's conversation, once the stream names it: reported with the Send's message id. */
  private void reportConversation() {
    String id = stream.turn().conversationId();
    if (atSend == null || reportedUrl != null || id == null) {
      return;
    }
    reportedUrl = tab.navigation().urlOf(id);
    if (reportedUrl != null) {
      atSend.accept(new SentMessage(sentMessage, reportedUrl));
    }
  }

  /**
   * Polls the page after Send until the answer is complete by the stream's rule or, where the
   * stream cannot judge, the DOM's ({@link AnswerArbiter}); then reads it from the source that decided.
   */
  private SeatReply awaitAnswer(Set<String> baseline, Set<String> linksBefore, boolean withAttachments, Path outputDir)
      throws SeatException {
    long clicked = System.nanoTime();
    long clickedMillis = System.currentTimeMillis();
    CompletionTracker tracker = new CompletionTracker(tab.completion());
    Ended ended = tab.pageWait().until(Duration.ofDays(365), () -> {
      if (tab.stopRequested().get()) {
        clickStopAndWait();
        throw failed(Kind.CANCELLED, "Stop clicked; the turn was cancelled", true);
      }
      ChatGptPage.State now = chat.state(baseline);
      stream.poll();
      reportConversation();
      // The page's own banner first: it names the exact time a cap lifts; the stream's error
      // bodies and frames count once the page had a moment to show it.
      tab.faults().failOnPage(now, true, withAttachments);
      tab.faults().failOnStream();
      tab.progress().poll(stream.turn().thinkingNow() || now.thinking(), stream.turn().thinking(),
          stream.turn().reviewing() || now.banner(Verdict.REVIEWING).isPresent(), stream.turn().charsReceived(),
          now.targetText());
      long t = System.nanoTime();
      boolean domComplete = tracker.observe(t,
          new CompletionTracker.Observation(now.stopVisible(), now.actionBar(), now.thinking(), now.targetText()));
      AnswerArbiter.Decision decision = stream.decide(domComplete);
      if ((decision == AnswerArbiter.Decision.DOM || decision == AnswerArbiter.Decision.DOM_OVER_DEAD_STREAM)
          && stillStreaming()) {
        decision = AnswerArbiter.Decision.WAIT; // the page's own stream_status before the DOM rule
      }
      // A one-shot ask harvests its images from the DOM, which may draw them after the stream ended.
      boolean imagesDrawn = outputDir == null || domComplete || decision != AnswerArbiter.Decision.STREAM;
      if (decision != AnswerArbiter.Decision.WAIT && imagesDrawn) {
        completionLag = Duration.ofNanos(t - tracker.lastChangeNanos());
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
    return readBack(ended, linksBefore, outputDir);
  }

  /**
   * Where the stream cannot be followed and the DOM looks finished: the page's own
   * {@code stream_status} (asked from the page with the account's backoff, {@link HistoryPolls}) says whether the answer is
   * still being written ("connection interrupted" keeps {@code IS_STREAMING}: not an end), done, or
   * failed (a typed failure, not resent). Unknown (no tap, no conversation id, no answer): the DOM
   * rule decides as before.
   */
  private boolean stillStreaming() throws SeatException {
    String id = stream.turn().conversationId() != null ? stream.turn().conversationId()
        : tab.navigation().conversationIdOf(chat.url()).orElse(null);
    if (id == null) {
      return false;
    }
    if (!statusPolls.due()) {
      return lastStatus == StreamStatus.IS_STREAMING;
    }
    long now = System.nanoTime();
    int seen = stream.documents().size();
    String route = "/backend-api/conversation/" + id + "/stream_status";
    if (!stream.refetch(route)) {
      lastStatus = StreamStatus.UNKNOWN;
      return false;
    }
    long until = now + STATUS_ANSWER.toNanos();
    lastStatus = StreamStatus.UNKNOWN;
    while (System.nanoTime() < until && lastStatus == StreamStatus.UNKNOWN) {
      stream.refresh();
      List<StreamTap.Document> documents = stream.documents();
      for (int i = seen; i < documents.size(); i++) {
        if (documents.get(i).path().equals(route)) {
          statusPolls.answered(documents.get(i).status());
          lastStatus = StreamStatus.decode(documents.get(i).status(),
              documents.get(i).text() == null ? null : documents.get(i).text().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
      }
      if (lastStatus == StreamStatus.UNKNOWN) {
        stream.awaitNews(POLL);
      }
    }
    if (lastStatus == StreamStatus.FAILURE) {
      throw failed(Kind.UNAVAILABLE, "the page's stream_status says the answer failed (FAILURE) although the page looks"
          + " done; Retry was not clicked and nothing was resent", true);
    }
    return lastStatus == StreamStatus.IS_STREAMING;
  }

  /** The answer from the source that decided, its model checked against the effort, its images saved. */
  private SeatReply readBack(Ended ended, Set<String> linksBefore, Path outputDir) throws SeatException {
    ChatGptPage.State s = ended.state();
    StreamTurn turn = stream.turn();
    if (ended.decision() == AnswerArbiter.Decision.CUT) {
      CrossCheck.disagree("the DOM showed the answer complete but the stream ended mid-answer");
      throw failed(Kind.UNAVAILABLE, "the page's stream ended before the answer finished (" + turn.charsReceived()
          + " characters, no finish or terminal frame) although the page shows it done; the answer is cut; not resent", true);
    }
    if (ended.decision() == AnswerArbiter.Decision.DOM_OVER_DEAD_STREAM) {
      CrossCheck.disagree("the stream ended without its terminal frames (" + stream.cutBodies() + " cut bodies) while the DOM "
          + "showed the answer complete; the DOM decided");
    }
    boolean fromStream = ended.decision() == AnswerArbiter.Decision.STREAM;
    String slug = fromStream && turn.modelSlug() != null ? turn.modelSlug()
        : s.targetSlug() != null ? s.targetSlug() : turn.modelSlug();
    Optional<String> downgrade = StreamVerdicts.downgrade(effort, slug, turn.modelAdjustments());
    if (downgrade.isPresent()) {
      throw tab.faults().downgrade(downgrade.get(), s);
    }
    String messageId = fromStream ? turn.answerMessageId().orElse(s.targetId()) : s.targetId();
    MarkdownFences.Split answer = fromStream ? MarkdownFences.split(turn.answerMarkdown().orElse(""))
        : chat.codeBlocks(s.targetId()).split();
    timings.mark("code blocks");
    String imageMessage = messageId != null && chat.hasMessage(messageId) ? messageId : s.targetId();
    List<ChatGptPage.ImageRef> imageRefs = outputDir == null || imageMessage == null ? List.of() : chat.images(imageMessage);
    if (answer.blocks().isEmpty() && answer.prose().isEmpty() && imageRefs.isEmpty()) {
      throw failed(Kind.PROTOCOL, "the answer was empty", true);
    }
    List<String> images = imageRefs.isEmpty() ? List.of() : harvest(imageRefs, outputDir);
    timings.mark("images");
    String url = tab.navigation().placedUrl(turn.conversationId(), linksBefore);
    timings.mark("conversation url");
    SeatReply.Source source = fromStream ? SeatReply.Source.STREAM : SeatReply.Source.DOM;
    if (fromStream) {
      pending = new CrossCheck(messageId, s.targetId(), answer.blocks());
      if (ended.domComplete()) {
        pending.run(chat, tab.pageWait()); // the DOM already finished too: compare now, it costs one read
        pending = null;
      }
      timings.mark("cross-check");
    }
    AnswerStats.GLOBAL.answered(source);
    streamLag = fromStream && stream.completedAtMillis() > 0
        ? Duration.ofMillis(Math.max(0, System.currentTimeMillis() - stream.completedAtMillis())) : null;
    tab.progress().complete(fromStream ? turn.answerMarkdown().orElse("").length()
        : s.targetText() == null ? 0 : s.targetText().length());
    return new SeatReply(answer.blocks(), answer.prose(), url, slug, images, source);
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
    Optional<String> got = tab.pageWait().<Optional<String>>until(SEND_READY, () -> {
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
      tab.faults().requireReady(tab.faults().probe(chat.state(Set.of())));
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
    boolean[] sendSeen = {false};
    tab.pageWait().until(SEND_READY, () -> {
      ChatGptPage.State s = chat.state(Set.of());
      sendSeen[0] |= s.via().send() != null;
      tab.faults().failOnPage(s, false, withAttachments);
      if (s.sendEnabled() && !s.stopVisible()) {
        return Boolean.TRUE;
      }
      if (!s.composer()) {
        tab.faults().requireReady(tab.faults().probe(s));
      }
      return null;
    }, () -> failed(Kind.UNAVAILABLE, sendSeen[0] ? "Send stayed disabled for " + SEND_READY.toSeconds() + " s; nothing was sent"
        : Controls.notFound("Send", Controls.SEND) + " for " + SEND_READY.toSeconds() + " s; nothing was sent", false));
  }

  /**
   * The effort is read back at send time where the page sends no /prepare: the pill's attribute,
   * else its label; a pill in a language the seat has no table for ({@code <html lang>}) is read
   * through its menu (a slider's value in its own range). A mismatch is never sent.
   */
  private void checkEffortLabel() throws SeatException {
    Optional<Effort> shown = chat.effort().pillEffort();
    if (shown.isEmpty() && chat.effortPillLabel() != null && !chat.effort().labelsKnown()) {
      shown = menuEffort();
    }
    if (shown.orElse(null) == effort) {
      return;
    }
    chat.clearComposer();
    throw tab.faults().effortMismatch(chat.state(Set.of()), chat.effortPillLabel(), effort);
  }

  /** The effort the pill's menu shows checked (opened and closed again), or empty when it shows none. */
  private Optional<Effort> menuEffort() {
    try {
      EffortPicker.EffortMenu menu = chat.effortPicker();
      return Optional.ofNullable(menu.checked()).map(EffortPicker.EffortOption::effort);
    } catch (SeatException | PlaywrightException e) {
      return Optional.empty();
    }
  }

  private void clickStopAndWait() throws SeatException {
    boolean running = stream.live(); // only the traffic may let the seat click the composer's last plain button
    if (!chat.stopLikeShown() && !running) {
      return;
    }
    chat.clickStop(running);
    tab.pageWait().until(Duration.ofSeconds(5), () -> chat.stopLikeShown() ? null : Boolean.TRUE, () -> null);
  }
}

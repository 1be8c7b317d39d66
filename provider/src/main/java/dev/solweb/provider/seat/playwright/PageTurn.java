package dev.solweb.provider.seat.playwright;

import static dev.solweb.provider.seat.playwright.SeatFaults.failed;

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
import dev.solweb.provider.seat.playwright.page.ImageHarvest;
import dev.solweb.provider.seat.playwright.page.MarkdownFences;
import dev.solweb.provider.seat.playwright.page.PageVerdicts.Verdict;
import dev.solweb.provider.seat.playwright.page.PageWait;
import dev.solweb.provider.seat.playwright.traffic.AnswerArbiter;
import dev.solweb.provider.seat.playwright.traffic.HistoryPolls;
import dev.solweb.provider.seat.playwright.traffic.PageStream;
import dev.solweb.provider.seat.playwright.traffic.StreamStatus;
import dev.solweb.provider.seat.playwright.traffic.StreamTap;
import dev.solweb.provider.seat.playwright.traffic.StreamTurn;
import dev.solweb.provider.seat.playwright.traffic.StreamVerdicts;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * One turn's steps on the page, in order: read the page, type the text exactly, wait for Send,
 * check the effort, cross the Send boundary, wait for the answer by the stream's rule (the DOM's
 * where the stream cannot judge, {@link AnswerArbiter}) and read it back from the source that
 * decided. Everything before the Send click fails with {@code afterSend=false}; from the click on
 * nothing is ever resent. The effort-and-model proof is {@link PrepareProof}, the Send and its proof
 * {@link SendBoundary}; the page is read as it changes ({@link PageReads}). One instance per
 * turn, on the seat's thread; the seat guards it.
 */
final class PageTurn {

  static final Duration POLL = Duration.ofMillis(30);
  /** How long the seat waits for the page's answer to a stream_status it asked. */
  private static final Duration STATUS_ANSWER = Duration.ofSeconds(1);
  private static final Duration SEND_READY = Duration.ofSeconds(15);
  private static final Duration NO_ANSWER = Duration.ofSeconds(20);

  /** What the seat hands a turn: the page, its stream, the funnel and the seat's own state. */
  record Tab(ChatGptPage chat, PageStream stream, SeatNavigation navigation, SeatFaults faults, PageWait pageWait,
      PageReads reads, ProgressFeed progress, CompletionTracker.Rule completion, AtomicBoolean stopRequested, HistoryPolls polls) {}

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
  private final SendBoundary send;
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
    this.send = new SendBoundary(tab, effort);
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
    new PrepareProof(tab, stream, effort, timings, tapped).check(typing);
    if (tab.stopRequested().get()) {
      chat.clearComposer();
      throw failed(Kind.CANCELLED, "stopped before Send; nothing was sent", false);
    }

    // ---- The Send boundary (the page's own turn request): from here on nothing is ever resent. ----
    stream.begin();
    send.cross(tapped, sent, atSend);
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
      if (!chat.clickRegenerate() || send.regenerated(mark).isEmpty()) {
        return Optional.empty();
      }
      sent[0] = true;
      timings.mark("regenerate click");
      tab.progress().sent();
      return Optional.of(awaitAnswer(baseline, linksBefore, false, null));
    } finally {
      stream.end();
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
    PageReads.Loop reads = tab.reads().loop(baseline);
    Ended ended = tab.pageWait().until(Duration.ofDays(365), () -> {
      if (tab.stopRequested().get()) {
        clickStopAndWait();
        throw failed(Kind.CANCELLED, "Stop clicked; the turn was cancelled", true);
      }
      ChatGptPage.State now = reads.state();
      stream.poll();
      send.reportConversation();
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
      // A poll as soon as the page or its stream moves; on a still page, when the DOM rule could next hold.
    }, () -> null, () -> reads.await(Optional.ofNullable(tracker.untilDecidable(System.nanoTime(), POLL))
        .orElse(PageReads.SAFETY_NET)));
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
    PageReads.Loop reads = tab.reads().loop(Set.of());
    tab.pageWait().until(SEND_READY, () -> {
      ChatGptPage.State s = reads.state();
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
        : Controls.notFound("Send", Controls.SEND) + " for " + SEND_READY.toSeconds() + " s; nothing was sent", false),
        () -> reads.await(PageReads.SAFETY_NET));
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

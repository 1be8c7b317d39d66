package dev.solweb.provider.seat.playwright;

import static dev.solweb.provider.seat.playwright.SeatFaults.failed;

import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.PlaywrightException;
import dev.solweb.provider.failure.ProviderFailure.Kind;
import dev.solweb.provider.model.Attachment;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.seat.BrowserSeat;
import dev.solweb.provider.seat.Deletion;
import dev.solweb.provider.seat.PageCounters;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.SeatProbe;
import dev.solweb.provider.seat.SeatReply;
import dev.solweb.provider.seat.SeatScreen;
import dev.solweb.provider.seat.SentMessage;
import dev.solweb.provider.seat.TurnProgress;
import dev.solweb.provider.seat.UploadReadiness;
import dev.solweb.provider.seat.playwright.browser.Chromium;
import dev.solweb.provider.seat.playwright.browser.PlaywrightMessages;
import dev.solweb.provider.seat.playwright.browser.ProfileLock;
import dev.solweb.provider.seat.playwright.inspect.PageReport;
import dev.solweb.provider.seat.playwright.page.ChatGptPage;
import dev.solweb.provider.seat.playwright.page.CompletionTracker;
import dev.solweb.provider.seat.playwright.page.HistoryPage;
import dev.solweb.provider.seat.playwright.page.ModelRows;
import dev.solweb.provider.seat.playwright.page.PageChanges;
import dev.solweb.provider.seat.playwright.page.PageScripts;
import dev.solweb.provider.seat.playwright.page.PageVerdicts.Verdict;
import dev.solweb.provider.seat.playwright.page.PageWait;
import dev.solweb.provider.seat.playwright.page.Uploads;
import dev.solweb.provider.seat.playwright.traffic.HistoryPolls;
import dev.solweb.provider.seat.playwright.traffic.PageStream;
import dev.solweb.provider.seat.playwright.traffic.StreamTap;
import dev.solweb.provider.seat.playwright.traffic.UploadWatch;
import dev.solweb.provider.translate.ConversationPlace;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * A {@link BrowserSeat} on a real ChatGPT page: Chromium with a persistent profile, driven by
 * Playwright for Java. This class holds the port's verbs and nothing else: a turn's steps are
 * {@link PageTurn}, where the tab's conversation lives is {@link SeatNavigation}, what a page
 * state or error means is {@link SeatFaults}, what the page is once settled (and whose account)
 * {@link SettledProbe}, the doctor's reads {@link SeatInspection}; the page's selectors and texts are in
 * {@code page/}, its traffic in {@code traffic/}, the browser in {@code browser/}, the doctor in
 * {@code inspect/}. Every Playwright object is created and used on the thread that calls the
 * seat (the dispatcher's seat thread); {@link #stop()} only raises a flag that {@link #send}'s
 * poll loop reads before it clicks Stop itself.
 *
 * <p>The Send click is the boundary: every failure before it carries {@code afterSend=false}
 * and may be retried; every failure after it carries {@code afterSend=true} and nothing is ever
 * resent, so Retry and Regenerate are never clicked. A closed or crashed browser is
 * {@link SeatException.Reason#BROKEN}: the dispatcher rebuilds the seat once.
 */
public final class PlaywrightSeat implements BrowserSeat {

  private final PlaywrightOptions options;
  private final Path profile;
  private final Chromium chromium;
  private final Page page;
  private final ChatGptPage chat;
  private final AtomicBoolean stopRequested = new AtomicBoolean();
  private final Clock clock;
  private volatile boolean pageCrashed;
  /** Work other threads post for this thread (the screen's picture, frames, input), run between polls. */
  private final SeatErrands errands = new SeatErrands();
  private final PageWait wait = new PageWait(PageTurn.POLL, () -> stopRequested.set(true), errands);
  private final PageScreen screen;
  private final SeatFaults faults;
  private final SeatNavigation navigation;
  private final PageTurn.Tab tab;
  private final PageRecovery recovery;
  /** The page's upload controls and the upload traffic: one each per tab, the watch armed only while a turn uploads. */
  private final Uploads uploadControls;
  private final UploadWatch uploadWatch;
  /** Where sends report what the page's request proved ({@link #onSent}); set by the dispatcher's turn. */
  private volatile Consumer<SentMessage> sentListener = sent -> { };
  private Effort effort;
  /** The page once settled: ready or not, the account and its plan ({@link #probe}). */
  private final SettledProbe settled;
  /** The account's counters as the last turn's stream gave them. */
  private PageCounters counters;
  private final SeatInspection inspection;
  private boolean closed;
  private final UploadReadiness readiness;
  private volatile PageTurn.Figures last = new PageTurn.Figures(Duration.ZERO, null, Map.of(), null);
  /** A stream answer whose DOM reading is still to be compared (at the seat's next probe). */
  private CrossCheck pendingCheck;

  /**
   * Launches Chromium on {@code profile}. The caller holds the {@link ProfileLock}.
   *
   * @throws SeatException BROKEN when Playwright or Chromium cannot start (nothing was sent)
   */
  public PlaywrightSeat(PlaywrightOptions options, Path profile, Clock clock, CompletionTracker.Rule completion)
      throws SeatException {
    this(options, profile, clock, completion, new HistoryPolls(clock), UploadReadiness.PROCESSED);
  }

  /**
   * As above, with the account's pacing of the seats' own history and status requests, shared
   * by every seat of the account, and when a turn's files count as uploaded.
   */
  public PlaywrightSeat(PlaywrightOptions options, Path profile, Clock clock, CompletionTracker.Rule completion,
      HistoryPolls polls, UploadReadiness readiness) throws SeatException {
    this.options = options;
    this.readiness = readiness;
    this.clock = clock;
    this.profile = profile;
    this.chromium = options.sharedBrowser() != null
        ? Chromium.attach(options.sharedBrowser(), PlaywrightOptions.pageViewport())
        : Chromium.launch(new Chromium.Launch(options.chromiumPath(), profile, options.headless(),
            PlaywrightOptions.pageViewport(), options.display()));
    try {
      BrowserContext ctx = chromium.context();
      String origin = options.chatUrl().getScheme() + "://" + options.chatUrl().getRawAuthority();
      ctx.grantPermissions(List.of("clipboard-read", "clipboard-write"),
          new BrowserContext.GrantPermissionsOptions().setOrigin(origin));
      ctx.addInitScript(PageScripts.INIT);
      ctx.addInitScript(PageChanges.INIT_SCRIPT); // what wakes the seat's waits (PageReads)
      if (!"off".equals(System.getProperty("solweb.streamTap"))) {
        ctx.addInitScript(StreamTap.INIT_SCRIPT);
      }
      ctx.addInitScript(UploadWatch.INIT_SCRIPT); // the processing stream's lines (DevTools keeps no body of it)
      this.page = chromium.firstPage();
      page.onCrash(crashed -> pageCrashed = true);
      this.screen = new PageScreen(page, errands);
    } catch (PlaywrightException e) {
      chromium.close();
      throw SeatException.broken("could not start Chromium " + options.chromiumPath() + " on profile "
          + profile + ": " + PlaywrightMessages.clean(e.getMessage()), false, e);
    }
    this.chat = new ChatGptPage(page, options.chatUrl(), ModelRows.Wanted.parse(options.model()));
    PageStream stream = new PageStream(page);
    this.faults = new SeatFaults(clock, stream, () -> pageCrashed, chat::dismissRateLimitModal);
    this.settled = new SettledProbe(chat, faults, wait);
    this.navigation = new SeatNavigation(options.chatUrl(), chat, new HistoryPage(page, chat, options.chatUrl()), wait,
        faults, settled::observe, stream::deleteConversation);
    this.tab = new PageTurn.Tab(chat, stream, navigation, faults, wait, new PageReads(page, chat, errands, stopRequested),
        new ProgressFeed(), completion, stopRequested, polls);
    this.recovery = new PageRecovery(stream, navigation, wait, stopRequested, polls);
    this.uploadControls = new Uploads(page);
    this.uploadWatch = new UploadWatch(page);
    this.inspection = new SeatInspection(page, chat, options.chatUrl());
  }

  @Override
  public SeatProbe probe() throws SeatException {
    checkOpen();
    // The dispatcher probes first in every turn: a Stop aimed at an earlier turn ends here, while
    // a Stop that arrives during this turn's resume or effort steps still cancels its send.
    stopRequested.set(false);
    return guard(false, () -> {
      crossCheck();
      ChatGptPage.State shown = chat.onSite() ? chat.state(Set.of()) : null;
      if (shown == null) {
        chat.openHome();
      } else if (shown.faultShown() && shown.banner(Verdict.RATE_LIMIT).isEmpty()) {
        // A banner left from an earlier turn (a cap that has since lifted, an error) is stale:
        // only a fresh load tells what the page says now. Never under the rate-limit modal: a
        // reload's history burst is what trips it (row 52); it is answered below instead.
        chat.reload();
      }
      SeatProbe probe = settled.observe(SeatNavigation.PAGE_READY);
      // The modal reads as capped (PageVerdicts.RATE_LIMIT): only then is the page asked again which it is.
      Optional<ChatGptPage.Banner> modal = probe.state() != SeatProbe.State.CAPPED ? Optional.empty()
          : chat.state(Set.of()).banner(Verdict.RATE_LIMIT);
      if (modal.isPresent()) {
        faults.answerModal(modal.get().text(), false); // the account's pause, or dismissed once it is over
        probe = settled.observe(SeatNavigation.PAGE_READY);
      }
      return probe;
    });
  }

  @Override
  public void openNew() throws SeatException {
    checkOpen();
    guard(false, () -> {
      navigation.openHome();
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
    guard(false, () -> {
      if (where instanceof ConversationPlace.Project p) {
        navigation.openInProject(p);
      } else if (where instanceof ConversationPlace.Temporary) {
        navigation.openTemporary();
      } else {
        navigation.openHome();
      }
      return null;
    });
  }

  @Override
  public Deletion delete(String conversationUrl) throws SeatException {
    checkOpen();
    Optional<String> exact = chat.durableUrl(conversationUrl);
    if (exact.isEmpty()) {
      throw failed(Kind.UNAVAILABLE, "\"" + conversationUrl + "\" is not a conversation URL of " + options.chatUrl()
          + "; nothing was deleted", false);
    }
    return guard(false, () -> navigation.delete(exact.get()));
  }

  @Override
  public void resume(String conversationUrl) throws SeatException {
    checkOpen();
    guard(false, () -> {
      navigation.resume(conversationUrl);
      return null;
    });
  }

  /**
   * Looks for the answer of an uncertain turn in its conversation ({@link PageRecovery}): the
   * history the page loads, read from its traffic. Never types.
   */
  @Override
  public Optional<SeatReply> recover(String conversationUrl, String userMessageId) throws SeatException {
    checkOpen();
    try {
      return guard(false, () -> recovery.recover(conversationUrl, userMessageId));
    } finally {
      stopRequested.set(false);
    }
  }

  /** The last answer's Regenerate ({@link PageTurn#regenerate}): one page action, proven by its request. */
  @Override
  public Optional<SeatReply> regenerate() throws SeatException {
    checkOpen();
    if (effort == null) {
      throw new IllegalStateException("setEffort must be called before regenerate");
    }
    boolean[] sent = {false};
    PageTurn turn = new PageTurn(tab, effort);
    return pageTurn(turn, sent, () -> turn.regenerate(sent));
  }

  @Override
  public Effort setEffort(Effort wanted) throws SeatException {
    checkOpen();
    return guard(false, () -> {
      Effort shown = chat.chooseEffort(wanted);
      this.effort = wanted;
      return shown;
    });
  }

  @Override
  public dev.solweb.provider.seat.ModelOffer models() throws SeatException {
    checkOpen();
    return guard(false, () -> chat.effort().offer());
  }

  @Override
  public void progress(TurnProgress listener) {
    tab.progress().listener(listener);
  }

  @Override
  public SeatReply send(String raw) throws SeatException {
    return turn(raw, List.of(), null);
  }

  /**
   * A turn with files: each goes up through the page's own inputs and is proven by its traffic
   * before anything is typed ({@link PageUploads}); the Send must name every file.
   */
  @Override
  public SeatReply send(String raw, List<Attachment> attachments) throws SeatException {
    if (attachments.size() > Attachment.MAX_PER_TURN) {
      throw failed(Kind.UNAVAILABLE, attachments.size() + " files in one turn; the page takes at most "
          + Attachment.MAX_PER_TURN + "; nothing was sent", false);
    }
    return turn(raw, attachments, null);
  }

  @Override
  public void onSent(Consumer<SentMessage> listener) {
    sentListener = listener == null ? sent -> { } : listener;
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
    List<Attachment> files = new java.util.ArrayList<>();
    for (Path attachment : attachments) {
      files.add(PageUploads.fromFile(attachment));
    }
    return turn(text, files, outputDir);
  }

  private SeatReply turn(String raw, List<Attachment> attachments, Path outputDir) throws SeatException {
    checkOpen();
    if (effort == null) {
      throw new IllegalStateException("setEffort must be called before send");
    }
    String text = raw.replace("\r\n", "\n").replace('\r', '\n');
    boolean[] sent = {false};
    PageTurn turn = new PageTurn(tab, effort);
    return pageTurn(turn, sent, () -> turn.run(text, sent, attachments,
        new PageUploads(tab, uploadControls, uploadWatch, clock, readiness), outputDir, sentListener));
  }

  /**
   * One page turn (a Send or a Regenerate) through the funnel: its figures kept, the stop request
   * cleared, and once it was sent the account's counters read from its stream, even when it failed
   * (a cap says most there).
   */
  private <T> T pageTurn(PageTurn turn, boolean[] sent, Step<T> step) throws SeatException {
    try {
      T reply = guard(sent, step);
      last = turn.figures();
      pendingCheck = last.pending();
      return reply;
    } finally {
      stopRequested.set(false);
      if (sent[0]) {
        tab.stream().turn().pageCounters(settled.plan(), clock.instant()).ifPresent(read -> counters = read);
      }
    }
  }

  @Override
  public Optional<PageCounters> counters() {
    return Optional.ofNullable(counters);
  }

  /** Runs the DOM cross-check a stream answer left for later (the DOM had not drawn it yet). */
  private void crossCheck() throws SeatException {
    CrossCheck check = pendingCheck;
    pendingCheck = null;
    if (check != null) {
      check.run(chat, wait);
    }
  }

  @Override
  public Optional<SeatScreen> screen() {
    return Optional.of(screen);
  }

  @Override
  public void stop() {
    stopRequested.set(true);
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    chromium.close();
    errands.drain(); // what still waits fails now (the page is closed) instead of never answering
  }

  public Path profile() {
    return profile;
  }

  // ---- For benchmarks (bench-seat; never read for a decision) --------------------------------

  /**
   * From the arrival in the page of the chunk that completed the last turn by the stream's rule
   * to the seat returning its reply; null when the stream did not decide that turn.
   */
  public Duration lastStreamLag() {
    return last.streamLag();
  }

  /**
   * Where the last turn's time went inside {@code send}, phase by phase in order (read page,
   * clear composer, typing, wait sendable, effort read-back, Send click, page time to the
   * stream's terminal chunk, terminal chunk seen, cross-check, code blocks, images, url).
   */
  public Map<String, Duration> lastTimings() {
    return last.timings();
  }

  /** How long the last completed turn's text had held still when the seat called it complete. */
  public Duration lastCompletionLag() {
    return last.completionLag();
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
    return guard(false, () -> inspection.inspect(url, openEffortMenu));
  }

  @Override
  public String doctor(URI url, boolean openEffortMenu) throws SeatException {
    return inspect(url, openEffortMenu).toJson();
  }

  /**
   * The page as sanitized HTML for a bug report ({@link SeatInspection#capture}); with
   * {@code openEffortMenu} the effort menu is open in the capture and closed with Escape after.
   */
  public String capture(URI url, boolean openEffortMenu) throws SeatException {
    checkOpen();
    return guard(false, () -> inspection.capture(url, openEffortMenu));
  }

  // ---- Plumbing --------------------------------------------------------------------------

  @FunctionalInterface
  private interface Step<T> {
    T run() throws SeatException;
  }

  private <T> T guard(boolean afterSend, Step<T> step) throws SeatException {
    return guard(new boolean[] {afterSend}, step);
  }

  /** Playwright's exceptions through the funnel: a dead browser is BROKEN, anything else a typed failure. */
  private <T> T guard(boolean[] afterSend, Step<T> step) throws SeatException {
    try {
      return step.run();
    } catch (PlaywrightException e) {
      throw faults.playwright(e, afterSend[0], page.isClosed());
    }
  }

  private void checkOpen() throws SeatException {
    if (closed) {
      throw SeatException.broken("Playwright seat on " + profile + " is closed", false, null);
    }
    if (pageCrashed || page.isClosed()) {
      throw SeatException.broken("the ChatGPT tab is gone", false, null);
    }
  }

  /** Options in force; for the factory and tests. */
  PlaywrightOptions options() {
    return options;
  }
}

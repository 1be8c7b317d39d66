package dev.solweb.provider.seat.playwright;

import com.microsoft.playwright.PlaywrightException;
import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.failure.ProviderFailure.Kind;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.seat.AccountBlock;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.SeatProbe;
import dev.solweb.provider.seat.playwright.browser.Chromium;
import dev.solweb.provider.seat.playwright.browser.PlaywrightMessages;
import dev.solweb.provider.seat.playwright.page.CapTimes;
import dev.solweb.provider.seat.playwright.page.ChatGptPage;
import dev.solweb.provider.seat.playwright.page.PageVerdicts;
import dev.solweb.provider.seat.playwright.page.PageVerdicts.Verdict;
import dev.solweb.provider.seat.playwright.traffic.PageStream;
import dev.solweb.provider.seat.playwright.traffic.StreamVerdicts;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.logging.Logger;

/**
 * The seat's ONE failure funnel: every place that turns what the page shows, what its stream
 * says or what Playwright threw into a typed {@link SeatException} (or a probe state) comes here,
 * and reads the meaning of a page text from the verdict rows ({@link Verdict}: kind, wording,
 * probe state) instead of deciding it itself. Confined to the seat's thread.
 */
final class SeatFaults {
  private static final Logger LOG = Logger.getLogger(SeatFaults.class.getName());

  /** A cap whose page and stream name no time is assumed to last this long, and the detail says so. */
  private static final Duration CAP_ESTIMATE = Duration.ofHours(1);
  /** How long a turn-path HTTP error waits for the page's own banner, which says more (an exact reset time). */
  private static final Duration BANNER_GRACE = Duration.ofSeconds(1);

  private final Clock clock;
  private final PageStream stream;
  private final BooleanSupplier crashed;
  /** Row 52: clicks the rate-limit modal's one button; true when it is gone. */
  private final BooleanSupplier dismissModal;
  /** The modal showed and its block went to the dispatcher; the next sight after the pause may dismiss it. */
  private boolean modalReported;
  private int modalDismissals;

  SeatFaults(Clock clock, PageStream stream, BooleanSupplier crashed, BooleanSupplier dismissModal) {
    this.clock = clock;
    this.stream = stream;
    this.crashed = crashed;
    this.dismissModal = dismissModal;
  }

  static SeatException failed(Kind kind, String detail, boolean afterSend) {
    return SeatException.failed(ProviderFailure.of(kind, detail), afterSend);
  }

  // ---- The page --------------------------------------------------------------------------

  /** Walls, challenges, a crashed tab, and every banner by its verdict, as typed failures. */
  void failOnPage(ChatGptPage.State s, boolean afterSend, boolean withAttachments) throws SeatException {
    if (crashed.getAsBoolean()) {
      throw SeatException.broken("the ChatGPT tab crashed", afterSend, null);
    }
    if (s.challenge()) {
      throw failed(Kind.UNAVAILABLE, "Cloudflare challenge page (" + s.title() + ")" + notSent(afterSend), afterSend);
    }
    if (s.loginWall()) {
      throw failed(Kind.UNAVAILABLE, "logged out: login wall" + notSent(afterSend), afterSend);
    }
    if (s.banner(Verdict.RATE_LIMIT).isEmpty()) {
      modalReported = false; // gone (a person dismissed it, or the page did): the next one pauses first
    }
    for (ChatGptPage.Banner banner : s.banners()) {
      Verdict v = banner.verdict();
      if (v.kind() == null || (v.onlyWithAttachments() && !withAttachments)) {
        continue;
      }
      if (v == Verdict.RATE_LIMIT) {
        answerModal(banner.text(), afterSend);
        continue;
      }
      throw of(v, clip(banner.text()), s, afterSend);
    }
  }

  /**
   * Row 52's "Too many requests" modal. Its first sight pauses the whole account (the block goes
   * to the dispatcher with the turn's typed failure). A sight after that pause, before anything is
   * typed, dismisses it with its one button, at most {@link AccountBlock#MAX_DISMISSALS} times in
   * the seat's life; then the account stays stopped until a person clears it.
   */
  void answerModal(String shown, boolean afterSend) throws SeatException {
    String text = clip(shown);
    if (modalReported && !afterSend && modalDismissals < AccountBlock.MAX_DISMISSALS && dismissModal.getAsBoolean()) {
      modalDismissals++;
      modalReported = false;
      LOG.info(() -> "dismissed ChatGPT's rate-limit modal after the account's pause (" + modalDismissals + " of "
          + AccountBlock.MAX_DISMISSALS + ")");
      return;
    }
    modalReported = true;
    AccountBlock block = modalDismissals < AccountBlock.MAX_DISMISSALS ? AccountBlock.tooManyRequests(text)
        : AccountBlock.tooManyRequestsAgain(text);
    String detail = Verdict.RATE_LIMIT.detail(text, afterSend) + block.pause()
        .map(p -> "; the account pauses for " + p.toMinutes() + " min")
        .orElse("; it came back after " + AccountBlock.MAX_DISMISSALS + " dismissals: the account stays stopped until a"
            + " person clears it on the operator page");
    throw SeatException.blocked(block.failure(detail, clock.instant()), block, afterSend);
  }

  /** The typed failure of a verdict, with the page's text in its wording. */
  private SeatException of(Verdict v, String text, ChatGptPage.State s, boolean afterSend) {
    String detail = v.detail(text, afterSend);
    if (v == Verdict.MISSING) {
      return SeatException.conversationMissing(detail); // gone: it took no turn, and the caller replays (row 20)
    }
    if (v.retiresConversation()) {
      return SeatException.conversationFull(detail, afterSend);
    }
    if (v == Verdict.UNUSUAL_ACTIVITY) {
      return SeatException.blocked(ProviderFailure.of(Kind.UNAVAILABLE, detail + "; the account is stopped until a person"
          + " clears it on the operator page"), AccountBlock.unusualActivity(text), afterSend);
    }
    if (v.kind() == Kind.CAPPED) {
      return SeatException.failed(ProviderFailure.capped(detail, capResume(s), clock.instant()), afterSend);
    }
    return failed(v.kind(), detail, afterSend);
  }

  /** What a probe reports for the page: a wall, a challenge, the first banner with a probe state, else ready or no composer. */
  SeatProbe probe(ChatGptPage.State s) {
    if (s.challenge()) {
      return new SeatProbe(SeatProbe.State.CHALLENGED, null, null, "Cloudflare challenge: " + s.title());
    }
    if (s.loginWall()) {
      return new SeatProbe(SeatProbe.State.LOGGED_OUT, null, null, "login wall");
    }
    for (ChatGptPage.Banner banner : s.banners()) {
      SeatProbe.State state = banner.verdict().probe();
      if (state != null) {
        return new SeatProbe(state, null, state == SeatProbe.State.CAPPED ? capResume(s) : null, clip(banner.text()));
      }
    }
    if (s.composer()) {
      return SeatProbe.ready(null);
    }
    return new SeatProbe(SeatProbe.State.ERROR, null, null, "no composer on " + s.url());
  }

  /** A probe that is not ready, as the typed failure of a turn that has sent nothing. */
  void requireReady(SeatProbe probe) throws SeatException {
    switch (probe.state()) {
      case READY -> { }
      case LOGGED_OUT -> throw failed(Kind.UNAVAILABLE, "logged out: " + probe.detail() + "; nothing was sent", false);
      case CHALLENGED -> throw failed(Kind.UNAVAILABLE, probe.detail() + "; nothing was sent", false);
      case CAPPED -> throw SeatException.failed(ProviderFailure.capped(probe.detail(), probe.capResumeAt(), clock.instant()), false);
      case ERROR -> throw failed(Kind.UNAVAILABLE, "page not ready: " + probe.detail(), false);
      default -> throw new IllegalStateException("Unhandled probe state: " + probe.state());
    }
  }

  /** The pill names another effort than the one set: capped when a cap banner shows (the page fell back), else unavailable. */
  SeatException effortMismatch(ChatGptPage.State s, String label, Effort wanted) {
    return effortRefused(s, "the effort pill reads \"" + label + "\" but " + wanted.label() + " was set; nothing was sent");
  }

  /** The page will send another effort than the one asked, by its own request: as {@link #effortMismatch}, with its words. */
  SeatException effortRefused(ChatGptPage.State s, String detail) {
    if (s.banner(Verdict.CAP_DOWNGRADE, Verdict.CAP, Verdict.RATE_LIMIT).isPresent()) {
      return SeatException.failed(ProviderFailure.capped(detail, capResume(s), clock.instant()), false);
    }
    return failed(Kind.UNAVAILABLE, detail, false);
  }

  /** An answer from below the effort's tier: capped (the plan fell back), after Send. */
  SeatException downgrade(String why, ChatGptPage.State s) {
    return SeatException.failed(ProviderFailure.capped(why + " (plan limit downgrade)" + resumeNote(s),
        capResume(s), clock.instant()), true);
  }

  // ---- The stream ------------------------------------------------------------------------

  /** The stream's HTTP errors and error or limit frames as typed failures (after Send: never resent). */
  void failOnStream() throws SeatException {
    for (PageStream.HttpError e : stream.httpErrors()) {
      if (System.nanoTime() - e.seenNanos() < BANNER_GRACE.toNanos()) {
        return; // the page's own banner first: it names the exact time a cap lifts
      }
      ProviderFailure failure = StreamVerdicts.httpFailure(e, clock.instant());
      Optional<Verdict> coded = StreamVerdicts.codeOf(e);
      if (coded.isPresent()) {
        // The server refused the turn by its own code: nothing of it was accepted.
        throw ofCode(coded.get(), "HTTP " + e.status() + " " + failure.detail(), e.status() != 404, failure);
      }
      if (StreamVerdicts.unusualActivity(e)) {
        throw SeatException.blocked(ProviderFailure.of(Kind.UNAVAILABLE, failure.detail() + "; the account is stopped"
            + " until a person clears it on the operator page"), AccountBlock.unusualActivity(clip(e.body())), true);
      }
      throw SeatException.failed(failure, true);
    }
    for (String code : stream.turn().errorCodes()) {
      Optional<Verdict> coded = PageVerdicts.byCode(code);
      if (coded.isPresent()) {
        throw ofCode(coded.get(), "the stream's error " + code, true,
            coded.get().cap() ? StreamVerdicts.codedCap(stream.turn(), code, clock.instant()) : null);
      }
    }
    if (stream.seen() && !stream.live() && !stream.handoffUnfollowed()) {
      Optional<ProviderFailure> f = StreamVerdicts.streamFailure(stream.turn(), clock.instant());
      if (f.isPresent()) {
        throw SeatException.failed(f.get(), true);
      }
    }
  }

  /**
   * One of the page's error codes (row 20) as its typed failure: a full conversation is
   * {@code context_overflow} and retired, a cap is {@code capped} (until the 429's
   * {@code clears_in}, else an estimate), a missing or deleted conversation is
   * {@link SeatException.Reason#CONVERSATION_MISSING} (the caller replays into a fresh one).
   */
  private SeatException ofCode(Verdict v, String what, boolean afterSend, ProviderFailure http) {
    return switch (v) {
      case MISSING -> SeatException.conversationMissing("the page answered " + what);
      case CONVERSATION_FULL -> SeatException.conversationFull("ChatGPT says the conversation is too large (" + what
          + "); nothing was resent, the next turn goes to a new conversation", afterSend);
      case CAP, CAP_DOWNGRADE -> SeatException.failed(http != null && http.kind() == Kind.CAPPED ? http
          : ProviderFailure.capped("usage cap (" + what + "); resume_at is an estimate", capResume(List.of()), clock.instant()),
          afterSend);
      default -> failed(v.kind() == null ? Kind.UNAVAILABLE : v.kind(), v.detail(what, afterSend), afterSend);
    };
  }

  // ---- Playwright ------------------------------------------------------------------------

  /** A Playwright error: BROKEN when the browser or the tab is gone (the seat is rebuilt), else a typed failure. */
  SeatException playwright(PlaywrightException e, boolean afterSend, boolean tabGone) {
    String line = PlaywrightMessages.clean(e.getMessage());
    if (tabGone || crashed.getAsBoolean() || Chromium.gone(e)) {
      return SeatException.broken("browser connection lost" + (afterSend ? " after Send" : " before Send") + ": " + line,
          afterSend, e);
    }
    return new SeatException(SeatException.Reason.FAILED, ProviderFailure.of(Kind.UNAVAILABLE,
        "page automation failed" + (afterSend ? " after Send (not resent)" : "") + ": " + line), afterSend, e);
  }

  // ---- When a cap lifts ------------------------------------------------------------------

  private Instant capResume(ChatGptPage.State s) {
    return capResume(s.banners());
  }

  private Instant capResume(List<ChatGptPage.Banner> banners) {
    Instant now = clock.instant();
    for (ChatGptPage.Banner banner : banners) {
      if (banner.verdict().cap()) {
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
        b.verdict().cap() && CapTimes.parse(b.text(), clock.instant(), ZoneId.systemDefault()).isPresent());
    return shown ? "" : "; the page named no reset time, resume_at is an estimate";
  }

  private static String notSent(boolean afterSend) {
    return afterSend ? "" : "; nothing was sent";
  }

  static String clip(String s) {
    String one = s.replaceAll("\\s+", " ").strip();
    return one.length() > 300 ? one.substring(0, 300) + "…" : one;
  }
}

package dev.solweb.provider.seat.playwright;

import dev.solweb.provider.seat.SeatProbe;
import dev.solweb.provider.seat.playwright.page.ChatGptPage;
import dev.solweb.provider.seat.playwright.page.PageWait;
import java.time.Duration;
import java.util.Set;

/**
 * What the seat's page is, once it has settled: ready (with the account and plan from the page's
 * own session), logged out, capped, or what else {@link SeatFaults#probe} reads. Pages render
 * banners and walls after their first paint, so a state counts once it held for
 * {@link #SETTLED_POLLS} polls; a document already seen settled needs no second wait. The
 * account and plan are kept for the seat between probes.
 */
final class SettledProbe {

  private static final int SETTLED_POLLS = 5;
  /** How long an unanswered session request on a fresh document is asked again. */
  private static final Duration SESSION_RETRY = Duration.ofSeconds(3);

  private final ChatGptPage chat;
  private final SeatFaults faults;
  private final PageWait wait;
  private String account;
  /** The account's plan from the page's session (its counters' scale), kept across documents. */
  private String plan;
  private long sessionAsked; // nanoTime of the first session request in this observe, 0 before

  SettledProbe(ChatGptPage chat, SeatFaults faults, PageWait wait) {
    this.chat = chat;
    this.faults = faults;
    this.wait = wait;
  }

  /** The account's plan as the page's session named it, or null. */
  String plan() {
    return plan;
  }

  /** Waits at most {@code within} for the page to settle into a known state and reports it. */
  SeatProbe observe(Duration within) {
    long deadline = System.nanoTime() + within.toNanos();
    sessionAsked = 0;
    SeatProbe last = null;
    int same = 0;
    while (true) {
      ChatGptPage.State s = chat.state(Set.of());
      SeatProbe probe = faults.probe(s);
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
          if (!session.known() && !s.settled() && System.nanoTime() - sessionDeadline(deadline) < 0) {
            // A fresh document (just after a login's redirects) may abort or not yet serve the
            // session request: ask again shortly rather than report the account unknown.
            wait.pause();
            continue;
          }
          account = session.known() ? session.email() : null;
          plan = session.known() && session.plan() != null ? session.plan() : plan;
          chat.markSettled();
        }
        return new SeatProbe(SeatProbe.State.READY, account, null,
            account != null ? "ready" : "ready; account unknown (session endpoint did not answer)");
      }
      wait.pause();
    }
  }

  private long sessionDeadline(long probeDeadline) {
    if (sessionAsked == 0) {
      sessionAsked = System.nanoTime();
    }
    long retryEnd = sessionAsked + SESSION_RETRY.toNanos();
    return retryEnd - probeDeadline < 0 ? retryEnd : probeDeadline;
  }
}

package dev.solweb.provider.seat.playwright.traffic;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * How often the seats may ask the page's conversation JSON and {@code stream_status} themselves
 * ({@link PageStream#refetch}), for one account (one per daemon, shared by every seat): each wait
 * backs off 1, 2, 4 s (then stays at 4), waits 8 s after a 429, and the account as a whole asks at
 * most once a second. REAL-PAGE row 52: bursts of history requests (and steady polling of the
 * JSON) set off the "Too many requests" modal that covers the composer. Time from a {@link Clock}.
 */
public final class HistoryPolls {
  /** The backoff of one wait, in order; the last step repeats. */
  static final List<Duration> STEPS = List.of(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(4));
  /** The wait after the page answered 429. */
  static final Duration AFTER_429 = Duration.ofSeconds(8);
  /** The least time between two asks of the account, whichever seat asks. */
  static final Duration ACCOUNT_FLOOR = Duration.ofSeconds(1);

  private final Clock clock;
  private Instant lastAsk;
  private long asks;

  public HistoryPolls(Clock clock) {
    this.clock = clock;
  }

  /** One wait's backoff (one turn's status checks, one recovery): the first ask may go at once. */
  public Poller poller() {
    return new Poller();
  }

  /** Asks the account made (a figure for tests and the report). */
  public synchronized long asks() {
    return asks;
  }

  /** Takes the account's slot when the floor allows it now. */
  private synchronized boolean take(Instant now) {
    if (lastAsk != null && now.isBefore(lastAsk.plus(ACCOUNT_FLOOR))) {
      return false;
    }
    lastAsk = now;
    asks++;
    return true;
  }

  /** One wait's schedule of asks. Used on one seat's thread. */
  public final class Poller {
    private Instant next;
    private int step;

    /**
     * Whether the seat may ask now; if so the ask is counted and the next one is set one backoff
     * step later. False while this wait's backoff or the account's floor holds.
     */
    public boolean due() {
      Instant now = clock.instant();
      if (next != null && now.isBefore(next)) {
        return false;
      }
      if (!take(now)) {
        return false;
      }
      next = now.plus(STEPS.get(Math.min(step, STEPS.size() - 1)));
      step++;
      return true;
    }

    /** What the page answered an ask (or a request of its own): a 429 pushes the next ask 8 s out. */
    public void answered(int status) {
      if (status == 429) {
        Instant later = clock.instant().plus(AFTER_429);
        next = next == null || later.isAfter(next) ? later : next;
      }
    }

    /** When this wait may ask next (null before its first ask). */
    public Instant next() {
      return next;
    }
  }
}

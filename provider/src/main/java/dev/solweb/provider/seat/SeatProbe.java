package dev.solweb.provider.seat;

import java.time.Instant;

/**
 * The page state a probe saw.
 *
 * @param state what the page is ready for
 * @param account the logged-in account (e-mail) or null when unknown or logged out
 * @param capResumeAt when a cap lifts, for {@link State#CAPPED}; null otherwise
 * @param detail a human-readable note on the state, never null
 */
public record SeatProbe(State state, String account, Instant capResumeAt, String detail) {

  public enum State {
    READY,
    LOGGED_OUT,
    CAPPED,
    /** A Cloudflare or similar challenge the seat cannot pass by itself. */
    CHALLENGED,
    /** Loaded, but an error page or banner ("Something went wrong", network error). */
    ERROR
  }

  public static SeatProbe ready(String account) {
    return new SeatProbe(State.READY, account, null, "ready");
  }
}

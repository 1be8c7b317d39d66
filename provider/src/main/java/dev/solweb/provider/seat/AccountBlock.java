package dev.solweb.provider.seat;

import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.failure.ProviderFailure.Kind;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * What the page said about the whole account rather than one turn (../shared/REAL-PAGE.md rows
 * 52, 53): every seat of the account stops sending until the pause ends, or until a person clears
 * it on the operator page when it has no end.
 *
 * @param cause which block the page showed
 * @param pageText the page's own words, clipped
 * @param pause how long the account pauses; empty: until a person clears it
 */
public record AccountBlock(Cause cause, String pageText, Optional<Duration> pause) {

  /** Row 52's modal asks for "a few minutes". */
  public static final Duration TOO_MANY_REQUESTS_PAUSE = Duration.ofMinutes(5);
  /** How often a seat dismisses the modal with its one button before it stays paused (row 52: cw's rule). */
  public static final int MAX_DISMISSALS = 3;

  public enum Cause {
    /** "Too many requests": the rate-limit modal over the composer (row 52). */
    TOO_MANY_REQUESTS,
    /** "Unusual activity" / "suspicious activity" / a security check (row 53): a person must look. */
    UNUSUAL_ACTIVITY
  }

  public static AccountBlock tooManyRequests(String pageText) {
    return new AccountBlock(Cause.TOO_MANY_REQUESTS, pageText, Optional.of(TOO_MANY_REQUESTS_PAUSE));
  }

  /** The modal came back after {@link #MAX_DISMISSALS} dismissals: paused until a person clears it. */
  public static AccountBlock tooManyRequestsAgain(String pageText) {
    return new AccountBlock(Cause.TOO_MANY_REQUESTS, pageText, Optional.empty());
  }

  public static AccountBlock unusualActivity(String pageText) {
    return new AccountBlock(Cause.UNUSUAL_ACTIVITY, pageText, Optional.empty());
  }

  /** The turn's typed failure: {@code unavailable}, with the pause's end as its retry time when it has one. */
  public ProviderFailure failure(String detail, Instant now) {
    return pause.map(p -> ProviderFailure.until(Kind.UNAVAILABLE, detail, now.plus(p), now))
        .orElseGet(() -> ProviderFailure.of(Kind.UNAVAILABLE, detail));
  }
}

package dev.solweb.provider.ctl;

import java.time.Duration;
import java.time.Instant;

/**
 * When {@code solwebctl login} says how it is waiting: a line every {@link #EVERY} (and whenever
 * what the window shows changes), each with the time left. Pure: the caller supplies the clock.
 */
final class LoginProgress {
  static final Duration EVERY = Duration.ofSeconds(10);

  private final Instant deadline;
  private Instant lastLine;
  private String lastShown;

  LoginProgress(Instant start, Duration timeout) {
    this.deadline = start.plus(timeout);
    this.lastLine = start;
  }

  boolean expired(Instant now) {
    return !now.isBefore(deadline);
  }

  /** The line to print now, or null when nothing new is due. */
  String due(Instant now, String shows) {
    boolean changed = !shows.equals(lastShown);
    if (!changed && Duration.between(lastLine, now).compareTo(EVERY) < 0) {
      return null;
    }
    lastLine = now;
    lastShown = shows;
    return "solwebctl login: waiting: the window shows " + shows + " (" + left(now) + " left)";
  }

  String left(Instant now) {
    long seconds = Math.max(0, Duration.between(now, deadline).toSeconds());
    return seconds >= 60 ? seconds / 60 + "m" + String.format("%02d", seconds % 60) + "s" : seconds + "s";
  }
}

package dev.solweb.provider.seat.playwright.page;

import java.time.Duration;
import java.util.Objects;

/**
 * Decides when an answer is complete from a series of page observations, on positive proof only
 * (oracle's rule, REAL-PAGE row 3): the Stop control is gone (or was never seen: September 2026
 * pages match no known Stop selector) AND the turn's finished-action bar has been seen on
 * {@code consecutive} polls in a row AND the answer text has not changed for {@code settle} AND
 * no thinking signal shows (a shimmer, {@code aria-busy}, "Thinking", "Pro thinking", "Answer
 * now"). A settled Pro preamble looks finished before thinking starts, and the action bar can
 * flash while the model still thinks: neither alone is the end.
 */
public final class CompletionTracker {

  /** The least settle window: below it a paused stream reads as finished. */
  public static final Duration MIN_SETTLE = Duration.ofSeconds(1);

  /** The thresholds; see the class comment. */
  public record Rule(int consecutive, Duration settle) {
    public static final Rule DEFAULT = new Rule(3, Duration.ofMillis(1_200));

    public Rule {
      if (consecutive < 1) {
        throw new IllegalArgumentException("consecutive must be >= 1, got " + consecutive);
      }
      Objects.requireNonNull(settle, "settle");
      if (settle.compareTo(MIN_SETTLE) < 0) {
        throw new IllegalArgumentException("settle must be >= " + MIN_SETTLE.toMillis() + " ms, got " + settle.toMillis() + " ms");
      }
    }
  }

  /** One poll of the answer turn. {@code text} is null while the answer turn does not exist yet. */
  public record Observation(boolean stopVisible, boolean actionBarVisible, boolean thinking, String text) { }

  private final Rule rule;
  private String lastText;
  private long lastChangeNanos;
  private int finishedPolls;

  public CompletionTracker(Rule rule) {
    this.rule = rule;
  }

  /**
   * Feeds one observation.
   *
   * @param nowNanos a monotonic clock reading ({@link System#nanoTime()})
   * @return true when the answer is complete
   */
  public boolean observe(long nowNanos, Observation o) {
    String text = o.text();
    if (text == null || !text.equals(lastText)) {
      lastText = text;
      lastChangeNanos = nowNanos;
    }
    if (o.stopVisible() || !o.actionBarVisible() || o.thinking() || text == null) {
      finishedPolls = 0;
      return false;
    }
    finishedPolls++;
    return finishedPolls >= rule.consecutive() && nowNanos - lastChangeNanos >= rule.settle().toNanos();
  }

  /**
   * How soon another observation of an unchanged page could complete the answer, for a caller
   * that observes when the page changes: while the last observation looked finished, one
   * {@code interval} per poll until {@code consecutive} polls saw it, then the rest of the settle
   * window; {@code null} while it did not look finished (only a change of the page can finish it)
   * or when the DOM's rule already holds (what still waits is another rule: the stream's).
   */
  public Duration untilDecidable(long nowNanos, Duration interval) {
    if (finishedPolls == 0) {
      return null;
    }
    if (finishedPolls < rule.consecutive()) {
      return interval;
    }
    long left = lastChangeNanos + rule.settle().toNanos() - nowNanos;
    return left > 0 ? Duration.ofNanos(left) : null; // already decidable here: what waits now is another rule
  }

  /** When the text last changed (the page's last change the tracker saw), in the caller's nanos. */
  public long lastChangeNanos() {
    return lastChangeNanos;
  }
}

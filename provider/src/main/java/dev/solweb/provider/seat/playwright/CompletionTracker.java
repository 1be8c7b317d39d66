package dev.solweb.provider.seat.playwright;

import java.time.Duration;
import java.util.Objects;

/**
 * Decides when an answer is complete from a series of page observations. The rule (seed 003's
 * regression, oracle's practice): the Stop control is gone AND the turn's finished-action bar has
 * been seen on {@code consecutive} polls in a row AND the answer text has not changed for
 * {@code settle}. A pause with Stop visible is never the end (thinking models pause 10-30 s),
 * and a stable text with Stop gone but no action bar is a false pause, not the end.
 */
public final class CompletionTracker {

  /** The thresholds; see the class comment. */
  public record Rule(int consecutive, Duration settle) {
    public static final Rule DEFAULT = new Rule(3, Duration.ofMillis(150));

    public Rule {
      if (consecutive < 1) {
        throw new IllegalArgumentException("consecutive must be >= 1, got " + consecutive);
      }
      Objects.requireNonNull(settle, "settle");
    }
  }

  private final Rule rule;
  private String lastText;
  private long lastChangeNanos;
  private int finishedPolls;

  public CompletionTracker(Rule rule) {
    this.rule = rule;
  }

  /**
   * Feeds one observation of the answer turn.
   *
   * @param nowNanos a monotonic clock reading ({@link System#nanoTime()})
   * @param stopVisible whether the Stop control is shown
   * @param actionBarVisible whether the answer turn's copy action is shown
   * @param text the answer text now, or null while the answer turn does not exist yet
   * @return true when the answer is complete
   */
  public boolean observe(long nowNanos, boolean stopVisible, boolean actionBarVisible, String text) {
    if (text == null || !text.equals(lastText)) {
      lastText = text;
      lastChangeNanos = nowNanos;
    }
    if (stopVisible || !actionBarVisible || text == null) {
      finishedPolls = 0;
      return false;
    }
    finishedPolls++;
    return finishedPolls >= rule.consecutive() && nowNanos - lastChangeNanos >= rule.settle().toNanos();
  }
}

package dev.solweb.provider.dispatch;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/** How long the last turns took on their seats, for {@code /healthz} {@code turn_p50_s}. Not thread-safe. */
final class TurnStatistics {
  private static final int WINDOW = 100;

  private final Deque<Double> seconds = new ArrayDeque<>();

  /** Counts one turn's seat time; only the last {@value #WINDOW} count. */
  void record(Duration duration) {
    seconds.addLast(duration.toMillis() / 1000.0);
    while (seconds.size() > WINDOW) {
      seconds.removeFirst();
    }
  }

  /** The median of the window (the lower one of an even count), 0 before any turn. */
  double p50() {
    if (seconds.isEmpty()) {
      return 0;
    }
    List<Double> sorted = new ArrayList<>(seconds);
    sorted.sort(Double::compare);
    return sorted.get((sorted.size() - 1) / 2);
  }
}

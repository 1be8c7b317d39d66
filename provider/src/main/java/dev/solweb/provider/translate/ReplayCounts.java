package dev.solweb.provider.translate;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How many turns were typed whole into a fresh conversation since the daemon started, by
 * {@link ReplayCause} ({@link ReplayCause#FRESH}, a session's first conversation, is no replay).
 * Counted when the replay reached the page: a replay refused before Send types nothing.
 * Thread-safe.
 */
public final class ReplayCounts {
  private final Map<ReplayCause, Long> counts = new EnumMap<>(ReplayCause.class);

  synchronized void count(ReplayCause cause) {
    if (cause != ReplayCause.FRESH) {
      counts.merge(cause, 1L, Long::sum);
    }
  }

  /** Every cause counted so far (by {@link ReplayCause#wireName()}), in the enum's order. */
  public synchronized Map<String, Long> byCause() {
    Map<String, Long> out = new LinkedHashMap<>();
    counts.forEach((cause, n) -> out.put(cause.wireName(), n));
    return out;
  }

  /** All replays so far. */
  public synchronized long total() {
    return counts.values().stream().mapToLong(Long::longValue).sum();
  }
}

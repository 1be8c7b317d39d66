package dev.solweb.provider.seat.playwright;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where one turn's time went inside the seat, phase by phase, for bench-seat (never for a
 * decision): each {@link #mark} closes the phase that began at the previous mark.
 */
final class TurnTimings {

  private final Map<String, Duration> phases = new LinkedHashMap<>();
  private long last = System.nanoTime();

  /** Ends the phase {@code name} now (a repeated name adds up). */
  void mark(String name) {
    long now = System.nanoTime();
    phases.merge(name, Duration.ofNanos(now - last), Duration::plus);
    last = now;
  }

  /** Adds a phase measured elsewhere (e.g. on the page's clock) without moving the mark. */
  void put(String name, Duration d) {
    phases.put(name, d);
  }

  Map<String, Duration> phases() {
    return Collections.unmodifiableMap(new LinkedHashMap<>(phases));
  }
}

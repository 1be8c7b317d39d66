package dev.solweb.killgate.fakesol;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The fake account's own usage counters, as the real page reports them near the end of every
 * turn in {@code conversation_detail_metadata} (REAL-PAGE row 50): features with what is left
 * and when they reset ({@code limits_progress}), each model the account has used with its
 * remaining messages ({@code model_limits}), and {@code blocked_features}. They count down: every
 * Send spends one of its model's messages, every attachment one file upload; a model's cap
 * ({@code model_cap_exceeded}) sets its count to 0. The starting numbers are fakesol's own (the
 * real page publishes none for ordinary messages).
 */
final class AccountCounters {
  static final int MODEL_START = 50;
  static final int UPLOADS_START = 80;
  static final int DEEP_RESEARCH = 25;
  /** The rolling window the counts reset after, as the page's caps roll (row 54). */
  static final Duration WINDOW = Duration.ofHours(3);

  /** One counter as the encoder writes it. */
  record Counter(String name, int remaining, Instant resetAfter) {}

  /** What one turn's {@code conversation_detail_metadata} carries. */
  record Snapshot(List<Counter> features, List<Counter> models, List<String> blocked) {}

  private final Clock clock;
  private final Map<String, Integer> models = new LinkedHashMap<>();
  private int uploads = UPLOADS_START;
  private Instant windowStart;

  AccountCounters(Clock clock) {
    this.clock = clock;
  }

  /** A Send answered by {@code slug} with {@code attachments} files. */
  synchronized void spend(String slug, int attachments) {
    open();
    if (slug != null) {
      models.merge(slug, MODEL_START - 1, (left, start) -> Math.max(0, left - 1));
    }
    uploads = Math.max(0, uploads - attachments);
  }

  synchronized void uploadsLeft(int left) {
    uploads = Math.max(0, left);
  }

  /** {@code slug} reached its cap. */
  synchronized void exhaust(String slug) {
    open();
    models.put(slug, 0);
  }

  synchronized Snapshot snapshot() {
    open();
    Instant reset = windowStart.plus(WINDOW);
    List<Counter> features = List.of(new Counter("deep_research", DEEP_RESEARCH, Instant.parse("2026-12-31T00:00:00Z")),
        new Counter("file_upload", uploads, reset));
    List<Counter> byModel = new ArrayList<>();
    models.forEach((slug, left) -> byModel.add(new Counter(slug, left, reset)));
    List<String> blocked = uploads == 0 ? List.of("file_upload") : List.of();
    return new Snapshot(features, byModel, blocked);
  }

  private void open() {
    if (windowStart == null) {
      windowStart = clock.instant();
    }
  }
}

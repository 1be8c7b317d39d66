package dev.solweb.provider.seat;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Process-wide counts of how seats read their answers, for {@code /healthz}: answers taken from
 * the page's stream, answers the DOM decided alone, and disagreements between the two readings
 * (each one is also logged by the seat that found it). Thread-safe.
 */
public final class AnswerStats {

  public static final AnswerStats GLOBAL = new AnswerStats();

  private final AtomicLong stream = new AtomicLong();
  private final AtomicLong dom = new AtomicLong();
  private final AtomicLong disagreements = new AtomicLong();

  public void answered(SeatReply.Source source) {
    (source == SeatReply.Source.STREAM ? stream : dom).incrementAndGet();
  }

  public void disagreed() {
    disagreements.incrementAndGet();
  }

  public long stream() {
    return stream.get();
  }

  public long dom() {
    return dom.get();
  }

  public long disagreements() {
    return disagreements.get();
  }
}

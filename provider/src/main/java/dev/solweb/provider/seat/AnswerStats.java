package dev.solweb.provider.seat;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Process-wide counts of how seats read their answers, for {@code /healthz}: answers taken from
 * the page's stream, answers the DOM decided alone, disagreements between the two readings (each
 * one is also logged by the seat that found it), turn requests whose effort differed from the one
 * asked, and answers recovered from a conversation after an uncertain turn. Thread-safe.
 */
public final class AnswerStats {

  public static final AnswerStats GLOBAL = new AnswerStats();

  private final AtomicLong stream = new AtomicLong();
  private final AtomicLong dom = new AtomicLong();
  private final AtomicLong disagreements = new AtomicLong();
  private final AtomicLong effortMismatches = new AtomicLong();
  private final AtomicLong recovered = new AtomicLong();

  public void answered(SeatReply.Source source) {
    (source == SeatReply.Source.STREAM ? stream : dom).incrementAndGet();
  }

  public void disagreed() {
    disagreements.incrementAndGet();
  }

  /** The page's own turn request named another effort than the one asked (after Send: recorded, never resent). */
  public void effortMismatchAfterSend() {
    effortMismatches.incrementAndGet();
  }

  /** An uncertain turn was answered from its conversation instead of being typed again. */
  public void recovered() {
    recovered.incrementAndGet();
  }

  public long effortMismatchesAfterSend() {
    return effortMismatches.get();
  }

  public long recoveredAnswers() {
    return recovered.get();
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

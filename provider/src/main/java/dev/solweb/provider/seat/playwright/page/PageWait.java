package dev.solweb.provider.seat.playwright.page;

import dev.solweb.provider.seat.SeatException;
import java.time.Duration;

/**
 * The seat's one way to wait for the page: poll a condition every {@code interval} until it
 * yields a value or the time is up. An interrupt of the seat thread is handed to
 * {@code onInterrupt} (the seat counts it as a Stop request) and the wait goes on, so the
 * condition decides what a Stop means at that point.
 */
public final class PageWait {

  /** One poll: a value ends the wait, null polls again. */
  @FunctionalInterface
  public interface Poll<T> {
    T poll() throws SeatException;
  }

  /** What running out of time means: an exception to throw, or null to return null. */
  @FunctionalInterface
  public interface OnTimeout {
    SeatException timedOut();
  }

  private final Duration interval;
  private final Runnable onInterrupt;
  private final IdleWork idle;

  public PageWait(Duration interval, Runnable onInterrupt) {
    this(interval, onInterrupt, IdleWork.NONE);
  }

  /** @param idle work posted to the seat's thread, run between polls (never inside a poll) */
  public PageWait(Duration interval, Runnable onInterrupt, IdleWork idle) {
    this.interval = interval;
    this.onInterrupt = onInterrupt;
    this.idle = idle;
  }

  /** Polls until {@code poll} yields a value; after {@code within}, throws {@code onTimeout}'s exception (or returns null). */
  public <T> T until(Duration within, Poll<T> poll, OnTimeout onTimeout) throws SeatException {
    return until(within, poll, onTimeout, this::pause);
  }

  /** As {@link #until(Duration, Poll, OnTimeout)}, with {@code between} in place of the fixed interval between polls. */
  public <T> T until(Duration within, Poll<T> poll, OnTimeout onTimeout, Runnable between) throws SeatException {
    long deadline = System.nanoTime() + within.toNanos();
    while (true) {
      T value = poll.poll();
      if (value != null) {
        return value;
      }
      if (System.nanoTime() - deadline > 0) {
        SeatException e = onTimeout.timedOut();
        if (e != null) {
          throw e;
        }
        return null;
      }
      idle.drain();
      between.run();
    }
  }

  /** One interval, in which posted work runs as it arrives. */
  public void pause() {
    try {
      idle.runFor(interval);
    } catch (InterruptedException e) {
      // Not re-raised: the seat thread lives on and the Stop request carries the meaning.
      onInterrupt.run();
    }
  }
}

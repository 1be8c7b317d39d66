package dev.solweb.provider.platform;

import java.time.Duration;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * The one polling wait: asks a {@link Probe} at a fixed interval until it answers, for the waits
 * that have nothing to block on (a process to exit, a file to appear, a port to answer, a lock
 * to free). The probe runs first at once; a probe that throws ends the wait with its exception.
 *
 * <p>An interrupt ends the wait with {@link Interrupted}, the thread's flag set again. Never on
 * the event loop: it blocks its thread.
 */
public final class Poll {

  /** One look: the answer, or empty to look again after the interval. */
  @FunctionalInterface
  public interface Probe<T, E extends Exception> {
    Optional<T> look() throws E;
  }

  /** The waiting thread was interrupted; its interrupt flag is set again. */
  public static final class Interrupted extends RuntimeException {
    Interrupted(InterruptedException cause) {
      super("interrupted while waiting", cause);
    }
  }

  /** How a poll sleeps; tests pass one that moves their own clock. */
  @FunctionalInterface
  interface Sleeper {
    void sleep(Duration duration) throws InterruptedException;
  }

  private static final Poll SYSTEM = new Poll(System::nanoTime, duration -> Thread.sleep(duration.toMillis()));

  private final LongSupplier nanoTime;
  private final Sleeper sleeper;

  Poll(LongSupplier nanoTime, Sleeper sleeper) {
    this.nanoTime = nanoTime;
    this.sleeper = sleeper;
  }

  /**
   * Looks every {@code interval} until {@code probe} answers or {@code timeout} has passed since
   * the first look; the look at the moment the timeout passes is the last.
   *
   * @return the answer, or empty when the time ran out without one
   */
  public static <T, E extends Exception> Optional<T> until(Duration timeout, Duration interval, Probe<T, E> probe)
      throws E {
    return SYSTEM.await(timeout, interval, probe);
  }

  /** Looks every {@code interval} until {@code probe} answers: the probe decides when to give up (it throws). */
  public static <T, E extends Exception> T until(Duration interval, Probe<T, E> probe) throws E {
    return SYSTEM.await(null, interval, probe).orElseThrow();
  }

  /** @param timeout null: no limit */
  <T, E extends Exception> Optional<T> await(Duration timeout, Duration interval, Probe<T, E> probe) throws E {
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException("a poll interval must be positive, got " + interval);
    }
    long start = nanoTime.getAsLong();
    while (true) {
      Optional<T> answer = probe.look();
      if (answer.isPresent()) {
        return answer;
      }
      if (timeout != null && nanoTime.getAsLong() - start >= timeout.toNanos()) {
        return Optional.empty();
      }
      try {
        sleeper.sleep(interval);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new Interrupted(e);
      }
    }
  }

  /**
   * Sleeps what is left of {@code interval} since {@code startNanos} ({@link System#nanoTime}): a
   * wait on the page that failed early (a navigation) still keeps its interval, so a caller's loop
   * never spins. An interrupt ends the sleep with the thread's flag set again.
   */
  public static void restOf(Duration interval, long startNanos) {
    long left = interval.toNanos() - (System.nanoTime() - startNanos);
    if (left > 0) {
      try {
        Thread.sleep(left / 1_000_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}

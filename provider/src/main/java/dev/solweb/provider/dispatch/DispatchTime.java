package dev.solweb.provider.dispatch;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The dispatcher's time: the instant it reads and the delayed tasks it sets (turn timeouts,
 * the spacing wake-up). Given to it, so tests drive time by hand instead of sleeping.
 */
public interface DispatchTime extends AutoCloseable {

  Instant now();

  /** Runs {@code task} once after {@code delay}, on a thread of the time's own. */
  Cancellable schedule(Duration delay, Runnable task);

  /** Stops running tasks; the dispatcher calls it on close. */
  @Override
  void close();

  /** A task set with {@link #schedule}. */
  interface Cancellable {
    void cancel();
  }

  /** Wall-clock time and one daemon timer thread. */
  static DispatchTime system(Clock clock) {
    ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor(runnable -> {
      Thread thread = new Thread(runnable, "solwebd-timers");
      thread.setDaemon(true);
      return thread;
    });
    return new DispatchTime() {
      @Override
      public Instant now() {
        return clock.instant();
      }

      @Override
      public Cancellable schedule(Duration delay, Runnable task) {
        ScheduledFuture<?> future = timers.schedule(task, Math.max(1, delay.toMillis()), TimeUnit.MILLISECONDS);
        return () -> future.cancel(false);
      }

      @Override
      public void close() {
        timers.shutdownNow();
      }
    };
  }
}

package dev.solweb.provider.seat.playwright;

import dev.solweb.provider.seat.playwright.page.IdleWork;
import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Work other threads post for the seat's thread, the one thread that may touch its Playwright
 * objects: run between a turn's polls ({@link dev.solweb.provider.seat.playwright.page.PageWait})
 * and, while the seat is idle, by {@link PageScreen#serve}. Bounded: a post beyond
 * {@link #CAPACITY} waiting errands is refused, so a flood of input never grows without end.
 */
final class SeatErrands implements IdleWork {
  private static final Logger LOG = Logger.getLogger(SeatErrands.class.getName());
  static final int CAPACITY = 256;

  private final LinkedBlockingQueue<Runnable> queue = new LinkedBlockingQueue<>(CAPACITY);
  private volatile Runnable wake = () -> { };
  private volatile java.util.function.BooleanSupplier watched = () -> false;

  /** Where a post says there is work (the seat pool schedules a serve on the seat's thread). */
  void onPost(Runnable wake) {
    this.wake = wake == null ? () -> { } : wake;
  }

  /** Queues {@code errand} for the seat's thread; false when {@link #CAPACITY} errands already wait. */
  boolean post(Runnable errand) {
    if (!queue.offer(errand)) {
      return false;
    }
    wake.run();
    return true;
  }

  boolean pending() {
    return !queue.isEmpty();
  }

  /** What says that errands keep coming (the screen is cast: every frame posts its acknowledgement). */
  void expectWhile(java.util.function.BooleanSupplier watched) {
    this.watched = watched;
  }

  @Override
  public boolean expected() {
    return pending() || watched.getAsBoolean();
  }

  @Override
  public void drain() {
    Runnable errand;
    while ((errand = queue.poll()) != null) {
      run(errand);
    }
  }

  @Override
  public void runFor(Duration time) throws InterruptedException {
    long deadline = System.nanoTime() + time.toNanos();
    while (true) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return;
      }
      Runnable errand = queue.poll(left, TimeUnit.NANOSECONDS);
      if (errand != null) {
        run(errand);
      }
    }
  }

  private static void run(Runnable errand) {
    try {
      errand.run();
    } catch (RuntimeException e) {
      // An errand completes its own future; one that throws anyway must not end a turn's wait.
      LOG.log(Level.WARNING, "a seat errand failed", e);
    }
  }
}

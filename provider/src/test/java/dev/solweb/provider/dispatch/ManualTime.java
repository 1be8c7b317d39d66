package dev.solweb.provider.dispatch;

import dev.solweb.provider.TestClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Time a test moves by hand: tasks run only inside {@link #advance}, in due order. */
public final class ManualTime implements DispatchTime {
  private final TestClock clock = new TestClock();
  private final List<Task> tasks = new ArrayList<>();
  private long sequence;

  private final class Task implements Cancellable {
    final Instant due;
    final long order = sequence++;
    final Runnable body;
    boolean cancelled;

    Task(Instant due, Runnable body) {
      this.due = due;
      this.body = body;
    }

    @Override
    public void cancel() {
      synchronized (ManualTime.this) {
        cancelled = true;
      }
    }
  }

  @Override
  public synchronized Instant now() {
    return clock.instant();
  }

  @Override
  public synchronized Cancellable schedule(Duration delay, Runnable task) {
    Task scheduled = new Task(now().plus(delay), task);
    tasks.add(scheduled);
    return scheduled;
  }

  /** Moves the clock forward, running each task that falls due, at its due time. */
  public void advance(Duration by) {
    Instant target;
    synchronized (this) {
      target = now().plus(by);
    }
    while (true) {
      Task next;
      synchronized (this) {
        tasks.removeIf(t -> t.cancelled);
        next = tasks.stream().filter(t -> !t.due.isAfter(target))
            .min(Comparator.comparing((Task t) -> t.due).thenComparingLong(t -> t.order)).orElse(null);
        if (next == null) {
          clock.advance(Duration.between(clock.instant(), target));
          return;
        }
        tasks.remove(next);
        clock.advance(Duration.between(clock.instant(), next.due));
      }
      next.body.run();
    }
  }

  /** Tasks set and not yet run or cancelled. */
  public synchronized int pending() {
    tasks.removeIf(t -> t.cancelled);
    return tasks.size();
  }

  /** This time as a {@link Clock}, for what reads a clock (the seat, translate): one time for all. */
  public Clock clock() {
    return clock;
  }

  @Override
  public void close() {
  }
}

package dev.solweb.provider.dispatch;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.TimeUnit;

/** A seat thread the test runs by hand: nothing happens until {@link #runNext()}. */
public final class ManualExecutor extends AbstractExecutorService {
  private final Deque<Runnable> tasks = new ArrayDeque<>();
  private boolean shutdown;

  @Override
  public synchronized void execute(Runnable command) {
    tasks.addLast(command);
  }

  /** Runs the oldest task on the calling thread. */
  public void runNext() {
    Runnable next;
    synchronized (this) {
      next = tasks.pollFirst();
    }
    if (next == null) {
      throw new IllegalStateException("nothing is queued on this seat thread");
    }
    next.run();
  }

  public synchronized int queued() {
    return tasks.size();
  }

  @Override
  public synchronized void shutdown() {
    shutdown = true;
  }

  @Override
  public synchronized List<Runnable> shutdownNow() {
    shutdown = true;
    List<Runnable> left = List.copyOf(tasks);
    tasks.clear();
    return left;
  }

  @Override
  public synchronized boolean isShutdown() {
    return shutdown;
  }

  @Override
  public synchronized boolean isTerminated() {
    return shutdown && tasks.isEmpty();
  }

  @Override
  public boolean awaitTermination(long timeout, TimeUnit unit) {
    return true;
  }
}

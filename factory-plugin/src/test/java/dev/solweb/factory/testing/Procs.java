package dev.solweb.factory.testing;

import java.util.concurrent.TimeUnit;

/** Process checks for kill tests. */
public final class Procs {

  private Procs() {}

  /**
   * Whether {@code pid} has exited: no {@code /proc/<pid>} entry, or a zombie (state Z). A zombie
   * has died and only awaits its reaper (here PID 1, which reaps on its own schedule), which is
   * why {@link ProcessHandle#isAlive()} (kill(pid, 0)) is not used: it reports zombies as alive.
   */
  public static boolean isDead(long pid) {
    return !dev.solweb.provider.platform.ProcessInfo.isRunning(pid);
  }

  /** Polls {@link #isDead} until it holds or {@code millis} pass. */
  public static boolean diesWithin(long pid, long millis) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    while (System.nanoTime() < deadline) {
      if (isDead(pid)) {
        return true;
      }
      Thread.sleep(20);
    }
    return isDead(pid);
  }
}

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

  /**
   * Whether {@code pid} dies: polls {@link #isDead} until it holds. How soon is a benchmark's
   * business (kill tests once asserted 2 s, which a loaded machine can miss); the minute only ends
   * a wait for a process that was never killed.
   */
  public static boolean dies(long pid) throws InterruptedException {
    return diesWithin(pid, TimeUnit.MINUTES.toMillis(1));
  }

  /**
   * The pid a tool wrote to {@code file} ({@code echo $! > file}), once the whole line is there:
   * the tool's child runs from then on. The minute only ends a wait for a tool that never ran.
   */
  public static long awaitPid(java.nio.file.Path file) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
    while (System.nanoTime() < deadline) {
      if (java.nio.file.Files.isRegularFile(file)) {
        String text = java.nio.file.Files.readString(file);
        if (text.endsWith("\n") && !text.isBlank()) {
          return Long.parseLong(text.strip());
        }
      }
      Thread.sleep(20);
    }
    throw new AssertionError("no pid in " + file);
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

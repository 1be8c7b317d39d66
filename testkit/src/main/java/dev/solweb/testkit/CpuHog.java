package dev.solweb.testkit;

import java.io.IOException;
import java.io.OutputStream;

/**
 * Keeps every core busy while {@code bin/test --repeat} runs test classes, so a race that only a
 * loaded machine shows (a CI runner, the full suite) shows on a developer's machine too. One
 * spinning thread per core (or {@code args[0]} threads) until its standard input ends: the launcher
 * holds the other end, so the hog ends with it however it ends (a trap also kills it).
 */
public final class CpuHog {

  /** Written now and then, so no compiler may treat a spin as dead code. */
  private static volatile long sink;

  private CpuHog() {}

  public static void main(String[] args) throws IOException {
    int threads = args.length > 0 ? Integer.parseInt(args[0]) : Runtime.getRuntime().availableProcessors();
    for (int i = 0; i < threads; i++) {
      Thread spinner = new Thread(CpuHog::spin, "cpu-hog-" + i);
      spinner.setDaemon(true);
      spinner.start();
    }
    System.err.println("cpu-hog: " + threads + " threads busy until the launcher ends");
    System.in.transferTo(OutputStream.nullOutputStream()); // returns at end of input
  }

  private static void spin() {
    long x = Thread.currentThread().getId();
    for (long i = 0; ; i++) {
      x = x * 6364136223846793005L + 1442695040888963407L;
      if ((i & 0xFFFFFF) == 0) {
        sink = x;
      }
    }
  }
}

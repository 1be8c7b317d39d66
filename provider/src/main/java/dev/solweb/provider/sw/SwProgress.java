package dev.solweb.provider.sw;

import dev.solweb.provider.ctl.LiveTurns;
import java.io.PrintWriter;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * sw's progress lines on stderr while Claude Code runs: every {@code SW_PROGRESS_S} seconds,
 * solwebd's {@code /healthz} turn of this run ({@code sw: [61s] gpt: thinking 42 s, writing 1,204
 * chars (elapsed 61 s)}). Neither path sends a client-session header (ccr forwards none, Claude
 * Code straight at solwebd has none), so "this run's" turn is the one
 * without a client tag at this run's effort; with none running (Claude Code between turns, its
 * tools at work) nothing is printed. Stdout stays the one status line; the token only authorizes
 * the GET.
 */
final class SwProgress implements AutoCloseable {
  private final int port;
  private final String token;
  private final String effort;
  private final PrintWriter err;
  private final long started = System.nanoTime();
  private ScheduledExecutorService timer;

  SwProgress(int port, String token, String effort, PrintWriter err) {
    this.port = port;
    this.token = token;
    this.effort = effort;
    this.err = err;
  }

  /** Starts printing every {@code seconds} (none for 0). */
  SwProgress every(long seconds) {
    if (seconds > 0) {
      timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "sw-progress");
        thread.setDaemon(true);
        return thread;
      });
      timer.scheduleWithFixedDelay(this::tick, seconds, seconds, TimeUnit.SECONDS);
    }
    return this;
  }

  /** One progress read; prints this run's turn when one runs. */
  void tick() {
    LiveTurns.fetch(port, token).flatMap(h -> LiveTurns.ofAnonymous(h, effort)).ifPresent(turn -> {
      err.println("sw: [" + TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started) + "s] " + turn.line());
      err.flush();
    });
  }

  @Override
  public void close() {
    if (timer != null) {
      timer.shutdownNow();
      try {
        timer.awaitTermination(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}

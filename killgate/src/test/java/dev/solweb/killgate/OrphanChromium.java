package dev.solweb.killgate;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * What a SIGKILLed daemon may leave behind, made on purpose rather than hoped for: a Chromium
 * running on a profile that no daemon owns. {@link #start} returns once Chromium itself says it
 * runs (its DevTools line), by which time it holds the profile.
 */
final class OrphanChromium {

  private OrphanChromium() {}

  /** Starts Chromium on {@code profile} and waits for it to say it runs; fails with what it printed if it never does. */
  static Process start(Path chromium, Path profile) throws Exception {
    Process orphan = new ProcessBuilder(List.of(chromium.toString(), "--headless", "--no-sandbox", "--disable-gpu",
        "--remote-debugging-port=0", "--user-data-dir=" + profile.toAbsolutePath().normalize(), "about:blank"))
        .redirectErrorStream(true).start();
    List<String> printed = new ArrayList<>();
    CompletableFuture<Boolean> running = new CompletableFuture<>();
    // Reads all Chromium prints (so it never blocks on a full pipe); says when Chromium runs or ends.
    Thread reader = new Thread(() -> {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(orphan.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = in.readLine()) != null) {
          synchronized (printed) {
            printed.add(line);
          }
          if (line.contains("DevTools listening on ws://")) {
            running.complete(true);
          }
        }
      } catch (Exception e) {
        // Chromium ended.
      }
      running.complete(false);
    });
    reader.setDaemon(true);
    reader.start();
    // A bound, not a wait: Chromium's own line ends it; this only ends a start that hangs.
    boolean started = running.get(Duration.ofSeconds(60).toSeconds(), TimeUnit.SECONDS);
    if (!started) {
      orphan.destroyForcibly();
      synchronized (printed) {
        throw new IllegalStateException("Chromium did not start on " + profile + ": " + String.join("\n", printed));
      }
    }
    return orphan;
  }
}

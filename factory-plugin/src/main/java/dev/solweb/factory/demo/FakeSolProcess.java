package dev.solweb.factory.demo;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code bin/fakesol --port 0 --scenario NAME} as the demo's own child: the imitation ChatGPT page
 * on a loopback port the kernel picks. Its first stdout line is its URL. Closing sends SIGTERM
 * (fakesol closes its server in a shutdown hook), then SIGKILL if it lingers.
 */
final class FakeSolProcess implements AutoCloseable {

  private final Process process;
  private final String url;

  private FakeSolProcess(Process process, String url) {
    this.process = process;
    this.url = url;
  }

  /**
   * @param log where fakesol's stderr goes (a first run of bin/fakesol also builds its module there)
   * @throws IllegalStateException naming the log when fakesol exits or prints no URL in time
   */
  static FakeSolProcess start(Path solwebRoot, Map<String, String> env, String scenario, Path log, long timeoutSeconds)
      throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(List.of(solwebRoot.resolve("bin/fakesol").toString(),
        "--port", "0", "--scenario", scenario))
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()));
    builder.environment().clear();
    builder.environment().putAll(env);
    Process process = builder.start();
    BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    CompletableFuture<String> firstLine = CompletableFuture.supplyAsync(() -> {
      try {
        String line = out.readLine();
        Thread drain = new Thread(() -> {
          try {
            while (out.readLine() != null) {
              // keep the pipe empty
            }
          } catch (IOException closed) {
            // fakesol ended
          }
        }, "fakesol-stdout");
        drain.setDaemon(true);
        drain.start();
        return line;
      } catch (IOException e) {
        return null;
      }
    });
    String url;
    try {
      url = firstLine.get(timeoutSeconds, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      url = null;
    }
    if (url == null || !url.startsWith("http://127.0.0.1:")) {
      new FakeSolProcess(process, null).close();
      throw new IllegalStateException("fakesol printed no loopback URL within " + timeoutSeconds + " s ("
          + (url == null ? "nothing" : url) + "); see " + log + (Files.exists(log) ? "" : " (empty)"));
    }
    return new FakeSolProcess(process, url.strip());
  }

  String url() {
    return url;
  }

  long pid() {
    return process.pid();
  }

  @Override
  public void close() throws InterruptedException {
    if (!process.isAlive()) {
      return;
    }
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
    }
  }
}

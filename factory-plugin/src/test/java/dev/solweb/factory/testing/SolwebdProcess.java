package dev.solweb.factory.testing;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The real solwebd ({@code dev.solweb.provider.daemon.Solwebd}) as a child JVM on an ephemeral
 * loopback port with a ScriptedSeat scenario, its home in a temp dir. Stopped (and waited for)
 * on close.
 */
public final class SolwebdProcess implements AutoCloseable {

  private static final Pattern LISTENING = Pattern.compile("listening on http://127\\.0\\.0\\.1:(\\d+)");

  public final Path home;
  public final int port;
  private final Process process;

  public SolwebdProcess(Path home, Path scenario, Map<String, String> extraEnv) throws Exception {
    this.home = home;
    List<String> cmd = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
        "-cp", System.getProperty("java.class.path"), "dev.solweb.provider.daemon.Solwebd",
        "--seat", "scripted:" + scenario, "--port", "0", "--home", home.toString()));
    ProcessBuilder pb = new ProcessBuilder(cmd)
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectError(home.resolveSibling(home.getFileName() + ".stderr.log").toFile());
    pb.environment().putAll(extraEnv);
    pb.environment().put("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1");
    Files.createDirectories(home);
    process = pb.start();
    BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    CompletableFuture<Integer> listening = CompletableFuture.supplyAsync(() -> {
      try {
        String line;
        while ((line = out.readLine()) != null) {
          Matcher m = LISTENING.matcher(line);
          if (m.find()) {
            int p = Integer.parseInt(m.group(1));
            Thread drain = new Thread(() -> {
              try {
                while (out.readLine() != null) {
                  // keep the pipe empty
                }
              } catch (IOException ignored) {
                // closed
              }
            });
            drain.setDaemon(true);
            drain.start();
            return p;
          }
        }
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
      throw new IllegalStateException("solwebd exited before listening");
    });
    port = listening.get(60, TimeUnit.SECONDS);
  }

  public String token() throws IOException {
    return Files.readString(home.resolve("solwebd.token")).strip();
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}

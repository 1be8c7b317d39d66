package dev.solweb.killgate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.solweb.killgate.fakesol.FakeSol;
import dev.solweb.provider.scenario.Scenario;
import dev.solweb.provider.seat.playwright.browser.OrphanReaper;
import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/ask-gpt through the real daemon on {@code --seat playwright} against fakesol: the attachment
 * goes up the page's file input and the generated image comes back as a PNG in --out.
 */
class AskGptPlaywrightTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path ROOT = Path.of(System.getProperty("user.dir")).getParent();
  private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

  @TempDir Path dir;
  private FakeSol sol;
  private Process daemon;

  @AfterEach
  void stopAll() throws Exception {
    if (daemon != null) {
      daemon.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    OrphanReaper.reap(dir.resolve("home/profile"));
    if (sol != null) {
      sol.close();
    }
  }

  @Test
  void askGptThroughTheDaemonAttachesAndHarvestsAnImage() throws Exception {
    sol = FakeSol.start(Scenario.parse("""
        {"account": "owner@example.invalid",
         "default": [{"prose": "Here is a cat.", "images": ["cat.png"], "stream_ms": 100}]}
        """), 0);
    Path home = Files.createDirectories(dir.resolve("home"));
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    // The JVM options bin/lib.sh gives solwebd.
    ProcessBuilder pb = new ProcessBuilder(java, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
        "-cp", System.getProperty("java.class.path"),
        "dev.solweb.provider.daemon.Solwebd", "--seat", "playwright", "--headless", "--chat-url", sol.url().toString(),
        "--port", "0", "--home", home.toString())
        .redirectErrorStream(true).redirectOutput(dir.resolve("solwebd.log").toFile());
    pb.environment().put("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1");
    daemon = pb.start();
    waitReady(home);

    Path cwd = Files.createDirectories(dir.resolve("cwd"));
    Files.writeString(cwd.resolve("whiskers.txt"), "long whiskers");
    ProcessBuilder ask = new ProcessBuilder(ROOT.resolve("bin/ask-gpt").toString(), "draw me a cat",
        "--attach", "whiskers.txt", "--out", "pics", "--effort", "high")
        .directory(cwd.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectOutput(dir.resolve("ask.out").toFile()).redirectError(dir.resolve("ask.err").toFile());
    ask.environment().clear();
    ask.environment().put("HOME", dir.toString());
    ask.environment().put("PATH", System.getenv("PATH"));
    ask.environment().put("SOLWEBD_HOME", home.toString());
    Process process = ask.start();
    assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("ask-gpt finished").isTrue();
    String err = Files.readString(dir.resolve("ask.err"));
    assertThat(process.exitValue()).as(err).isZero();

    // The harvest names an image after its file id (issue-11-seat's ImageHarvest), not the scripted name.
    String printed = Files.readString(dir.resolve("ask.out"));
    String prefix = "Here is a cat.\nimage: " + cwd.resolve("pics") + "/";
    assertThat(printed).startsWith(prefix);
    assertThat(printed.substring(prefix.length())).matches("file_[0-9a-f]+\\.png\n");
    Path image = Path.of(printed.lines().skip(1).findFirst().orElseThrow().substring("image: ".length()));
    assertThat(Arrays.copyOf(Files.readAllBytes(image), 8)).isEqualTo(PNG_SIGNATURE);
    assertThat(sol.sends()).hasSize(1);
    assertThat(sol.sends().get(0).attachments()).containsExactly("whiskers.txt");
    assertThat(sol.sends().get(0).text()).contains("draw me a cat");
  }

  private void waitReady(Path home) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    HttpClient http = HttpClient.newHttpClient();
    while (true) {
      assertThat(daemon.isAlive()).as("solwebd exited: %s", log()).isTrue();
      assertThat(System.nanoTime()).as("solwebd never ready: %s", log()).isLessThan(deadline);
      Path state = home.resolve("solwebd.state.json");
      if (Files.exists(state) && Files.exists(home.resolve("solwebd.token"))) {
        int port = JSON.readTree(state.toFile()).path("port").asInt();
        String token = Files.readString(home.resolve("solwebd.token")).strip();
        try {
          HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/healthz"))
              .header("Authorization", "Bearer " + token).timeout(Duration.ofSeconds(10)).build(),
              HttpResponse.BodyHandlers.ofString());
          JsonNode health = JSON.readTree(r.body());
          if ("ready".equals(health.path("state").asText())) {
            return;
          }
        } catch (java.io.IOException e) {
          // Not listening yet.
        }
      }
      Thread.sleep(200);
    }
  }

  private String log() throws Exception {
    Path log = dir.resolve("solwebd.log");
    return Files.exists(log) ? Files.readString(log) : "";
  }
}

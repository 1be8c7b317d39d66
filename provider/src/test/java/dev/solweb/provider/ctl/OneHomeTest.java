package dev.solweb.provider.ctl;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.solweb.provider.daemon.StateFile;
import dev.solweb.provider.platform.Json;
import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One home rule for every command (SolwebHome): with {@code HOME} somewhere other than the
 * account's home (the JVM's {@code user.home}) and no {@code SOLWEBD_HOME}, the daemon writes its
 * token and state under {@code $HOME/.overdeck/gptbridge}, and {@code solwebctl token} (both of its
 * paths) and {@code sw} read them there. solwebd used to take {@code user.home}: it wrote under the
 * account's real home while the clients looked under {@code $HOME}.
 */
class OneHomeTest {
  private static final Path BIN = CtlFixture.ROOT.resolve("bin");

  @TempDir Path dir;

  record Run(int code, String out, String err) {}

  @Test
  void theDaemonSolwebctlAndSwAgreeOnTheTokenUnderHome() throws Exception {
    Path home = Files.createDirectories(dir.resolve("home")).toRealPath();
    assertThat(home.toString()).as("the point of the test").isNotEqualTo(System.getProperty("user.home"));
    Map<String, String> env = new HashMap<>(Map.of("HOME", home.toString(), "PATH", System.getenv("PATH"),
        "PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1"));
    Path daemonHome = home.resolve(".overdeck/gptbridge");
    Path log = dir.resolve("solwebd.out");

    ProcessBuilder start = new ProcessBuilder(BIN.resolve("solwebd").toString(), "--seat", "scripted:echo", "--port", "0")
        .redirectErrorStream(true).redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    start.environment().clear();
    start.environment().putAll(env);
    Process daemon = start.start();
    try {
      StateFile state = StateFile.await(daemonHome, daemon, log, Duration.ofSeconds(90));
      String token = Files.readString(daemonHome.resolve("solwebd.token")).strip();

      assertThat(run(env, "solwebctl", "token")).isEqualTo(new Run(0, token + "\n", ""));
      Map<String, String> jvm = new HashMap<>(env);
      jvm.put("SOLWEBCTL_JVM_TOKEN", "1");
      assertThat(run(jvm, "solwebctl", "token")).isEqualTo(new Run(0, token + "\n", ""));

      // sw reads the token and the running daemon's port from the same home into ccr's config under $HOME.
      Run sw = run(env, "sw", "install-ccr");
      assertThat(sw.code()).as(sw.toString()).isZero();
      JsonNode ccr = Json.MAPPER.readTree(home.resolve(".claude-code-router/config.json").toFile());
      JsonNode solweb = ccr.path("Providers").get(0);
      assertThat(solweb.path("api_key").asText()).isEqualTo(token);
      assertThat(solweb.path("api_base_url").asText()).isEqualTo("http://127.0.0.1:" + state.port() + "/v1/chat/completions");

      HttpResponse<String> stop = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
              URI.create("http://127.0.0.1:" + state.port() + "/shutdown")).header("Authorization", "Bearer " + token)
          .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(stop.statusCode()).isEqualTo(200);
      assertThat(daemon.waitFor(30, TimeUnit.SECONDS)).isTrue();
    } finally {
      daemon.destroyForcibly();
    }
  }

  private Run run(Map<String, String> env, String... command) throws Exception {
    List<String> argv = new ArrayList<>(List.of(command));
    argv.set(0, BIN.resolve(command[0]).toString());
    ProcessBuilder builder = new ProcessBuilder(argv).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    builder.environment().clear();
    builder.environment().putAll(env);
    Process process = builder.start();
    byte[] out = process.getInputStream().readAllBytes();
    byte[] err = process.getErrorStream().readAllBytes();
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return new Run(process.exitValue(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
  }
}

package dev.solweb.provider.sw;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.solweb.provider.ctl.Solwebctl;
import dev.solweb.provider.daemon.StateFile;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Offline end to end with the real programs: bin/sw, the pinned Claude Code 2.1.337 straight at
 * solwebd (the default) or through claude-code-router 2.0.0 ({@code --via-ccr}, tools/ccr), and
 * the real solwebd that sw's own ensure starts on a ScriptedSeat. Loopback only; every home is a
 * temp dir.
 */
class SwEndToEndTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path TOOLS = SwFixture.ROOT.resolve("tools/ccr");
  private static final String WRITE_THEN_FINAL = """
      [
        {"blocks": ["{\\"tool\\": \\"Write\\", \\"arguments\\": {\\"file_path\\": \\"hello.txt\\", \\"content\\": \\"hi\\"}}"], "delay_ms": %d},
        {"blocks": ["{\\"tool\\": \\"final\\", \\"text\\": \\"Created hello.txt containing hi.\\"}"], "delay_ms": 50}
      ]""";

  @TempDir Path dir;
  private SwFixture fx;
  private int ccrPort;

  /** The pinned tools, installed from the lockfile when missing; absent tools fail, never skip. */
  @BeforeAll
  static void pinnedToolsInstalled() throws Exception {
    if (!Files.isExecutable(TOOLS.resolve("node_modules/.bin/claude")) || !Files.isExecutable(TOOLS.resolve("node_modules/.bin/ccr"))) {
      Process npm = new ProcessBuilder("npm", "ci", "--prefix", TOOLS.toString(), "--no-audit", "--no-fund")
          .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      assertThat(npm.waitFor(300, TimeUnit.SECONDS)).as("npm ci --prefix tools/ccr finished").isTrue();
    }
    assertThat(TOOLS.resolve("node_modules/.bin/claude"))
        .as("Claude Code is not installed; run: npm ci --prefix tools/ccr (bin/test does)").isExecutable();
    assertThat(TOOLS.resolve("node_modules/.bin/ccr"))
        .as("claude-code-router is not installed; run: npm ci --prefix tools/ccr (bin/test does)").isExecutable();
  }

  @BeforeEach
  void setUp() throws Exception {
    fx = new SwFixture(dir);
    fx.env.put("SOLWEBD_PORT", "0");
    fx.env.put("SOLWEBCTL_START_TIMEOUT_S", "90");
    fx.env.put("SW_LOG_DIR", dir.resolve("logs").toString());
    ccrPort = SwFixture.freePort();
    Files.createDirectories(fx.ccrConfig().getParent());
    Files.writeString(fx.ccrConfig(), "{\"PORT\": " + ccrPort + "}");
    fx.enroll();
  }

  @AfterEach
  void tearDown() throws Exception {
    Optional<StateFile> state = StateFile.read(fx.home.resolve("solwebd.state.json"));
    Solwebctl.execute(fx.ctlEnv(), new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()), "stop", "--json");
    state.flatMap(s -> ProcessHandle.of(s.pid())).ifPresent(ProcessHandle::destroyForcibly);
    Path ccrPid = dir.resolve(".claude-code-router/.claude-code-router.pid");
    if (Files.exists(ccrPid)) {
      ProcessHandle.of(Long.parseLong(Files.readString(ccrPid).strip())).ifPresent(p -> {
        p.destroy();
        p.onExit().orTimeout(5, TimeUnit.SECONDS).exceptionally(e -> null).join();
        p.destroyForcibly();
      });
    }
    fx.close();
  }

  /** Starts solwebd on the scenario (as sw's ensure would) and registers it in ccr's config. */
  private void daemonAndRegistration(String scenarioJson) throws IOException {
    fx.ensure(scenarioJson);
    SwFixture.Run install = fx.sw("install-ccr");
    assertThat(install.exitCode()).as(install.err()).isZero();
  }

  private record Launched(int exitCode, String out, String err) {
    JsonNode status() throws IOException {
      return JSON.readTree(out);
    }
  }

  /** bin/sw as a process, with the fixture's environment. */
  private Launched sw(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(SwFixture.ROOT.resolve("bin/sw").toString()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectOutput(dir.resolve("sw.out").toFile()).redirectError(dir.resolve("sw.err").toFile());
    builder.environment().clear();
    builder.environment().putAll(fx.env);
    Process process = builder.start();
    assertThat(process.waitFor(300, TimeUnit.SECONDS)).as("sw finished").isTrue();
    return new Launched(process.exitValue(), Files.readString(dir.resolve("sw.out")), Files.readString(dir.resolve("sw.err")));
  }

  private JsonNode daemonHealth() throws Exception {
    return fx.health();
  }

  private static int browserSends(JsonNode health) {
    return SwFixture.browserSends(health);
  }

  @Test
  void createsHelloTxtThroughRealClaudeCodeCcrAndSolwebd() throws Exception {
    daemonAndRegistration("{\"account\": \"" + SwFixture.ACCOUNT + "\", \"default\": " + WRITE_THEN_FINAL.formatted(100) + "}");
    Launched run = sw("--workspace", fx.workspace.toString(), "--trust", "create hello.txt containing hi",
        "--task-slug", "hello", "--via-ccr");
    assertThat(run.exitCode()).as(run.err() + run.out()).isZero();
    assertThat(fx.workspace.resolve("hello.txt")).hasContent("hi");
    assertThat(run.out().lines().toList()).hasSize(1);
    JsonNode status = run.status();
    assertThat(status.get("status").asText()).isEqualTo("completed");
    assertThat(status.get("result").asText()).isEqualTo("Created hello.txt containing hi.");
    String log = Files.readString(Path.of(status.get("log").asText()));
    assertThat(log).contains("\"type\":\"tool_use\"", "\"name\":\"Write\"", "\"type\":\"result\"");
    assertThat(log).doesNotContain(Files.readString(fx.home.resolve("solwebd.token")).strip());
    JsonNode health = daemonHealth();
    assertThat(health.get("conversations").asInt()).isEqualTo(1);
    assertThat(browserSends(health)).isEqualTo(2);
  }

  @Test
  void aCapEndsInSecondsWithExit75AndResumeAt() throws Exception {
    daemonAndRegistration("{\"account\": \"" + SwFixture.ACCOUNT + "\", \"default\": [{\"fault\": \"cap\", \"resume_in_s\": 3600}]}");
    Instant before = Instant.now();
    Launched run = sw("--workspace", fx.workspace.toString(), "--trust", "create hello.txt containing hi",
        "--task-slug", "capped", "--via-ccr");
    assertThat(run.exitCode()).as(run.err() + run.out()).isEqualTo(SwExit.CAPPED);
    JsonNode status = run.status();
    assertThat(status.get("status").asText()).isEqualTo("capped");
    Instant resumeAt = Instant.parse(status.get("resume_at").asText());
    assertThat(resumeAt).isBetween(before.plusSeconds(3500), Instant.now().plusSeconds(3601));
    assertThat(status.get("retry_after_seconds").asLong()).isBetween(3500L, 3600L);
    assertThat(browserSends(daemonHealth())).isLessThanOrEqualTo(1);
  }

  @Test
  void claudeCodesWatchdogResendCostsNoSecondBrowserSend() throws Exception {
    // ccr swallows keep-alives, so a 12 s browser turn starves Claude Code's 4 s stream watchdog;
    // it drops the stream and re-sends the turn as stream:false.
    daemonAndRegistration("{\"account\": \"" + SwFixture.ACCOUNT + "\", \"default\": " + WRITE_THEN_FINAL.formatted(12000) + "}");
    int ccr = ccrPort;
    try (CountingProxy proxy = new CountingProxy(ccr)) {
      // Claude Code talks to ccr through the proxy, so every request it makes is counted.
      Path realClaude = TOOLS.resolve("node_modules/.bin/claude");
      fx.env.put("SW_CLAUDE", fx.script("claude-via-proxy",
          "export ANTHROPIC_BASE_URL=http://127.0.0.1:" + proxy.port() + "\nexec " + realClaude + " \"$@\"\n").toString());
      fx.env.put("CLAUDE_BYTE_STREAM_IDLE_TIMEOUT_MS", "4000");
      Launched run = sw("--workspace", fx.workspace.toString(), "--trust", "create hello.txt containing hi",
          "--task-slug", "watchdog", "--via-ccr");
      assertThat(run.exitCode()).as(run.err() + run.out()).isZero();
      assertThat(fx.workspace.resolve("hello.txt")).hasContent("hi");
      int requests = proxy.count("POST /v1/messages");
      int streamed = proxy.count("\"stream\":true");
      assertThat(requests).as("Claude Code re-sent the first turn after its watchdog fired").isGreaterThanOrEqualTo(3);
      assertThat(streamed).as("the re-send was not streamed").isLessThan(requests);
    }
    JsonNode health = daemonHealth();
    assertThat(health.get("conversations").asInt()).isEqualTo(1);
    assertThat(browserSends(health)).as("browser sends: the tool call and the final answer, nothing twice").isEqualTo(2);
  }

  @Test
  void createsHelloTxtWithClaudeCodeStraightAtSolwebdAndNoCcr() throws Exception {
    fx.ensure("{\"account\": \"" + SwFixture.ACCOUNT + "\", \"default\": " + WRITE_THEN_FINAL.formatted(100) + "}");
    Files.delete(fx.ccrConfig()); // nothing of ccr is needed or read
    Launched run = sw("--workspace", fx.workspace.toString(), "--trust", "create hello.txt containing hi",
        "--task-slug", "hello-direct");
    assertThat(run.exitCode()).as(run.err() + run.out()).isZero();
    assertThat(fx.workspace.resolve("hello.txt")).hasContent("hi");
    JsonNode status = run.status();
    assertThat(status.get("result").asText()).isEqualTo("Created hello.txt containing hi.");
    String log = Files.readString(Path.of(status.get("log").asText()));
    assertThat(log).contains("\"apiKeySource\":\"apiKeyHelper\"", "\"name\":\"Write\"");
    assertThat(log).doesNotContain(Files.readString(fx.home.resolve("solwebd.token")).strip());
    assertThat(Files.exists(dir.resolve(".claude-code-router/.claude-code-router.pid"))).as("ccr was never started").isFalse();
    JsonNode health = daemonHealth();
    assertThat(health.get("conversations").asInt()).isEqualTo(1);
    assertThat(browserSends(health)).isEqualTo(2);
  }

  @Test
  void aCapStraightAtSolwebdIsExit75InSecondsWithNoRetryIntoIt() throws Exception {
    fx.ensure("{\"account\": \"" + SwFixture.ACCOUNT + "\", \"default\": [{\"fault\": \"cap\", \"resume_in_s\": 3600}]}");
    Instant before = Instant.now();
    Launched run = sw("--workspace", fx.workspace.toString(), "--trust", "create hello.txt containing hi",
        "--task-slug", "capped-direct");
    assertThat(run.exitCode()).as(run.err() + run.out()).isEqualTo(SwExit.CAPPED);
    JsonNode status = run.status();
    assertThat(status.get("status").asText()).isEqualTo("capped");
    assertThat(Instant.parse(status.get("resume_at").asText())).isBetween(before.plusSeconds(3500), Instant.now().plusSeconds(3601));
    assertThat(Files.readString(Path.of(status.get("log").asText()))).doesNotContain("\"subtype\":\"api_retry\"");
    assertThat(browserSends(daemonHealth())).isLessThanOrEqualTo(1);
  }
}

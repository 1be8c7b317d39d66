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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pinned Claude Code 2.1.337 straight at solwebd's {@code /v1/messages}, no router between:
 * the real client, the real daemon on a ScriptedSeat, the token only through the
 * {@code apiKeyHelper} that runs {@code solwebctl token} ({@link ClaudeRun#directSettings}), and
 * a byte-level proxy in between that counts every request Claude Code makes. Loopback only.
 */
class ClaudeCodeDirectTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path CLAUDE = SwFixture.ROOT.resolve("tools/ccr/node_modules/.bin/claude");
  private static final Pattern REQUEST_LINE = Pattern.compile("(GET|POST|HEAD|PUT|DELETE|OPTIONS|PATCH) (/\\S*) HTTP/1\\.1\r\n");
  private static final String SESSION = "0b6a3c9e-6f0e-4c51-9d2a-3e1f5b7c9d11";
  private static final String WRITE = "{\"blocks\": [\"{\\\"tool\\\": \\\"Write\\\", \\\"arguments\\\": {\\\"file_path\\\":"
      + " \\\"hello.txt\\\", \\\"content\\\": \\\"hi\\\"}}\"], \"delay_ms\": 100}";

  private static String finalAnswer(String text) {
    return "{\"blocks\": [\"{\\\"tool\\\": \\\"final\\\", \\\"text\\\": \\\"" + text + "\\\"}\"], \"delay_ms\": 50}";
  }

  @TempDir Path dir;
  private SwFixture fx;

  @BeforeAll
  static void pinnedClaudeInstalled() {
    assertThat(CLAUDE).as("Claude Code is not installed; run: npm ci --prefix tools/ccr (bin/test does)").isExecutable();
  }

  @BeforeEach
  void setUp() throws Exception {
    fx = new SwFixture(dir);
    fx.env.put("SOLWEBD_PORT", "0");
    fx.env.put("SOLWEBCTL_START_TIMEOUT_S", "90");
    fx.enroll();
  }

  @AfterEach
  void tearDown() throws Exception {
    Optional<StateFile> state = StateFile.read(fx.home.resolve("solwebd.state.json"));
    Solwebctl.execute(fx.ctlEnv(), new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()), "stop", "--json");
    state.flatMap(s -> ProcessHandle.of(s.pid())).ifPresent(ProcessHandle::destroyForcibly);
    fx.close();
  }

  private int daemon(String... replies) throws IOException {
    fx.ensure("{\"account\": \"" + SwFixture.ACCOUNT + "\", \"default\": [" + String.join(", ", replies) + "]}");
    return fx.daemonPort();
  }

  private record Claude(int exitCode, JsonNode result, String out) {}

  /** The real claude, as sw runs it directly, with the base URL at {@code proxy}; {@code extra} before the prompt. */
  private Claude claude(CountingProxy proxy, String prompt, String... extra) throws Exception {
    List<String> command = new ArrayList<>(List.of(CLAUDE.toString(), "--settings", ClaudeRun.directSettings(SwFixture.ROOT),
        "-p", "--output-format", "stream-json", "--verbose", "--dangerously-skip-permissions", "--model", "sol-web-medium"));
    command.addAll(List.of(extra));
    command.addAll(List.of("--", prompt));
    ProcessBuilder builder = new ProcessBuilder(command).directory(fx.workspace.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectOutput(dir.resolve("claude.out").toFile()).redirectError(dir.resolve("claude.err").toFile());
    builder.environment().clear();
    builder.environment().putAll(fx.env);
    builder.environment().putAll(Map.of("ANTHROPIC_BASE_URL", "http://127.0.0.1:" + proxy.port(), "IS_SANDBOX", "1",
        "DISABLE_TELEMETRY", "1", "DISABLE_AUTOUPDATER", "1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1"));
    Process process = builder.start();
    assertThat(process.waitFor(240, TimeUnit.SECONDS)).as("claude finished").isTrue();
    String out = Files.readString(dir.resolve("claude.out"));
    JsonNode result = null;
    for (String line : out.lines().toList()) {
      if (line.startsWith("{") && line.contains("\"type\":\"result\"")) {
        result = JSON.readTree(line);
      }
    }
    return new Claude(process.exitValue(), result, out + Files.readString(dir.resolve("claude.err")));
  }

  private static List<String> requests(CountingProxy proxy) {
    List<String> lines = new ArrayList<>();
    Matcher matcher = REQUEST_LINE.matcher(proxy.sent());
    while (matcher.find()) {
      lines.add(matcher.group(1) + " " + matcher.group(2));
    }
    return lines;
  }

  @Test
  void createsAFileThroughAToolCallWithNoSideRequestAndTheTokenOnlyFromTheHelper() throws Exception {
    int port = daemon(WRITE, finalAnswer("Created hello.txt containing hi."));
    try (CountingProxy proxy = new CountingProxy(port)) {
      Claude run = claude(proxy, "create hello.txt containing hi");

      assertThat(run.exitCode()).as(run.out()).isZero();
      assertThat(fx.workspace.resolve("hello.txt")).hasContent("hi");
      assertThat(run.result().path("result").asText()).isEqualTo("Created hello.txt containing hi.");
      assertThat(run.out()).contains("\"apiKeySource\":\"apiKeyHelper\"");
      // Measured: a -p task is exactly its two turns; no count_tokens, title, model or probe request.
      assertThat(requests(proxy)).containsExactly("POST /v1/messages?beta=true", "POST /v1/messages?beta=true");
      assertThat(proxy.count("\"model\":\"sol-web-medium\"")).isEqualTo(2);
      String token = Files.readString(fx.home.resolve("solwebd.token")).strip();
      assertThat(proxy.count("x-api-key: " + token)).isEqualTo(2);
      try (var files = Files.walk(dir.resolve(".claude"))) {
        for (Path file : java.util.stream.Stream.concat(files.filter(Files::isRegularFile), java.util.stream.Stream.of(
            dir.resolve(".claude.json"))).toList()) {
          assertThat(Files.readString(file)).as("Claude Code wrote the token into " + file).doesNotContain(token);
        }
      }
    }
    JsonNode health = fx.health();
    assertThat(health.get("conversations").asInt()).isEqualTo(1);
    assertThat(SwFixture.browserSends(health)).isEqualTo(2);
  }

  @Test
  void aResumedSessionTypesOnlyTheNewPromptIntoTheSameConversation() throws Exception {
    int port = daemon(WRITE, finalAnswer("Created hello.txt containing hi."), finalAnswer("It holds hi."));
    try (CountingProxy proxy = new CountingProxy(port)) {
      Claude first = claude(proxy, "create hello.txt containing hi", "--session-id", SESSION);
      assertThat(first.exitCode()).as(first.out()).isZero();

      Claude resumed = claude(proxy, "what does hello.txt hold?", "--resume", SESSION);

      assertThat(resumed.exitCode()).as(resumed.out()).isZero();
      assertThat(resumed.result().path("result").asText()).isEqualTo("It holds hi.");
      assertThat(resumed.result().path("session_id").asText()).isEqualTo(SESSION);
      assertThat(requests(proxy)).hasSize(3);
    }
    JsonNode health = fx.health();
    assertThat(health.get("conversations").asInt()).as("the resumed history continued the conversation").isEqualTo(1);
    assertThat(SwFixture.browserSends(health)).isEqualTo(3);
  }

  @Test
  void aCapEndsTheRunCleanlyWithNoRetryIntoIt() throws Exception {
    int port = daemon("{\"fault\": \"cap\", \"resume_in_s\": 3600}");
    try (CountingProxy proxy = new CountingProxy(port)) {
      Claude run = claude(proxy, "create hello.txt containing hi");

      assertThat(run.exitCode()).as(run.out()).isEqualTo(1);
      assertThat(run.result().path("is_error").asBoolean()).isTrue();
      assertThat(run.result().path("api_error_status").asInt()).isEqualTo(429);
      assertThat(run.result().path("result").asText()).contains("capped: ", "resume_at=");
      assertThat(run.out()).doesNotContain("\"subtype\":\"api_retry\"");
      // The stream learns of the cap after commit (an error event); Claude Code asks once more
      // without streaming and gets the 429 before any page turn. Never a retry of the 429.
      assertThat(requests(proxy)).hasSizeBetween(1, 2);
      assertThat(proxy.count("X-Stainless-Retry-Count: 0")).isEqualTo(requests(proxy).size());
    }
    assertThat(SwFixture.browserSends(fx.health())).isLessThanOrEqualTo(1);
    assertThat(fx.workspace.resolve("hello.txt")).doesNotExist();
  }
}

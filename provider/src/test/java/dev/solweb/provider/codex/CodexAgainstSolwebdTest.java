package dev.solweb.provider.codex;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.solweb.provider.pi.SolDaemon;
import dev.solweb.provider.scenario.ScenarioPlayer;
import dev.solweb.provider.sw.CountingProxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real Codex CLI 0.171.0 through {@code POST /v1/responses} on the scripted seat: the tool
 * loop, a cap, session identity. Requests are counted on the wire by a loopback proxy. The token
 * reaches Codex through {@code solwebctl token} only.
 */
class CodexAgainstSolwebdTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String REQUEST = "POST /v1/responses ";
  private static final String TOOL_LOOP = """
      {"default": [
        {"blocks": ["{\\"tool\\": \\"exec_command\\", \\"arguments\\": {\\"cmd\\": \\"echo hi > hello.txt; env > env.txt\\"}}"]},
        {"blocks": ["{\\"tool\\": \\"final\\", \\"text\\": \\"hello.txt holds hi\\"}"]},
        {"blocks": ["{\\"tool\\": \\"final\\", \\"text\\": \\"resumed in the same conversation\\"}"]}
      ]}
      """;

  @TempDir Path dir;

  @Test
  void codexRunsAToolFeedsItsOutputBackAndFinishes() throws Exception {
    try (SolDaemon daemon = new SolDaemon(dir.resolve("sol"), TOOL_LOOP, 1);
        CountingProxy proxy = new CountingProxy(daemon.port)) {
      CodexCli codex = new CodexCli(dir.resolve("codex"), proxy.port(), dir.resolve("sol"));

      CodexCli.Run run = codex.exec("create hello.txt containing hi", false);

      assertThat(run.exitCode()).as(run.all()).isZero();
      assertThat(codex.workspace.resolve("hello.txt")).hasContent("hi");
      assertThat(Files.readString(codex.workspace.resolve("env.txt"))).as("the tool's environment")
          .contains("PATH=").doesNotContain(SolDaemon.TOKEN);
      assertThat(run.stdout()).contains("hello.txt holds hi");
      assertThat(proxy.count(REQUEST)).isEqualTo(2);
      List<ScenarioPlayer.Send> sends = daemon.player.sends();
      assertThat(sends).hasSize(2);
      assertThat(sends.get(0).text()).contains("## exec_command", "create hello.txt containing hi")
          .doesNotContain("## web_search");
      assertThat(sends.get(1).text()).startsWith("TOOL RESULT [call_1_");
      assertThat(sends.get(1).conversationId()).isEqualTo(sends.get(0).conversationId());
      assertThat(proxy.sent()).contains("session-id: ").contains("\"store\":false");
    }
  }

  /**
   * Codex drops a stream that is silent for {@code stream_idle_timeout_ms}; solwebd's keepalive
   * events keep a 3 s turn alive under a 1 s idle timeout. The control (keep-alives off) must fail
   * the same way the measurement did: idle timeouts, then exit 1.
   */
  @Test
  void keepaliveEventsCarryASlowTurnPastCodexsIdleTimeoutAndSilenceDoesNot() throws Exception {
    String slow = TOOL_LOOP.replaceFirst("\\]\\},", "], \"delay_ms\": 3000},");
    assertThat(slow).contains("\"delay_ms\": 3000");
    String idle = "stream_idle_timeout_ms = 1000\n";
    try (SolDaemon daemon = new SolDaemon(dir.resolve("sol"), slow, 1, Duration.ofMillis(250))) {
      CodexCli.Run run = new CodexCli(dir.resolve("codex"), daemon.port, dir.resolve("sol"), idle)
          .exec("create hello.txt containing hi", false);

      assertThat(run.exitCode()).as(run.all()).isZero();
      assertThat(run.stdout()).contains("hello.txt holds hi");
    }
    try (SolDaemon silent = new SolDaemon(dir.resolve("sol-silent"), slow, 1, Duration.ZERO)) {
      CodexCli.Run run = new CodexCli(dir.resolve("codex-silent"), silent.port, dir.resolve("sol-silent"), idle)
          .exec("create hello.txt containing hi", false);

      assertThat(run.exitCode()).isEqualTo(1);
      assertThat(run.stderr()).contains("idle timeout waiting for SSE");
    }
  }

  @Test
  void twoSessionsWithTheSamePromptGetTwoConversationsAndResumeKeepsItsOwn() throws Exception {
    try (SolDaemon daemon = new SolDaemon(dir.resolve("sol"), TOOL_LOOP, 1)) {
      CodexCli first = new CodexCli(dir.resolve("a"), daemon.port, dir.resolve("sol"));
      CodexCli second = new CodexCli(dir.resolve("b"), daemon.port, dir.resolve("sol"));

      assertThat(first.exec("create hello.txt containing hi", false).exitCode()).isZero();
      assertThat(second.exec("create hello.txt containing hi", false).exitCode()).isZero();
      CodexCli.Run resumed = first.exec("and now?", true);

      assertThat(resumed.exitCode()).as(resumed.all()).isZero();
      assertThat(resumed.stdout()).contains("resumed in the same conversation");
      JsonNode health = JSON.readTree(daemon.health());
      assertThat(health.path("conversations").asInt()).isEqualTo(2);
      List<ScenarioPlayer.Send> sends = daemon.player.sends();
      assertThat(sends).hasSize(5);
      assertThat(sends.stream().map(ScenarioPlayer.Send::conversationId).distinct()).hasSize(2);
      // The resumed turn is typed into the first session's conversation as a delta, not a replay.
      assertThat(sends.get(4).conversationId()).isEqualTo(sends.get(0).conversationId());
      assertThat(sends.get(4).text()).startsWith("USER\n").contains("and now?").doesNotContain("PROTOCOL");
    }
  }

  @Test
  void aCapCostsOneRequestAndCodexShowsTheTypedFailureThenTheKnownCapStopsItAtOnce() throws Exception {
    String resumeAt = Instant.now().plusSeconds(3600).toString();
    String scenario = "{\"default\": [{\"fault\": \"cap\", \"resume_at\": \"" + resumeAt + "\"}]}";
    try (SolDaemon daemon = new SolDaemon(dir.resolve("sol"), scenario, 1);
        CountingProxy proxy = new CountingProxy(daemon.port)) {
      CodexCli codex = new CodexCli(dir.resolve("codex"), proxy.port(), dir.resolve("sol"));

      CodexCli.Run capped = codex.exec("create hello.txt containing hi", false);

      assertThat(capped.exitCode()).isEqualTo(1);
      assertThat(capped.stderr()).contains("capped: ").contains("resume_at=" + resumeAt);
      assertThat(proxy.count(REQUEST)).isEqualTo(1);

      // Now the cap is known: the request is refused before any stream, as a 429 Codex reads as
      // its usage limit.
      CodexCli.Run again = codex.exec("create hello.txt containing hi", false);

      assertThat(again.exitCode()).isEqualTo(1);
      assertThat(again.stderr()).contains("usage limit");
      assertThat(proxy.count(REQUEST)).isEqualTo(2);
      assertThat(daemon.player.sends()).hasSize(1);
      assertThat(Files.exists(codex.workspace.resolve("hello.txt"))).isFalse();
    }
  }
}

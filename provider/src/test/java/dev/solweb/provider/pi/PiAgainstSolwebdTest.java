package dev.solweb.provider.pi;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import dev.solweb.provider.scenario.ScenarioPlayer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real Pi 0.73.1 with the repo's models.json against the real solwebd surface (ScriptedSeat),
 * loopback only. A recording WireMock proxy sits in front of solwebd where a test asserts on the
 * exact requests Pi sent (count, headers); everything "the browser" saw comes from the player.
 */
class PiAgainstSolwebdTest {

  static final String WRITE_THEN_FINAL = """
      {"account": "owner@solweb.invalid", "default": [
        {"blocks": ["{\\"tool\\": \\"write\\", \\"arguments\\": {\\"path\\": \\"hello.txt\\", \\"content\\": \\"hi\\\\n\\"}}"]},
        {"blocks": ["{\\"tool\\": \\"final\\", \\"text\\": \\"Created hello.txt.\\"}"]}
      ]}
      """;
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;
  private SolDaemon daemon;
  private WireMockServer proxy;

  @AfterEach
  void tearDown() {
    if (proxy != null) {
      proxy.stop();
    }
    if (daemon != null) {
      daemon.close();
    }
  }

  @Test
  void unsetSessionVariableIsRefusedWith400AndExactlyOneRequest() throws Exception {
    startBehindProxy(WRITE_THEN_FINAL, 1);
    Pi pi = new Pi(dir.resolve("pi")).providerOn(proxy.port(), dir.resolve("solwebd"));

    Pi.Result result = pi.run("--model", "gpt/sol-web-high", "--no-session", "-p", "Create hello.txt");

    assertThat(result.exitCode()).as("-p exits 1 on a failed run").isEqualTo(1);
    assertThat(result.err()).contains("400");
    List<ServeEvent> requests = proxy.getAllServeEvents();
    assertThat(requests).as("one failure is exactly one request (retries off)").hasSize(1);
    ServeEvent only = requests.get(0);
    assertThat(only.getRequest().getHeader("X-Overdeck-Client-Session"))
        .as("Pi sends an unset variable's NAME literally (PI-FACTS 1)").isEqualTo("OVERDECK_PI_CLIENT_SESSION");
    assertThat(only.getResponse().getStatus()).isEqualTo(400);
    assertThat(only.getResponse().getBodyAsString()).contains("invalid_client_session");
    assertThat(daemon.player.sends()).as("nothing reached the browser").isEmpty();
    assertThat(pi.workspace.resolve("hello.txt")).doesNotExist();
  }

  @Test
  void aRefusedTokenStopsPiBeforeAnyRequest() throws Exception {
    startBehindProxy(WRITE_THEN_FINAL, 1);
    Pi pi = new Pi(dir.resolve("pi")).providerOn(proxy.port(), dir.resolve("solwebd"));
    pi.env.put("OVERDECK_PI_CLIENT_SESSION", clientSession("factory-session-A"));
    Files.setPosixFilePermissions(dir.resolve("solwebd/solwebd.token"),
        PosixFilePermissions.fromString("rw-r--r--"));

    Pi.Result result = pi.run("--model", "gpt/sol-web-high", "--no-session", "-p", "Create hello.txt");

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.err()).contains("Failed to resolve API key for provider \"gpt\" from shell command: solwebctl token");
    assertThat(proxy.getAllServeEvents()).isEmpty();
  }

  @Test
  void toolCallAndFinalAnswerSendTheDerivedHeaderAndTheBearerToken() throws Exception {
    startBehindProxy(WRITE_THEN_FINAL, 1);
    Pi pi = new Pi(dir.resolve("pi")).providerOn(proxy.port(), dir.resolve("solwebd"));
    String session = clientSession("factory-session-A");
    pi.env.put("OVERDECK_PI_CLIENT_SESSION", session);

    Pi.Result result = pi.run("--model", "gpt/sol-web-high", "--no-session", "--mode", "json", "-p", "Create hello.txt");

    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(pi.workspace.resolve("hello.txt")).hasContent("hi");
    List<JsonNode> events = events(result);
    assertThat(events).anySatisfy(e -> {
      assertThat(e.path("type").asText()).isEqualTo("tool_execution_end");
      assertThat(e.path("toolName").asText()).isEqualTo("write");
      assertThat(e.path("isError").asBoolean()).isFalse();
    });
    assertThat(result.out()).contains("Created hello.txt.");

    List<ServeEvent> requests = inOrder(proxy.getAllServeEvents());
    assertThat(requests).hasSize(2);
    for (ServeEvent request : requests) {
      assertThat(request.getRequest().getUrl()).isEqualTo("/v1/chat/completions");
      assertThat(request.getRequest().getHeader("Authorization")).isEqualTo("Bearer " + SolDaemon.TOKEN);
      assertThat(request.getRequest().getHeader("X-Overdeck-Client-Session")).isEqualTo(session);
      assertThat(request.getResponse().getStatus()).isEqualTo(200);
      assertThat(JSON.readTree(request.getRequest().getBodyAsString()).path("model").asText()).isEqualTo("sol-web-high");
    }
    List<ScenarioPlayer.Send> sends = daemon.player.sends();
    assertThat(sends).hasSize(2);
    assertThat(sends.get(1).conversationId()).as("the tool result continues the conversation")
        .isEqualTo(sends.get(0).conversationId());
    assertThat(sends.get(0).text()).contains("Create hello.txt").doesNotContain(SolDaemon.TOKEN);
    assertThat(sends.get(1).text()).startsWith("TOOL RESULT [").contains("Successfully wrote");
  }

  @Test
  void twoConcurrentRunsWithIdenticalPromptsOpenTwoConversations() throws Exception {
    daemon = new SolDaemon(dir.resolve("solwebd"),
        "{\"default\": [{\"prose\": \"The answer is 4.\", \"delay_ms\": 700}]}", 2);
    List<Process> runs = new ArrayList<>();
    Path workspace = Files.createDirectories(dir.resolve("shared-workspace"));
    for (String factorySession : List.of("factory-session-A", "factory-session-B")) {
      Pi pi = new Pi(dir.resolve("pi-" + factorySession)).providerOn(daemon.port, dir.resolve("solwebd"))
          .inWorkspace(workspace);
      pi.env.put("OVERDECK_PI_CLIENT_SESSION", clientSession(factorySession));
      runs.add(pi.start(List.of("--model", "gpt/sol-web-medium", "--no-session", "-p", "What is 2+2?"), false));
    }
    for (Process run : runs) {
      Pi.Result result = Pi.finish(run, 120);
      assertThat(result.exitCode()).as(result.err()).isZero();
      assertThat(result.out()).contains("The answer is 4.");
    }
    List<ScenarioPlayer.Send> sends = daemon.player.sends();
    assertThat(sends).hasSize(2);
    assertThat(sends.get(0).text()).as("byte-identical prompts").isEqualTo(sends.get(1).text());
    assertThat(sends.get(0).conversationId()).isNotEqualTo(sends.get(1).conversationId());
    assertThat(daemon.player.conversationsOpened()).isEqualTo(2);
  }

  @Test
  void theTokenNeverReachesAToolsEnvironmentOrThePage() throws Exception {
    String scenario = """
        {"default": [
          {"blocks": ["{\\"tool\\": \\"bash\\", \\"arguments\\": {\\"command\\": \\"env; ps -eo args\\"}}"]},
          {"blocks": ["{\\"tool\\": \\"final\\", \\"text\\": \\"listed\\"}"]}
        ]}
        """;
    daemon = new SolDaemon(dir.resolve("solwebd"), scenario, 1);
    Pi pi = new Pi(dir.resolve("pi")).providerOn(daemon.port, dir.resolve("solwebd"));
    String session = clientSession("factory-session-env");
    pi.env.put("OVERDECK_PI_CLIENT_SESSION", session);

    Pi.Result result = pi.run("--model", "gpt/sol-web-pro", "--no-session", "-p", "List the environment");

    assertThat(result.exitCode()).as(result.err()).isZero();
    List<ScenarioPlayer.Send> sends = daemon.player.sends();
    assertThat(sends).hasSize(2);
    String toolResult = sends.get(1).text();
    assertThat(toolResult).as("the bash tool ran").contains("PI_CODING_AGENT_DIR=" + pi.agentDir);
    assertThat(toolResult).as("the derived session is not a secret and is inherited")
        .contains("OVERDECK_PI_CLIENT_SESSION=" + session);
    for (ScenarioPlayer.Send send : sends) {
      assertThat(send.text()).doesNotContain(SolDaemon.TOKEN);
    }
    assertThat(result.out() + result.err()).doesNotContain(SolDaemon.TOKEN);
  }

  private void startBehindProxy(String scenario, int seats) throws Exception {
    daemon = new SolDaemon(dir.resolve("solwebd"), scenario, seats);
    proxy = new WireMockServer(options().dynamicPort().bindAddress("127.0.0.1"));
    proxy.start();
    proxy.stubFor(any(anyUrl()).willReturn(aResponse().proxiedFrom("http://127.0.0.1:" + daemon.port)));
  }

  /** What factory-plugin derives: v1. + unpadded base64url of a SHA-256 (43 characters). */
  static String clientSession(String factorySession) throws Exception {
    byte[] digest = MessageDigest.getInstance("SHA-256").digest(factorySession.getBytes(StandardCharsets.UTF_8));
    return "v1." + Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
  }

  private static List<JsonNode> events(Pi.Result result) throws Exception {
    List<JsonNode> events = new ArrayList<>();
    for (String line : result.lines()) {
      if (line.startsWith("{")) {
        events.add(JSON.readTree(line));
      }
    }
    return events;
  }

  private static List<ServeEvent> inOrder(List<ServeEvent> events) {
    List<ServeEvent> sorted = new ArrayList<>(events);
    sorted.sort(Comparator.comparing(e -> e.getRequest().getLoggedDate()));
    return sorted;
  }
}

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
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Context occupancy with the real Pi: one Pi session sends a 40 KB prompt, then a second prompt
 * sized from the daemon's reported occupancy to land exactly on the 120000 window (accepted) or
 * one byte over it (rejected with context_overflow; Pi compacts and its retry reaches a fresh
 * browser conversation, same client session).
 */
class PiContextBudgetTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SCENARIO =
      "{\"default\": [{\"prose\": \"ok\"}, {\"prose\": \"ok\"}, {\"prose\": \"ok\"}, {\"prose\": \"ok\"}]}";
  private static final Duration TURN = Duration.ofSeconds(60);

  @TempDir Path dir;
  private SolDaemon daemon;
  private WireMockServer proxy;
  private PiRpc rpc;
  private String session;

  @BeforeEach
  void setUp() throws Exception {
    daemon = new SolDaemon(dir.resolve("solwebd"), SCENARIO, 1);
    proxy = new WireMockServer(options().dynamicPort().bindAddress("127.0.0.1"));
    proxy.start();
    proxy.stubFor(any(anyUrl()).willReturn(aResponse().proxiedFrom("http://127.0.0.1:" + daemon.port)));
    Pi pi = new Pi(dir.resolve("pi")).providerOn(proxy.port(), dir.resolve("solwebd"));
    session = PiAgainstSolwebdTest.clientSession("factory-session-budget");
    pi.env.put("OVERDECK_PI_CLIENT_SESSION", session);
    rpc = new PiRpc(pi, "gpt/sol-web-high");
  }

  @AfterEach
  void tearDown() {
    rpc.close();
    proxy.stop();
    daemon.close();
  }

  @Test
  void secondPromptThatExactlyFillsTheWindowIsAccepted() throws Exception {
    long boundary = firstTurnThenBoundary();
    String second = text("SECOND", boundary);
    int mark = rpc.prompt(second);
    JsonNode end = rpc.await(mark, PiRpc.type("agent_end"), 1, TURN);

    assertThat(lastAssistantError(end)).isEmpty();
    List<ScenarioPlayer.Send> sends = daemon.player.sends();
    assertThat(sends.get(1).text()).isEqualTo("USER\n" + second);
    assertThat(sends.get(1).conversationId()).isEqualTo(sends.get(0).conversationId());
    JsonNode occupancy = occupancy().stream()
        .filter(o -> o.path("estimated_input").asLong() > 100_000).findFirst().orElseThrow();
    // The budget counts output accumulated before this send; this answer's "ok" came after it.
    assertThat(occupancy.path("estimated_input").asLong() + occupancy.path("estimated_output").asLong()
        - "ok".length() + 16_000).isEqualTo(120_000);
    assertThat(inStreamErrors()).isEmpty();

    // usage.prompt_tokens now exceeds Pi's own threshold (120000 - 16384), so Pi compacts by
    // itself after the turn: a summary request in a conversation of its own, no retry.
    JsonNode start = rpc.await(mark, PiRpc.type("compaction_start"), 1, TURN);
    assertThat(start.path("reason").asText()).isEqualTo("threshold");
    rpc.await(mark, PiRpc.type("compaction_end"), 1, TURN);
    sends = daemon.player.sends();
    assertThat(sends).hasSize(3);
    assertThat(sends.get(2).text()).contains("summar");
    assertThat(sends.get(2).conversationId()).isNotEqualTo(sends.get(0).conversationId());
  }

  @Test
  void oneByteOverTheWindowIsRejectedAndPiCompactsIntoAFreshConversation() throws Exception {
    long boundary = firstTurnThenBoundary();
    JsonNode before = occupancy().get(0);
    String second = text("SECOND", boundary + 1);
    int mark = rpc.prompt(second);
    assertThat(rpc.await(mark, PiRpc.type("compaction_start"), 1, TURN).path("reason").asText()).isEqualTo("overflow");
    JsonNode compacted = rpc.await(mark, PiRpc.type("compaction_end"), 1, TURN);
    assertThat(compacted.path("willRetry").asBoolean()).as(compacted.toString()).isTrue();
    JsonNode end = rpc.await(mark, PiRpc.type("agent_end"), 2, TURN);
    assertThat(lastAssistantError(end)).isEmpty();

    // The stream had started (keepalives), so the rejection travels in-stream: one error event.
    List<JsonNode> errors = inStreamErrors();
    assertThat(errors).hasSize(1);
    JsonNode error = errors.get(0);
    assertThat(error.path("type").asText()).isEqualTo("context_overflow");
    long expectedInput = before.path("estimated_input").asLong() + ("USER\n" + second).length() + 16;
    assertThat(error.path("message").asText()).contains("estimated input " + expectedInput + " + output "
        + before.path("estimated_output").asLong() + " + reserved 16000 = 120001 tokens exceeds the context window");
    assertThat(proxy.getAllServeEvents()).allSatisfy(e ->
        assertThat(e.getRequest().getHeader("X-Overdeck-Client-Session")).isEqualTo(session));

    List<ScenarioPlayer.Send> sends = daemon.player.sends();
    assertThat(sends).as("prompt 1, the summary request, the retry; the rejected send never reached the page")
        .hasSize(3);
    assertThat(sends.get(1).text()).contains("summar");
    ScenarioPlayer.Send retry = sends.get(2);
    assertThat(retry.text()).contains(second);
    assertThat(retry.conversationId()).isNotEqualTo(sends.get(0).conversationId())
        .isNotEqualTo(sends.get(1).conversationId());
    assertThat(daemon.player.conversationsOpened()).isEqualTo(3);
  }

  /** Runs prompt 1 and returns the size of a second prompt that makes input + output + 16000 = 120000. */
  private long firstTurnThenBoundary() throws Exception {
    int mark = rpc.prompt(text("FIRST", 12_000));
    JsonNode end = rpc.await(mark, PiRpc.type("agent_end"), 1, TURN);
    assertThat(lastAssistantError(end)).isEmpty();
    List<JsonNode> occupancy = occupancy();
    assertThat(occupancy).hasSize(1);
    long input = occupancy.get(0).path("estimated_input").asLong();
    long output = occupancy.get(0).path("estimated_output").asLong();
    assertThat(output).isEqualTo("ok".length());
    // The delta typed for one more user message is "USER\n" + text, plus 16 for the message.
    return 120_000 - 16_000 - input - output - 16 - "USER\n".length();
  }

  /** The {@code error} objects of every SSE error event solwebd sent back through the proxy. */
  private List<JsonNode> inStreamErrors() throws Exception {
    List<JsonNode> errors = new java.util.ArrayList<>();
    for (ServeEvent event : proxy.getAllServeEvents()) {
      for (String line : event.getResponse().getBodyAsString().split("\n")) {
        if (line.startsWith("data: {\"error\"")) {
          errors.add(JSON.readTree(line.substring("data: ".length())).path("error"));
        }
      }
    }
    return errors;
  }

  private List<JsonNode> occupancy() throws Exception {
    JsonNode health = JSON.readTree(daemon.health());
    return health.path("occupancy").findParents("estimated_input");
  }

  private static String lastAssistantError(JsonNode agentEnd) {
    JsonNode messages = agentEnd.path("messages");
    JsonNode last = messages.get(messages.size() - 1);
    return last.path("errorMessage").asText("");
  }

  /** ASCII text of exactly {@code bytes} bytes, starting with a marker. */
  private static String text(String marker, long bytes) {
    StringBuilder text = new StringBuilder(marker).append(' ');
    while (text.length() < bytes) {
      text.append("lorem ipsum dolor sit amet ");
    }
    text.setLength((int) bytes);
    return text.toString();
  }
}

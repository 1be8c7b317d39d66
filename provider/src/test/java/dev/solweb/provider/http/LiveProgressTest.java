package dev.solweb.provider.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.solweb.provider.TestClock;
import dev.solweb.provider.ctl.LiveTurns;
import dev.solweb.provider.dispatch.LiveTurn;
import dev.solweb.provider.scenario.Scenario;
import dev.solweb.provider.scenario.ScenarioPlayer;
import dev.solweb.provider.seat.TurnProgress.Stage;
import dev.solweb.provider.translate.SessionKey;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code /healthz} {@code turns} while turns run: a ScriptedSeat reports its script's stages, a
 * gate holds it at each one, and the test's own clock decides every elapsed and thinking second.
 */
class LiveProgressTest {
  private static final String CLIENT = "v1." + "q".repeat(43);
  private static final String PROMPT = "compute the secret number";
  private static final String PROSE = "The answer is forty-two.";
  private static final String BLOCK = "{\"tool\": \"final\", \"text\": \"forty-two\"}";
  private static final String SCENARIO = "{\"conversations\": [{\"match\": \"" + PROMPT.replace("\"", "") + "\", \"replies\": ["
      + "{\"prose\": \"" + PROSE + "\", \"blocks\": [" + TestDaemon.JSON.valueToTree(BLOCK) + "], \"thinking_ms\": 1}]}],"
      + " \"default\": [{\"prose\": \"other answer\"}]}";

  private final TestClock clock = new TestClock();
  private final ProgressGate gate = new ProgressGate();

  @Test
  void eachStateAppearsInOrderWithTheClocksSecondsAndTheTurnLeavesWhenAnswered() throws Exception {
    TestDaemon.Options options = TestDaemon.Options.defaults().seatWrapper(gate::wrap);
    try (TestDaemon daemon = new TestDaemon(new ScenarioPlayer(Scenario.parse(SCENARIO)), options, clock)) {
      CompletableFuture<HttpResponse<String>> first = postAsync(daemon,
          Requests.chat("sol-web-high").user(PROMPT).json(), Map.of(ChatRequest.CLIENT_SESSION_HEADER, CLIENT));
      assertThat(gate.next()).isEqualTo(Stage.TYPING);
      CompletableFuture<HttpResponse<String>> second = postAsync(daemon,
          Requests.chat("sol-web-medium").user("another task").json(), Map.of());
      JsonNode turns = awaitTurns(daemon, 2);
      JsonNode mine = turns.get(0);
      assertThat(mine.path("client").asText()).isEqualTo(SessionKey.clientTag(CLIENT));
      assertThat(mine.path("session").asText()).matches("[0-9a-f]{16}");
      assertTurn(mine, "high", "typing", 0.0, 0.0, 0);
      assertThat(turns.get(1).path("client").isNull()).as("no header, no client tag").isTrue();
      assertTurn(turns.get(1), "medium", "queued", 0.0, 0.0, 0);

      clock.advance(Duration.ofSeconds(2));
      gate.release();
      assertThat(gate.next()).isEqualTo(Stage.SENT);
      assertTurn(own(daemon), "high", "sent", 2.0, 0.0, 0);

      clock.advance(Duration.ofSeconds(3));
      gate.release();
      assertThat(gate.next()).isEqualTo(Stage.THINKING);
      assertTurn(own(daemon), "high", "thinking", 5.0, 0.0, 0);
      clock.advance(Duration.ofMillis(4500));
      assertTurn(own(daemon), "high", "thinking", 9.5, 4.5, 0);

      clock.advance(Duration.ofMillis(2500));
      gate.release();
      int chars = PROSE.length() + BLOCK.length();
      assertThat(gate.next()).isEqualTo(Stage.WRITING);
      assertTurn(own(daemon), "high", "writing", 12.0, 7.0, chars);
      assertThat(LiveTurns.fetch(daemon.port, TestDaemon.TOKEN).flatMap(h -> LiveTurns.ofClient(h, CLIENT))
          .map(LiveTurn.View::line)).hasValue("gpt: thinking 7 s, writing " + chars + " chars (elapsed 12 s)");

      clock.advance(Duration.ofSeconds(1));
      gate.release();
      assertThat(gate.next()).isEqualTo(Stage.COMPLETE);
      assertTurn(own(daemon), "high", "complete", 13.0, 7.0, chars);
      assertThat(daemon.get("/healthz").body()).as("nothing of the prompt, the answer or the header")
          .doesNotContain(PROMPT).doesNotContain("forty-two").doesNotContain(CLIENT);

      gate.release();
      assertThat(first.get(20, TimeUnit.SECONDS).body()).contains("forty-two");
      // The queued turn now runs: it waited from the same instant, so its elapsed counts the queue.
      assertThat(gate.next()).isEqualTo(Stage.TYPING);
      turns = health(daemon).path("turns");
      assertThat(turns).as("the answered turn is gone").hasSize(1);
      assertTurn(turns.get(0), "medium", "typing", 13.0, 0.0, 0);
      for (Stage expected : new Stage[] {Stage.SENT, Stage.WRITING, Stage.COMPLETE}) {
        gate.release();
        assertThat(gate.next()).isEqualTo(expected);
      }
      gate.release();
      assertThat(second.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
      assertThat(health(daemon).path("turns")).isEmpty();
      assertThat(gate.waiting()).isZero();
    }
  }

  private static void assertTurn(JsonNode turn, String effort, String state, double elapsed, double thinking, int chars) {
    assertThat(turn.path("state").asText()).as("state of " + turn).isEqualTo(state);
    assertThat(turn.path("effort").asText()).isEqualTo(effort);
    assertThat(turn.path("elapsed_s").asDouble()).as("elapsed_s of " + turn).isEqualTo(elapsed);
    assertThat(turn.path("thinking_s").asDouble()).as("thinking_s of " + turn).isEqualTo(thinking);
    assertThat(turn.path("chars_received").asInt()).as("chars_received of " + turn).isEqualTo(chars);
    assertThat(turn.size()).as("exactly the documented fields: " + turn).isEqualTo(7);
  }

  private static JsonNode own(TestDaemon daemon) throws Exception {
    for (JsonNode turn : health(daemon).path("turns")) {
      if (SessionKey.clientTag(CLIENT).equals(turn.path("client").asText(null))) {
        return turn;
      }
    }
    throw new AssertionError("no turn of the client session in /healthz");
  }

  private static JsonNode health(TestDaemon daemon) throws Exception {
    HttpResponse<String> response = daemon.get("/healthz");
    assertThat(response.statusCode()).isEqualTo(200);
    return TestDaemon.json(response.body());
  }

  /** Reads /healthz until it lists {@code n} turns (the second request reaches the queue on the event loop). */
  private static JsonNode awaitTurns(TestDaemon daemon, int n) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (true) {
      JsonNode turns = health(daemon).path("turns");
      if (turns.size() == n || System.nanoTime() > deadline) {
        assertThat(turns).hasSize(n);
        return turns;
      }
      Thread.onSpinWait();
    }
  }

  private static CompletableFuture<HttpResponse<String>> postAsync(TestDaemon daemon, String body, Map<String, String> headers) {
    HttpRequest.Builder builder = daemon.request("/v1/chat/completions").POST(HttpRequest.BodyPublishers.ofString(body));
    headers.forEach(builder::header);
    return daemon.http.sendAsync(builder.build(), HttpResponse.BodyHandlers.ofString());
  }
}

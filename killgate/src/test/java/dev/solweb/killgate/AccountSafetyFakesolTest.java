package dev.solweb.killgate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.killgate.FakesolDaemons.Running;
import dev.solweb.killgate.fakesol.FakeSol;
import dev.solweb.provider.scenario.Scenario;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The owner's account on a real daemon ({@code solwebd --seat playwright --headless}) driving
 * fakesol's page: the page's own counters (REAL-PAGE row 50) read from each turn's stream onto
 * {@code /healthz}, counting down; two turns queued back to back Sent at least the Send gap apart
 * (as fakesol's server saw the turn requests); an answer from a smaller model at the cap (row 51)
 * failed {@code capped}, not answered.
 */
class AccountSafetyFakesolTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ACCOUNT = "owner@example.invalid";
  private static final String SCENARIO = """
      {"account": "owner@example.invalid",
       "conversations": [
        {"match": "at the cap", "replies": [{"fault": "smaller_model", "resume_in_s": 600,
           "blocks": ["{\\"tool\\": \\"final\\", \\"text\\": \\"from the smaller model\\"}"]}]}
       ],
       "default": [
        {"blocks": ["{\\"tool\\": \\"final\\", \\"text\\": \\"done\\"}"]},
        {"blocks": ["{\\"tool\\": \\"final\\", \\"text\\": \\"done again\\"}"]}
      ]}
      """;

  @TempDir Path home;
  private FakeSol sol;
  private FakesolDaemons daemons;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @BeforeEach
  void startFakesol() {
    sol = FakeSol.start(Scenario.parse(SCENARIO), 0);
    daemons = new FakesolDaemons(home, sol.url());
  }

  @AfterEach
  void stopAll() throws Exception {
    daemons.close();
    sol.close();
  }

  private static ObjectNode request(String text) {
    ObjectNode body = JSON.createObjectNode().put("model", "sol-web-high");
    body.putArray("messages").addObject().put("role", "user").put("content", text);
    body.putArray("tools").addObject().put("type", "function").putObject("function").put("name", "write")
        .putObject("parameters").put("type", "object");
    return body;
  }

  private JsonNode control() throws Exception {
    return JSON.readTree(http.send(HttpRequest.newBuilder(sol.url().resolve("/control")).GET().build(),
        HttpResponse.BodyHandlers.ofString()).body());
  }

  private JsonNode limits(Running daemon) throws Exception {
    return JSON.readTree(daemons.get(daemon, "/healthz").body()).path("limits");
  }

  @Test
  void thePagesCountersReachHealthzAndCountDownAndTwoQueuedTurnsAreSentTheGapApart() throws Exception {
    Running daemon = daemons.start(ACCOUNT, Map.of("SOLWEBD_SEND_GAP_MS", "12000", "SOLWEBD_BUDGET", "high=20/3h"));
    assertThat(limits(daemon).path("limits_progress")).as("nothing read before a turn").isEmpty();

    daemons.chat(daemon, "v1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", request("first task"));
    JsonNode first = limits(daemon);
    assertThat(first.path("plan").asText()).isEqualTo("plus");
    assertThat(first.path("limits_progress").findValuesAsText("feature_name")).containsExactly("deep_research", "file_upload");
    assertThat(first.path("limits_progress").get(0).path("remaining").asInt()).isEqualTo(25);
    assertThat(first.path("limits_progress").get(0).path("reset_after").asText()).isEqualTo("2026-12-31T00:00:00+00:00");
    assertThat(first.path("model_limits").get(0).path("model_slug").asText()).isEqualTo("gpt-5-thinking");
    int before = first.path("model_limits").get(0).path("remaining").asInt();

    // Two turns of two clients queued back to back: the second Send waits for the gap.
    CompletableFuture<HttpResponse<String>> a = CompletableFuture.supplyAsync(() -> post(daemon, "v1.BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB", "second task"));
    CompletableFuture<HttpResponse<String>> b = CompletableFuture.supplyAsync(() -> post(daemon, "v1.CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC", "third task"));
    assertThat(a.get().statusCode()).as(a.get().body()).isEqualTo(200);
    assertThat(b.get().statusCode()).as(b.get().body()).isEqualTo(200);

    List<Instant> sent = JSON.readerForListOf(String.class).<List<String>>readValue(control().path("sends_at"))
        .stream().map(Instant::parse).toList();
    assertThat(sent).hasSize(3);
    for (int i = 1; i < sent.size(); i++) {
      Duration gap = Duration.between(sent.get(i - 1), sent.get(i));
      System.out.println("AccountSafetyFakesolTest: Send gap " + i + " = " + gap.toMillis() + " ms (SOLWEBD_SEND_GAP_MS=12000)");
      assertThat(gap).as("Send %d after Send %d", i + 1, i).isGreaterThanOrEqualTo(Duration.ofMillis(12000));
    }
    JsonNode after = limits(daemon);
    System.out.println("AccountSafetyFakesolTest: limits as read: " + after);
    assertThat(after.path("model_limits").get(0).path("remaining").asInt()).as("one message per Send").isEqualTo(before - 2);
    assertThat(after.path("sends").path("3h").path("high").path("gpt-5-thinking").asInt()).isEqualTo(3);
    assertThat(after.path("budget").get(0).path("used").asInt()).isEqualTo(3);
    assertThat(after.path("published").path("allowances").get(0).path("messages").asInt()).isEqualTo(160);
    assertThat(after.path("published").path("source").asText()).contains("not measured");
    assertThat(control().path("history_requests").asInt()).as("no seat asked the history JSON").isZero();
  }

  @Test
  void anAnswerFromASmallerModelAtTheCapFailsCappedAndIsNotAnswered() throws Exception {
    Running daemon = daemons.start(ACCOUNT);

    HttpResponse<String> response = post(daemon, "v1.DDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDD", "at the cap");

    assertThat(response.statusCode()).as(response.body()).isEqualTo(429);
    JsonNode error = JSON.readTree(response.body()).path("error");
    assertThat(error.path("type").asText()).isEqualTo("capped");
    assertThat(error.path("message").asText()).contains("auto:smaller_model:reached_message_cap")
        .doesNotContain("from the smaller model");
    assertThat(sol.sends()).as("sent once, never resent").hasSize(1);
  }

  private HttpResponse<String> post(Running daemon, String session, String text) {
    try {
      return daemons.post(daemon, session, request(text));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}

package dev.solweb.provider.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.scenario.ScenarioPlayer;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code POST /v1/responses} over real HTTP on the scripted seat: the shared turn, the Responses wire. */
class ResponsesRouteTest {
  private static final String TOOL_LOOP = """
      {"default": [
        {"blocks": ["{\\"tool\\": \\"exec_command\\", \\"arguments\\": {\\"cmd\\": \\"echo hi > hello.txt\\"}}"], "delay_ms": 300},
        {"blocks": ["{\\"tool\\": \\"final\\", \\"text\\": \\"hello.txt written\\"}"]}
      ]}
      """;
  private static final Map<String, String> SESSION = Map.of("session-id", "01a23108-634a-7242-9bb3-1700406abb69");

  private static ObjectNode body(boolean stream) {
    ObjectNode body = TestDaemon.JSON.createObjectNode().put("model", "sol-web-high").put("stream", stream)
        .put("store", false).put("instructions", "You are Codex.");
    body.putArray("input").addObject().put("type", "message").put("role", "user").putArray("content").addObject()
        .put("type", "input_text").put("text", "create hello.txt containing hi");
    ArrayNode tools = body.putArray("tools");
    tools.addObject().put("type", "function").put("name", "exec_command").putObject("parameters").put("type", "object");
    tools.addObject().put("type", "web_search");
    return body;
  }

  private static List<JsonNode> events(TestDaemon.Stream stream) {
    return stream.events().stream().filter(e -> !e.data().startsWith("NON-DATA LINE: ")).map(TestDaemon.Event::json).toList();
  }

  @Test
  void aStreamedToolCallThenItsOutputGivesAFinalAnswerTypingOnlyTheDelta() throws Exception {
    try (TestDaemon daemon = new TestDaemon(TOOL_LOOP, TestDaemon.Options.defaults().keepAlive(Duration.ofMillis(100)))) {
      TestDaemon.Stream first = daemon.stream("/v1/responses", body(true).toString(), SESSION);

      assertThat(first.response().statusCode()).isEqualTo(200);
      assertThat(first.response().headers().firstValue("content-type")).contains("text/event-stream");
      List<JsonNode> events = events(first);
      List<String> types = events.stream().map(e -> e.path("type").asText()).toList();
      assertThat(types.subList(0, 2)).containsExactly("response.created", "response.in_progress");
      assertThat(types).contains("keepalive");
      assertThat(types.stream().filter(t -> !t.equals("keepalive")).toList()).containsExactly(
          "response.created", "response.in_progress", "response.output_item.added",
          "response.function_call_arguments.delta", "response.function_call_arguments.done",
          "response.output_item.done", "response.completed");
      JsonNode call = events.stream().filter(e -> e.path("type").asText().equals("response.output_item.done"))
          .findFirst().orElseThrow().path("item");
      assertThat(call.path("name").asText()).isEqualTo("exec_command");

      ObjectNode second = body(true);
      ArrayNode input = (ArrayNode) second.get("input");
      input.addObject().put("type", "function_call").put("call_id", call.path("call_id").asText())
          .put("name", "exec_command").put("arguments", call.path("arguments").asText());
      input.addObject().put("type", "function_call_output").put("call_id", call.path("call_id").asText())
          .put("output", "exit 0");
      List<JsonNode> done = events(daemon.stream("/v1/responses", second.toString(), SESSION));

      JsonNode completed = done.get(done.size() - 1);
      assertThat(completed.path("type").asText()).isEqualTo("response.completed");
      assertThat(completed.path("response").path("output").get(0).path("content").get(0).path("text").asText())
          .isEqualTo("hello.txt written");
      List<ScenarioPlayer.Send> sends = daemon.player.sends();
      assertThat(sends).hasSize(2);
      assertThat(sends.get(0).text()).contains("## exec_command", "You are Codex.").doesNotContain("web_search");
      assertThat(sends.get(1).text()).isEqualTo("TOOL RESULT [" + call.path("call_id").asText() + "]\nexit 0");
      assertThat(sends.get(1).conversationId()).isEqualTo(sends.get(0).conversationId());
    }
  }

  @Test
  void aNonStreamRequestGetsTheResponseObject() throws Exception {
    try (TestDaemon daemon = new TestDaemon(TOOL_LOOP)) {
      HttpResponse<String> response = daemon.post("/v1/responses", body(false).toString(), SESSION);

      assertThat(response.statusCode()).isEqualTo(200);
      JsonNode whole = TestDaemon.json(response.body());
      assertThat(whole.path("object").asText()).isEqualTo("response");
      assertThat(whole.path("status").asText()).isEqualTo("completed");
      assertThat(whole.path("output").get(0).path("type").asText()).isEqualTo("function_call");
      assertThat(whole.path("usage").path("usage_estimated").asBoolean()).isTrue();
    }
  }

  @Test
  void aKnownCapIsA429CodexReadsAsItsUsageLimitWithRetryAfterAndTheTypedFailure() throws Exception {
    String resumeAt = Instant.now().plusSeconds(3600).toString();
    try (TestDaemon daemon = new TestDaemon("{\"default\": [{\"fault\": \"cap\", \"resume_at\": \"" + resumeAt + "\"}]}")) {
      List<JsonNode> streamed = events(daemon.stream("/v1/responses", body(true).toString(), SESSION));
      JsonNode failed = streamed.get(streamed.size() - 1);
      assertThat(failed.path("type").asText()).isEqualTo("response.failed");
      assertThat(failed.path("response").path("error").path("message").asText()).startsWith("capped: ");

      HttpResponse<String> next = daemon.post("/v1/responses", body(true).toString(), SESSION);

      assertThat(next.statusCode()).isEqualTo(429);
      assertThat(next.headers().firstValue("Retry-After").map(Long::parseLong).orElseThrow()).isBetween(3500L, 3600L);
      JsonNode error = TestDaemon.json(next.body()).path("error");
      assertThat(error.path("type").asText()).isEqualTo("usage_limit_reached");
      assertThat(error.path("resets_at").asLong()).isEqualTo(Instant.parse(resumeAt).getEpochSecond());
      assertThat(ProviderFailure.fromJson(error.path("metadata").path("raw").asText()).kind())
          .isEqualTo(ProviderFailure.Kind.CAPPED);
      assertThat(daemon.player.sends()).hasSize(1);
    }
  }

  @Test
  void badInputAndStatefulRequestsAreTypedJson400sAndTheDaemonStaysHealthy() throws Exception {
    try (TestDaemon daemon = new TestDaemon(TOOL_LOOP)) {
      HttpResponse<String> bad = daemon.post("/v1/responses", "{\"model\":\"sol-web-high\",\"input\":[{\"type\":\"nope\"}]}", Map.of());
      HttpResponse<String> stateful = daemon.post("/v1/responses",
          body(true).put("previous_response_id", "resp_1").toString(), Map.of());
      HttpResponse<String> retrieve = daemon.get("/v1/responses/resp_1");

      assertThat(bad.statusCode()).isEqualTo(400);
      assertThat(TestDaemon.json(bad.body()).path("error").path("message").asText()).contains("input[0] has type 'nope'");
      assertThat(stateful.statusCode()).isEqualTo(400);
      assertThat(TestDaemon.json(stateful.body()).path("error").path("type").asText()).isEqualTo("stateful_request_unsupported");
      assertThat(retrieve.statusCode()).isEqualTo(400);
      assertThat(TestDaemon.json(retrieve.body()).path("error").path("type").asText()).isEqualTo("stateful_request_unsupported");
      assertThat(daemon.player.sends()).isEmpty();
      assertThat(daemon.post("/v1/responses", body(false).toString(), SESSION).statusCode()).isEqualTo(200);
    }
  }

  @Test
  void aNonStreamFailureIsItsStatusWithTheTypedFailureAndAnOversizedBodyA413() throws Exception {
    try (TestDaemon daemon = new TestDaemon("{\"state\": \"logged_out\", \"default\": []}",
        TestDaemon.Options.defaults().maxBody(4096))) {
      HttpResponse<String> failed = daemon.post("/v1/responses", body(false).toString(), SESSION);
      HttpResponse<String> tooLarge = daemon.post("/v1/responses",
          body(false).put("instructions", "x".repeat(8192)).toString(), SESSION);

      assertThat(failed.statusCode()).isEqualTo(503);
      JsonNode error = TestDaemon.json(failed.body()).path("error");
      assertThat(error.path("code").asText()).isEqualTo("provider_unavailable");
      assertThat(error.path("message").asText()).startsWith("unavailable: ");
      assertThat(ProviderFailure.fromJson(error.path("metadata").path("raw").asText()).kind())
          .isEqualTo(ProviderFailure.Kind.UNAVAILABLE);
      assertThat(tooLarge.statusCode()).isEqualTo(413);
      assertThat(TestDaemon.json(tooLarge.body()).path("error").path("type").asText()).isEqualTo("request_too_large");
    }
  }

  @Test
  void withoutTheBearerTokenNothingIsParsed() throws Exception {
    try (TestDaemon daemon = new TestDaemon(TOOL_LOOP)) {
      HttpResponse<String> response = daemon.http.send(HttpRequest.newBuilder(daemon.uri("/v1/responses"))
          .POST(HttpRequest.BodyPublishers.ofString(body(false).toString())).build(), HttpResponse.BodyHandlers.ofString());

      assertThat(response.statusCode()).isEqualTo(401);
      assertThat(TestDaemon.json(response.body()).path("error").path("type").asText()).isEqualTo("unauthorized");
      assertThat(daemon.player.sends()).isEmpty();
    }
  }
}

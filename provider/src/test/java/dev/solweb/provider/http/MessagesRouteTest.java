package dev.solweb.provider.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.protocol.ReplyRules;
import dev.solweb.provider.scenario.ScenarioPlayer;
import dev.solweb.provider.translate.ContextBudget;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /v1/messages} over real HTTP on the scripted seat, as Claude Code speaks it: every
 * block type, the stream and the whole message, auth by either header, and every refusal in
 * Anthropic's error shape with the daemon still healthy behind it.
 */
class MessagesRouteTest {
  private static final Map<String, String> ANTHROPIC = Map.of("anthropic-version", "2023-06-01");
  private static final String WRITE = "{\\\"tool\\\": \\\"Write\\\", \\\"arguments\\\": {\\\"file_path\\\": \\\"hello.txt\\\","
      + " \\\"content\\\": \\\"hi\\\"}}";
  private static final String TWO_READS = "{\\\"calls\\\": [{\\\"tool\\\": \\\"Read\\\", \\\"arguments\\\": {\\\"file_path\\\":"
      + " \\\"a.txt\\\"}}, {\\\"tool\\\": \\\"Read\\\", \\\"arguments\\\": {\\\"file_path\\\": \\\"b.txt\\\"}}]}";
  private static final String FINAL = "{\\\"tool\\\": \\\"final\\\", \\\"text\\\": \\\"hello.txt written\\\"}";

  private static String scenario(String... blocks) {
    return "{\"default\": [" + String.join(", ", java.util.Arrays.stream(blocks)
        .map(block -> "{\"blocks\": [\"" + block + "\"], \"delay_ms\": 200}").toList()) + "]}";
  }

  /** Claude Code's first request, trimmed: system blocks, a reminder and the prompt, its environment as a system message. */
  private static ObjectNode task(boolean stream) {
    ObjectNode body = TestDaemon.JSON.createObjectNode().put("model", "sol-web-high").put("max_tokens", 32000)
        .put("stream", stream);
    ArrayNode system = body.putArray("system");
    system.addObject().put("type", "text").put("text", "You are Claude Code.").putObject("cache_control")
        .put("type", "ephemeral");
    system.addObject().put("type", "text").put("text", "Be brief.");
    ArrayNode messages = body.putArray("messages");
    ArrayNode content = messages.addObject().put("role", "user").putArray("content");
    content.addObject().put("type", "text").put("text", "<system-reminder>today</system-reminder>");
    content.addObject().put("type", "text").put("text", "create hello.txt containing hi");
    messages.addObject().put("role", "system").put("content", "# Environment\ncwd: /work");
    ArrayNode tools = body.putArray("tools");
    for (String name : List.of("Write", "Read")) {
      tools.addObject().put("name", name).put("description", "the " + name + " tool").putObject("input_schema")
          .put("type", "object");
    }
    tools.addObject().put("type", "web_search_20250305").put("name", "web_search");
    body.putObject("thinking").put("type", "adaptive");
    body.putObject("metadata").put("user_id", "u");
    return body;
  }

  /** The assistant message a client replays, with thinking it keeps, and its tool results. */
  private static ObjectNode withResults(ObjectNode body, JsonNode toolUses, List<ObjectNode> results) {
    ArrayNode messages = (ArrayNode) body.get("messages");
    ArrayNode assistant = messages.addObject().put("role", "assistant").putArray("content");
    assistant.addObject().put("type", "thinking").put("thinking", "let me see").put("signature", "sig");
    toolUses.forEach(use -> assistant.add(use.deepCopy()));
    ArrayNode user = messages.addObject().put("role", "user").putArray("content");
    results.forEach(user::add);
    return body;
  }

  private static ObjectNode result(String id, JsonNode content) {
    ObjectNode result = TestDaemon.JSON.createObjectNode().put("type", "tool_result").put("tool_use_id", id);
    result.set("content", content);
    return result;
  }

  private static List<JsonNode> data(TestDaemon.Stream stream) {
    return stream.events().stream().filter(e -> !e.data().startsWith("NON-DATA LINE: ")).map(TestDaemon.Event::json).toList();
  }

  private static JsonNode error(HttpResponse<String> response) throws Exception {
    JsonNode body = TestDaemon.json(response.body());
    assertThat(body.path("type").asText()).as(response.body()).isEqualTo("error");
    return body.path("error");
  }

  @Test
  void aStreamedToolUseThenItsResultGivesTheFinalAnswerTypingOnlyTheResults() throws Exception {
    try (TestDaemon daemon = new TestDaemon(scenario(WRITE, FINAL), TestDaemon.Options.defaults().keepAlive(Duration.ofMillis(50)))) {
      TestDaemon.Stream first = daemon.stream("/v1/messages", task(true).toString(), ANTHROPIC);

      assertThat(first.response().statusCode()).isEqualTo(200);
      assertThat(first.response().headers().firstValue("content-type")).contains("text/event-stream");
      List<String> lines = first.events().stream().filter(e -> e.data().startsWith("NON-DATA LINE: "))
          .map(e -> e.data().substring("NON-DATA LINE: event: ".length())).toList();
      List<String> types = data(first).stream().map(e -> e.path("type").asText()).toList();
      assertThat(types).as("each data line carries its event line's type").isEqualTo(lines);
      assertThat(types).contains("ping");
      assertThat(types.stream().filter(t -> !t.equals("ping")).toList()).containsExactly("message_start",
          "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop");
      JsonNode start = data(first).stream().filter(e -> e.path("type").asText().equals("content_block_start"))
          .findFirst().orElseThrow().path("content_block");
      assertThat(start.path("type").asText()).isEqualTo("tool_use");
      assertThat(start.path("name").asText()).isEqualTo("Write");
      JsonNode delta = data(first).stream().filter(e -> e.path("type").asText().equals("content_block_delta"))
          .findFirst().orElseThrow().path("delta");
      assertThat(TestDaemon.json(delta.path("partial_json").asText()).path("file_path").asText()).isEqualTo("hello.txt");
      JsonNode messageDelta = data(first).stream().filter(e -> e.path("type").asText().equals("message_delta"))
          .findFirst().orElseThrow();
      assertThat(messageDelta.path("delta").path("stop_reason").asText()).isEqualTo("tool_use");
      assertThat(messageDelta.path("usage").path("usage_estimated").asBoolean()).isTrue();

      ObjectNode toolUse = TestDaemon.JSON.createObjectNode().put("type", "tool_use").put("id", start.path("id").asText())
          .put("name", "Write");
      toolUse.set("input", TestDaemon.json(delta.path("partial_json").asText()));
      ObjectNode second = withResults(task(true), TestDaemon.JSON.createArrayNode().add(toolUse),
          List.of(result(start.path("id").asText(), TestDaemon.JSON.getNodeFactory().textNode("File created"))));
      List<JsonNode> done = data(daemon.stream("/v1/messages", second.toString(), ANTHROPIC));

      assertThat(done.get(done.size() - 1).path("type").asText()).isEqualTo("message_stop");
      JsonNode text = done.stream().filter(e -> e.path("type").asText().equals("content_block_delta")).findFirst()
          .orElseThrow().path("delta");
      assertThat(text.path("type").asText()).isEqualTo("text_delta");
      assertThat(text.path("text").asText()).isEqualTo("hello.txt written");
      List<ScenarioPlayer.Send> sends = daemon.player.sends();
      assertThat(sends).hasSize(2);
      assertThat(sends.get(0).text()).contains("You are Claude Code.", "Be brief.", "# Environment", "## Write",
          "create hello.txt containing hi").doesNotContain("web_search", "cache_control");
      assertThat(sends.get(1).text()).isEqualTo("TOOL RESULT [" + start.path("id").asText() + "]\nFile created");
      assertThat(sends.get(1).conversationId()).isEqualTo(sends.get(0).conversationId());
    }
  }

  @Test
  void aReplyWithTwoCallsIsTwoToolUseBlocksAndTheirResultsOneSendWithBlockContentAndIsError() throws Exception {
    try (TestDaemon daemon = new TestDaemon(scenario(TWO_READS, FINAL))) {
      HttpResponse<String> first = daemon.post("/v1/messages", task(false).toString(), ANTHROPIC);

      assertThat(first.statusCode()).isEqualTo(200);
      JsonNode message = TestDaemon.json(first.body());
      assertThat(message.path("type").asText()).isEqualTo("message");
      assertThat(message.path("stop_reason").asText()).isEqualTo("tool_use");
      JsonNode uses = message.path("content");
      assertThat(uses).hasSize(2);
      assertThat(uses).extracting(u -> u.path("type").asText()).containsOnly("tool_use");
      assertThat(uses).extracting(u -> u.path("input").path("file_path").asText()).containsExactly("a.txt", "b.txt");

      ArrayNode blocks = TestDaemon.JSON.createArrayNode();
      blocks.addObject().put("type", "text").put("text", "alpha");
      blocks.addObject().put("type", "image").putObject("source").put("type", "base64").put("media_type", "image/png")
          .put("data", java.util.Base64.getEncoder().encodeToString(dev.solweb.provider.translate.TestFiles.png(600, 3)));
      ObjectNode failed = result(uses.get(1).path("id").asText(), TestDaemon.JSON.getNodeFactory().textNode("no such file"));
      failed.put("is_error", true);
      ObjectNode second = withResults(task(false), uses, List.of(result(uses.get(0).path("id").asText(), blocks), failed));
      HttpResponse<String> done = daemon.post("/v1/messages", second.toString(), ANTHROPIC);

      assertThat(done.statusCode()).as(done.body()).isEqualTo(200);
      assertThat(TestDaemon.json(done.body()).path("stop_reason").asText()).isEqualTo("end_turn");
      String typed = daemon.player.sends().get(1).text();
      assertThat(typed).startsWith("TOOL RESULT [" + uses.get(0).path("id").asText() + "]\nalpha\n[attached: ");
      assertThat(typed).contains("TOOL RESULT [" + uses.get(1).path("id").asText()
          + "]\n[the tool reported an error]\nno such file");
      assertThat(typed.indexOf(uses.get(0).path("id").asText())).isLessThan(typed.indexOf(uses.get(1).path("id").asText()));
    }
  }

  @Test
  void badBodiesAreTyped400sInAnthropicsShapeAndTheDaemonStaysHealthy() throws Exception {
    try (TestDaemon daemon = new TestDaemon(scenario(FINAL))) {
      Map<String, String> bodies = new java.util.LinkedHashMap<>();
      bodies.put("", "the request body is empty");
      bodies.put("{not json", "the request body is not valid JSON");
      bodies.put("[]", "the request body must be a JSON object");
      bodies.put("{\"model\":\"sol-web-high\"}", "messages is required");
      bodies.put("{\"model\":\"sol-web-high\",\"messages\":[{\"role\":\"tool\",\"content\":\"x\"}]}",
          "messages[0].role must be user, assistant or system");
      bodies.put("{\"model\":\"sol-web-high\",\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"server_tool_use\"}]}]}",
          "messages[0].content[0] has type 'server_tool_use'");
      bodies.put("{\"model\":\"sol-web-high\",\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\","
          + "\"tool_use_id\":\"toolu_1\",\"content\":\"x\"}]}]}", "tool_call_id 'toolu_1', which no earlier assistant message called");
      bodies.put("{\"model\":\"sol-web-high\",\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"tool_use\","
          + "\"id\":\"t\",\"name\":\"Write\"}]}]}", "tool calls belong to assistant messages");
      bodies.put("{\"model\":\"sol-web-high\",\"max_tokens\":0,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}",
          "max_tokens must be a positive integer");
      bodies.put("{\"model\":\"sol-web-high\",\"tool_choice\":{\"type\":\"sometimes\"},\"messages\":[{\"role\":\"user\","
          + "\"content\":\"hi\"}]}", "tool_choice must be an object");
      bodies.put("{\"model\":\"sol-web-high\",\"tools\":[{\"name\":\"final\"}],\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}",
          "tools[0] is named 'final'");
      bodies.put("{\"model\":\"sol-web-high\",\"system\":[{\"type\":\"image\"}],\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}",
          "system may hold only text blocks");
      for (Map.Entry<String, String> bad : bodies.entrySet()) {
        HttpResponse<String> refused = daemon.post("/v1/messages", bad.getKey(), ANTHROPIC);

        assertThat(refused.statusCode()).as(bad.getKey()).isEqualTo(400);
        assertThat(refused.headers().firstValue("x-should-retry")).contains("false");
        JsonNode error = error(refused);
        assertThat(error.path("type").asText()).isEqualTo("invalid_request_error");
        assertThat(error.path("message").asText()).as(bad.getKey()).contains(bad.getValue());
      }
      HttpResponse<String> unknown = daemon.post("/v1/messages",
          "{\"model\":\"claude-haiku-4-5\",\"messages\":[{\"role\":\"user\",\"content\":\"title this\"}]}", ANTHROPIC);
      assertThat(unknown.statusCode()).isEqualTo(404);
      assertThat(error(unknown).path("type").asText()).isEqualTo("not_found_error");
      assertThat(error(unknown).path("message").asText()).startsWith("model: claude-haiku-4-5 is not served here");

      assertThat(daemon.player.sends()).isEmpty();
      assertThat(daemon.get("/healthz").statusCode()).isEqualTo(200);
      assertThat(daemon.post("/v1/messages", task(false).toString(), ANTHROPIC).statusCode()).isEqualTo(200);
    }
  }

  @Test
  void xApiKeyOrBearerBothTakeTheTokenAndAWrongKeyIsA401InAnthropicsShape() throws Exception {
    try (TestDaemon daemon = new TestDaemon(scenario(FINAL, FINAL))) {
      HttpResponse<String> byKey = daemon.http.send(HttpRequest.newBuilder(daemon.uri("/v1/messages"))
          .header("x-api-key", TestDaemon.TOKEN).header("anthropic-version", "2023-06-01")
          .POST(HttpRequest.BodyPublishers.ofString(task(false).toString())).build(), HttpResponse.BodyHandlers.ofString());
      HttpResponse<String> byBearer = daemon.post("/v1/messages", task(false).put("model", "sol-web-medium").toString(), ANTHROPIC);
      HttpResponse<String> wrong = daemon.http.send(HttpRequest.newBuilder(daemon.uri("/v1/messages"))
          .header("x-api-key", TestDaemon.TOKEN + "x").header("anthropic-version", "2023-06-01")
          .POST(HttpRequest.BodyPublishers.ofString(task(false).toString())).build(), HttpResponse.BodyHandlers.ofString());
      HttpResponse<String> missing = daemon.http.send(HttpRequest.newBuilder(daemon.uri("/v1/messages"))
          .POST(HttpRequest.BodyPublishers.ofString(task(false).toString())).build(), HttpResponse.BodyHandlers.ofString());
      HttpResponse<String> openAi = daemon.http.send(HttpRequest.newBuilder(daemon.uri("/v1/chat/completions"))
          .header("x-api-key", "nope").POST(HttpRequest.BodyPublishers.ofString("{}")).build(),
          HttpResponse.BodyHandlers.ofString());

      assertThat(byKey.statusCode()).as(byKey.body()).isEqualTo(200);
      assertThat(byBearer.statusCode()).as(byBearer.body()).isEqualTo(200);
      assertThat(wrong.statusCode()).isEqualTo(401);
      assertThat(error(wrong).path("type").asText()).isEqualTo("authentication_error");
      assertThat(error(wrong).path("message").asText()).isEqualTo("wrong API key or bearer token");
      assertThat(missing.statusCode()).isEqualTo(401);
      assertThat(error(missing).path("type").asText()).isEqualTo("authentication_error");
      assertThat(openAi.statusCode()).isEqualTo(401);
      assertThat(TestDaemon.json(openAi.body()).path("error").path("type").asText()).isEqualTo("unauthorized");
      assertThat(wrong.body() + missing.body()).doesNotContain(TestDaemon.TOKEN);
      assertThat(daemon.player.sends()).hasSize(2);
    }
  }

  @Test
  void aCapIsA429RateLimitErrorWithRetryAfterAndAMidStreamCapAnErrorEvent() throws Exception {
    String resumeAt = Instant.now().plusSeconds(3600).toString();
    try (TestDaemon daemon = new TestDaemon("{\"default\": [{\"fault\": \"cap\", \"resume_at\": \"" + resumeAt + "\"}]}")) {
      List<JsonNode> streamed = data(daemon.stream("/v1/messages", task(true).toString(), ANTHROPIC));
      JsonNode last = streamed.get(streamed.size() - 1);
      assertThat(last.path("type").asText()).isEqualTo("error");
      assertThat(last.path("error").path("type").asText()).isEqualTo("rate_limit_error");
      assertThat(streamed).extracting(e -> e.path("type").asText()).doesNotContain("message_stop", "message_delta");

      HttpResponse<String> next = daemon.post("/v1/messages", task(true).toString(), ANTHROPIC);

      assertThat(next.statusCode()).isEqualTo(429);
      assertThat(next.headers().firstValue("retry-after").map(Long::parseLong).orElseThrow()).isBetween(3500L, 3600L);
      assertThat(next.headers().firstValue("x-should-retry")).contains("false");
      JsonNode error = error(next);
      assertThat(error.path("type").asText()).isEqualTo("rate_limit_error");
      assertThat(error.path("message").asText()).startsWith("capped: ").endsWith("resume_at=" + resumeAt);
      assertThat(ProviderFailure.fromJson(error.path("metadata").path("raw").asText()).kind())
          .isEqualTo(ProviderFailure.Kind.CAPPED);
      assertThat(daemon.player.sends()).hasSize(1);
    }
  }

  @Test
  void anUnavailablePageIsA529OverloadedErrorAndAnOversizedBodyA413() throws Exception {
    try (TestDaemon daemon = new TestDaemon("{\"state\": \"logged_out\", \"default\": []}",
        TestDaemon.Options.defaults().maxBody(4096))) {
      HttpResponse<String> failed = daemon.post("/v1/messages", task(false).toString(), ANTHROPIC);
      HttpResponse<String> tooLarge = daemon.post("/v1/messages",
          task(false).put("pad", "x".repeat(8192)).toString(), ANTHROPIC);

      assertThat(failed.statusCode()).isEqualTo(529);
      assertThat(error(failed).path("type").asText()).isEqualTo("overloaded_error");
      assertThat(error(failed).path("message").asText()).startsWith("unavailable: ");
      assertThat(tooLarge.statusCode()).isEqualTo(413);
      assertThat(error(tooLarge).path("type").asText()).isEqualTo("request_too_large");
    }
  }

  @Test
  void countTokensIsTheContextBudgetsEstimateAndSendsNothing() throws Exception {
    try (TestDaemon daemon = new TestDaemon(scenario(FINAL))) {
      ObjectNode body = task(false);
      body.remove("stream");
      HttpResponse<String> counted = daemon.post("/v1/messages/count_tokens", body.toString(), ANTHROPIC);

      assertThat(counted.statusCode()).as(counted.body()).isEqualTo(200);
      MessagesRequest parsed = MessagesRequest.parse(body.toString(), dev.solweb.provider.translate.AttachmentDecoder.defaults());
      long expected = ContextBudget.estimateFresh(parsed.input(),
          ReplyRules.of(parsed.input().tools(), true, ReplyRules.DEFAULT_MAX_CALLS));
      assertThat(TestDaemon.json(counted.body()).path("input_tokens").asLong()).isEqualTo(expected)
          .isGreaterThan(body.toString().length() / 2);
      assertThat(daemon.player.sends()).isEmpty();
      assertThat(daemon.post("/v1/messages/count_tokens", "{}", ANTHROPIC).statusCode()).isEqualTo(400);
    }
  }

  @Test
  void modelsAreListedInAnthropicsShapeWhenAskedWithAnthropicVersionAndUnknownRoutesAre404NotFoundError() throws Exception {
    try (TestDaemon daemon = new TestDaemon(scenario(FINAL))) {
      HttpResponse<String> anthropic = daemon.http.send(daemon.request("/v1/models").header("anthropic-version", "2023-06-01")
          .GET().build(), HttpResponse.BodyHandlers.ofString());
      HttpResponse<String> one = daemon.http.send(daemon.request("/v1/models/sol-web-pro").header("anthropic-version", "2023-06-01")
          .GET().build(), HttpResponse.BodyHandlers.ofString());
      HttpResponse<String> openAi = daemon.get("/v1/models");
      HttpResponse<String> nowhere = daemon.http.send(daemon.request("/v1/files").header("anthropic-version", "2023-06-01")
          .GET().build(), HttpResponse.BodyHandlers.ofString());

      JsonNode list = TestDaemon.json(anthropic.body());
      assertThat(list.path("data")).extracting(m -> m.path("id").asText())
          .containsExactly("sol-web-instant", "sol-web-medium", "sol-web-high", "sol-web-xhigh", "sol-web-pro");
      assertThat(list.path("data").get(0).path("type").asText()).isEqualTo("model");
      assertThat(list.path("has_more").asBoolean(true)).isFalse();
      assertThat(list.path("first_id").asText()).isEqualTo("sol-web-instant");
      assertThat(TestDaemon.json(one.body()).path("display_name").asText()).isEqualTo("ChatGPT web, Pro");
      assertThat(TestDaemon.json(openAi.body()).path("object").asText()).isEqualTo("list");
      assertThat(nowhere.statusCode()).isEqualTo(404);
      assertThat(error(nowhere).path("type").asText()).isEqualTo("not_found_error");
    }
  }
}

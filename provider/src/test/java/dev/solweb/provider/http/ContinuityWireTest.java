package dev.solweb.provider.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.scenario.ScenarioPlayer;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 38 on each wire, on the scripted seat: a client that echoes solwebd's own answers
 * re-serialized (an Edit with {@code "replace_all": false} added, keys reordered, nulls dropped,
 * thinking and reasoning kept, cache markers, a reply split into items, Claude Code's environment
 * as blocks then as a string) stays in one conversation, each step typing only its delta; a
 * rewritten user message replays once, and {@code /healthz} counts it.
 */
class ContinuityWireTest {
  private static final String EDIT = "{\\\"tool\\\": \\\"Edit\\\", \\\"arguments\\\": {\\\"file_path\\\": \\\"a.txt\\\","
      + " \\\"old_string\\\": \\\"x\\\", \\\"new_string\\\": \\\"y\\\", \\\"note\\\": null}}";
  private static final String TWO_READS = "{\\\"calls\\\": [{\\\"tool\\\": \\\"Read\\\", \\\"arguments\\\": {\\\"file_path\\\":"
      + " \\\"a.txt\\\"}}, {\\\"tool\\\": \\\"Read\\\", \\\"arguments\\\": {\\\"file_path\\\": \\\"b.txt\\\"}}]}";
  private static final String FINAL = "{\\\"tool\\\": \\\"final\\\", \\\"text\\\": \\\"Both files are fixed.\\\"}";
  private static final String SCENARIO = "{\"default\": [{\"blocks\": [\"" + EDIT + "\"]}, {\"blocks\": [\"" + TWO_READS
      + "\"]}, {\"blocks\": [\"" + FINAL + "\"]}, {\"blocks\": [\"" + FINAL + "\"]}]}";
  private static final String ECHOED_EDIT = "{\"replace_all\":false,\"new_string\":\"y\",\"old_string\":\"x\",\"file_path\":\"a.txt\"}";

  private TestDaemon daemon;

  @BeforeEach
  void start() throws Exception {
    daemon = new TestDaemon(SCENARIO);
  }

  @AfterEach
  void stop() {
    daemon.close();
  }

  private JsonNode post(String path, ObjectNode body) throws Exception {
    HttpResponse<String> response = daemon.post(path, body.toString(), Map.of());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return TestDaemon.json(response.body());
  }

  private JsonNode replays() throws Exception {
    return TestDaemon.json(daemon.get("/healthz").body()).path("replays");
  }

  /** Every step typed into one conversation, each after the first only its delta. */
  private void assertOneConversationOfDeltas(int steps) throws Exception {
    List<ScenarioPlayer.Send> sends = daemon.player.sends();
    assertThat(sends).hasSize(steps);
    assertThat(sends).extracting(ScenarioPlayer.Send::conversationId).containsOnly(sends.get(0).conversationId());
    assertThat(sends.subList(1, sends.size())).allSatisfy(send -> assertThat(send.text()).doesNotContain("PROTOCOL"));
    assertThat(replays().size()).as("replays at /healthz: %s", replays()).isZero();
  }

  // ---- chat completions -------------------------------------------------------------------------

  private static ObjectNode chat() {
    ObjectNode body = TestDaemon.JSON.createObjectNode().put("model", "sol-web-high");
    ArrayNode messages = body.putArray("messages");
    messages.addObject().put("role", "system").put("content", "You are terse.");
    messages.addObject().put("role", "user").put("content", "fix a.txt and b.txt");
    ArrayNode tools = body.putArray("tools");
    for (String name : List.of("Edit", "Read")) {
      tools.addObject().put("type", "function").putObject("function").put("name", name).putObject("parameters")
          .put("type", "object");
    }
    return body;
  }

  private static void chatCall(ArrayNode messages, String id, String name, String arguments, boolean nullContent) {
    ObjectNode assistant = messages.addObject().put("role", "assistant");
    if (nullContent) {
      assistant.putNull("content");
    } else {
      assistant.put("content", "");
    }
    assistant.putArray("tool_calls").addObject().put("id", id).put("type", "function").putObject("function")
        .put("name", name).put("arguments", arguments);
  }

  @Test
  void chatCompletionsEchoesWithDefaultsAddedAndCallsSplitStayInOneConversation() throws Exception {
    ObjectNode body = chat();
    JsonNode edit = post("/v1/chat/completions", body).path("choices").get(0).path("message").path("tool_calls").get(0);
    ArrayNode messages = (ArrayNode) body.get("messages");
    chatCall(messages, edit.path("id").asText(), "Edit", ECHOED_EDIT, true);
    messages.addObject().put("role", "tool").put("tool_call_id", edit.path("id").asText()).put("content", "edited");

    JsonNode reads = post("/v1/chat/completions", body).path("choices").get(0).path("message").path("tool_calls");
    // The two calls of one reply, replayed as two assistant messages (each with its own result after it).
    for (JsonNode read : reads) {
      chatCall(messages, read.path("id").asText(), "Read", read.path("function").path("arguments").asText(), false);
      messages.addObject().put("role", "tool").put("tool_call_id", read.path("id").asText()).put("content", "content");
    }
    JsonNode answer = post("/v1/chat/completions", body);

    assertThat(answer.path("choices").get(0).path("message").path("content").asText()).isEqualTo("Both files are fixed.");
    assertOneConversationOfDeltas(3);
    assertThat(daemon.player.sends().get(1).text()).startsWith("TOOL RESULT [" + edit.path("id").asText() + "]");
  }

  @Test
  void aRewrittenUserMessageReplaysOnceAndHealthzCountsIt() throws Exception {
    ObjectNode body = chat();
    ArrayNode messages = (ArrayNode) body.get("messages");
    messages.addObject().put("role", "user").put("content", "start with a.txt");
    JsonNode edit = post("/v1/chat/completions", body).path("choices").get(0).path("message").path("tool_calls").get(0);
    ((ObjectNode) messages.get(2)).put("content", "start with b.txt");
    chatCall(messages, edit.path("id").asText(), "Edit", ECHOED_EDIT, true);
    messages.addObject().put("role", "tool").put("tool_call_id", edit.path("id").asText()).put("content", "edited");

    post("/v1/chat/completions", body);

    assertThat(replays()).isEqualTo(TestDaemon.json("{\"rewritten\": 1}"));
    List<ScenarioPlayer.Send> sends = daemon.player.sends();
    assertThat(sends).hasSize(2);
    assertThat(sends.get(1).conversationId()).isNotEqualTo(sends.get(0).conversationId());
    // The operator page's turn list, newest first; seat work runs once the last turn's record is in it.
    daemon.dispatcher.runBetweenTurns(seat -> null).get(10, java.util.concurrent.TimeUnit.SECONDS);
    assertThat(daemon.dispatcher.views().finishedTurns()).extracting(dev.solweb.provider.dispatch.FinishedTurn::replayed)
        .containsExactly("rewritten", null);
  }

  // ---- Responses (Codex) ------------------------------------------------------------------------

  private static ObjectNode responses() {
    ObjectNode body = TestDaemon.JSON.createObjectNode().put("model", "sol-web-high").put("store", false)
        .put("instructions", "You are Codex.");
    body.putArray("input").addObject().put("type", "message").put("role", "user").putArray("content").addObject()
        .put("type", "input_text").put("text", "fix a.txt and b.txt");
    ArrayNode tools = body.putArray("tools");
    for (String name : List.of("Edit", "Read")) {
      tools.addObject().put("type", "function").put("name", name).putObject("parameters").put("type", "object");
    }
    return body;
  }

  @Test
  void responsesItemsWithReasoningAddedAndArgumentsReSerializedStayInOneConversation() throws Exception {
    ObjectNode body = responses();
    ArrayNode input = (ArrayNode) body.get("input");
    JsonNode first = post("/v1/responses", body);
    input.addObject().put("type", "reasoning").put("id", "rs_1").putArray("summary");
    for (JsonNode item : first.path("output")) {
      if (item.path("type").asText().equals("function_call")) {
        input.addObject().put("type", "function_call").put("id", item.path("id").asText())
            .put("call_id", item.path("call_id").asText()).put("name", "Edit").put("arguments", ECHOED_EDIT);
        input.addObject().put("type", "function_call_output").put("call_id", item.path("call_id").asText())
            .put("output", "edited");
      }
    }
    JsonNode second = post("/v1/responses", body);
    // Each call, then its output: Codex records a reply's items as they ran.
    for (JsonNode item : second.path("output")) {
      if (item.path("type").asText().equals("function_call")) {
        input.addObject().put("type", "function_call").put("call_id", item.path("call_id").asText()).put("name", "Read")
            .put("arguments", item.path("arguments").asText());
        input.addObject().put("type", "function_call_output").put("call_id", item.path("call_id").asText())
            .put("output", "content");
      }
    }
    post("/v1/responses", body);

    assertOneConversationOfDeltas(3);
  }

  // ---- Messages (Claude Code) -------------------------------------------------------------------

  private static ObjectNode messages(boolean environmentAsBlocks) {
    ObjectNode body = TestDaemon.JSON.createObjectNode().put("model", "sol-web-high").put("max_tokens", 32000);
    body.putArray("system").addObject().put("type", "text").put("text", "You are Claude Code.")
        .putObject("cache_control").put("type", "ephemeral");
    ArrayNode messages = body.putArray("messages");
    ArrayNode first = messages.addObject().put("role", "user").putArray("content");
    first.addObject().put("type", "text").put("text", "<system-reminder>today</system-reminder>");
    first.addObject().put("type", "text").put("text", "fix a.txt and b.txt");
    ObjectNode environment = messages.addObject().put("role", "system");
    if (environmentAsBlocks) {
      ArrayNode blocks = environment.putArray("content");
      blocks.addObject().put("type", "text").put("text", "# Environment");
      blocks.addObject().put("type", "text").put("text", "cwd: /work").putObject("cache_control").put("type", "ephemeral");
    } else {
      environment.put("content", "# Environment\ncwd: /work\n");
    }
    ArrayNode tools = body.putArray("tools");
    for (String name : List.of("Edit", "Read")) {
      tools.addObject().put("name", name).put("description", "the " + name + " tool").putObject("input_schema")
          .put("type", "object");
    }
    return body;
  }

  /** Claude Code's replay of one answer: thinking kept, each tool_use's input as it filled it in, the results after. */
  private static void replay(ObjectNode body, JsonNode answer, String result) throws Exception {
    ArrayNode history = (ArrayNode) body.get("messages");
    ArrayNode assistant = history.addObject().put("role", "assistant").putArray("content");
    assistant.addObject().put("type", "thinking").put("thinking", "let me see").put("signature", "sig");
    ArrayNode results = TestDaemon.JSON.createArrayNode();
    for (JsonNode block : answer.path("content")) {
      if (block.path("type").asText().equals("tool_use")) {
        ObjectNode use = block.deepCopy();
        if (use.path("name").asText().equals("Edit")) {
          use.set("input", TestDaemon.json(ECHOED_EDIT));
        }
        assistant.add(use);
        results.addObject().put("type", "tool_result").put("tool_use_id", use.path("id").asText()).put("content", result);
      }
    }
    ArrayNode user = history.addObject().put("role", "user").putArray("content");
    user.addAll(results);
    user.addObject().put("type", "text").put("text", "<system-reminder>keep going</system-reminder>");
  }

  @Test
  void messagesWithThinkingCacheMarkersAndTheEnvironmentChangingFormStayInOneConversation() throws Exception {
    ObjectNode body = messages(true);
    JsonNode edit = post("/v1/messages", body);
    replay(body, edit, "edited");
    // Claude Code 2.1.33x sends its environment as blocks first, then as a string.
    ObjectNode later = messages(false);
    later.set("messages", body.get("messages").deepCopy());
    ((ArrayNode) later.get("messages")).set(1, messages(false).get("messages").get(1));
    JsonNode reads = post("/v1/messages", later);
    replay(later, reads, "content");
    JsonNode answer = post("/v1/messages", later);

    assertThat(answer.path("content").get(0).path("text").asText()).isEqualTo("Both files are fixed.");
    assertOneConversationOfDeltas(3);
  }

  // ---- a runaway client -------------------------------------------------------------------------

  @Test
  void aSessionRepeatingOneToolCallMoreThanEightTimesGetsAProtocolFailureTypedIntoNothing() throws Exception {
    daemon.close();
    String same = "{\"blocks\": [\"{\\\"tool\\\": \\\"Read\\\", \\\"arguments\\\": {\\\"file_path\\\": \\\"a.txt\\\"}}\"]}";
    daemon = new TestDaemon("{\"default\": [" + String.join(", ", java.util.Collections.nCopies(12, same)) + "]}");
    ObjectNode body = chat();
    ArrayNode messages = (ArrayNode) body.get("messages");
    for (int step = 1; step <= 9; step++) {
      JsonNode call = post("/v1/chat/completions", body).path("choices").get(0).path("message").path("tool_calls").get(0);
      chatCall(messages, call.path("id").asText(), "Read", "{\"file_path\":\"a.txt\"}", true);
      messages.addObject().put("role", "tool").put("tool_call_id", call.path("id").asText()).put("content", "x");
    }

    HttpResponse<String> refused = daemon.post("/v1/chat/completions", body.toString(), Map.of());

    assertThat(daemon.player.sends()).hasSize(9);
    assertThat(refused.statusCode()).as(refused.body()).isGreaterThanOrEqualTo(400);
    JsonNode error = TestDaemon.json(refused.body()).path("error");
    assertThat(error.toString()).contains("protocol").contains("runaway loop").contains("9 times in a row")
        .contains("Read");
  }
}

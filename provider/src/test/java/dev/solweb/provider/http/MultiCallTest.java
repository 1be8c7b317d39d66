package dev.solweb.provider.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.scenario.ScenarioPlayer;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Several tool calls in one reply, over real HTTP on the scripted seat: both wires return every
 * call of the one reply, the next turn types all their results in one send in call order, and
 * the limits ({@code parallel_tool_calls: false}, the daemon's cap) take the one repair, then the
 * typed 502.
 */
class MultiCallTest {
  private static final String THREE_READS =
      "{\\\"calls\\\": [{\\\"tool\\\": \\\"read\\\", \\\"arguments\\\": {\\\"path\\\": \\\"a.txt\\\"}},"
          + " {\\\"tool\\\": \\\"read\\\", \\\"arguments\\\": {\\\"path\\\": \\\"b.txt\\\"}},"
          + " {\\\"tool\\\": \\\"bash\\\", \\\"arguments\\\": {\\\"command\\\": \\\"ls\\\"}}]}";
  private static final String ONE_READ = "{\\\"tool\\\": \\\"read\\\", \\\"arguments\\\": {\\\"path\\\": \\\"a.txt\\\"}}";
  private static final String FINAL = "{\\\"tool\\\": \\\"final\\\", \\\"text\\\": \\\"read three\\\"}";

  private static String scenario(String... blocks) {
    List<String> replies = new ArrayList<>();
    for (String block : blocks) {
      replies.add("{\"blocks\": [\"" + block + "\"]}");
    }
    return "{\"default\": [" + String.join(", ", replies) + "]}";
  }

  private static Requests task() {
    return Requests.chat("sol-web-high").user("read a.txt and b.txt, list the directory").tool("read").tool("bash");
  }

  /** The assistant message a client replays: every call of the answer, in order. */
  private static Requests replay(Requests requests, JsonNode calls) {
    List<String[]> entries = new ArrayList<>();
    calls.forEach(call -> entries.add(new String[] {call.path("id").asText(), call.path("function").path("name").asText(),
        call.path("function").path("arguments").asText()}));
    return requests.assistantCalls(entries);
  }

  @Test
  void oneReplyWithThreeCallsIsOneAssistantMessageAndTheirResultsAreOneSendInCallOrder() throws Exception {
    try (TestDaemon daemon = new TestDaemon(scenario(THREE_READS, FINAL))) {
      HttpResponse<String> first = daemon.post(task().json());

      JsonNode choice = TestDaemon.json(first.body()).path("choices").get(0);
      assertThat(choice.path("finish_reason").asText()).isEqualTo("tool_calls");
      JsonNode calls = choice.path("message").path("tool_calls");
      assertThat(calls).hasSize(3);
      assertThat(calls).extracting(c -> c.path("function").path("name").asText()).containsExactly("read", "read", "bash");
      assertThat(calls).extracting(c -> c.path("id").asText()).allMatch(id -> id.matches("call_1_[0-9a-f]{8}"))
          .doesNotHaveDuplicates();
      assertThat(TestDaemon.json(calls.get(1).path("function").path("arguments").asText()).path("path").asText())
          .isEqualTo("b.txt");

      // As Claude Code through ccr sends them: in the order its tools finished.
      String a = calls.get(0).path("id").asText();
      String b = calls.get(1).path("id").asText();
      String ls = calls.get(2).path("id").asText();
      HttpResponse<String> done = daemon.post(replay(task(), calls).toolResult(ls, "a.txt b.txt")
          .toolResult(b, "BBB").toolResult(a, "AAA").json());

      assertThat(TestDaemon.json(done.body()).path("choices").get(0).path("message").path("content").asText())
          .isEqualTo("read three");
      List<ScenarioPlayer.Send> sends = daemon.player.sends();
      assertThat(sends).as("one page turn for the three results").hasSize(2);
      assertThat(sends.get(1).text()).isEqualTo("TOOL RESULT [" + a + "]\nAAA\n\nTOOL RESULT [" + b + "]\nBBB\n\n"
          + "TOOL RESULT [" + ls + "]\na.txt b.txt");
      assertThat(sends.get(1).conversationId()).isEqualTo(sends.get(0).conversationId());
      assertThat(sends.get(0).text()).contains("To call several tools at once (at most 8)");
    }
  }

  @Test
  void aStreamCarriesOneChunkPerCallWithItsIndexAndId() throws Exception {
    try (TestDaemon daemon = new TestDaemon(scenario(THREE_READS))) {
      List<TestDaemon.Event> events = daemon.stream(task().stream(true).json()).events();

      List<JsonNode> deltas = events.stream().filter(e -> !e.done())
          .map(e -> e.json().path("choices").path(0).path("delta").path("tool_calls"))
          .filter(JsonNode::isArray).toList();
      assertThat(deltas).hasSize(3).allSatisfy(delta -> assertThat(delta).hasSize(1));
      assertThat(deltas).extracting(d -> d.get(0).path("index").asInt(-1)).containsExactly(0, 1, 2);
      assertThat(deltas).extracting(d -> d.get(0).path("id").asText()).allMatch(id -> id.startsWith("call_1_"))
          .doesNotHaveDuplicates();
      assertThat(deltas).extracting(d -> d.get(0).path("function").path("name").asText())
          .containsExactly("read", "read", "bash");
      assertThat(events.stream().filter(e -> e.data().contains("\"finish_reason\":\"tool_calls\""))).hasSize(1);
      assertThat(events.get(events.size() - 1).done()).isTrue();
    }
  }

  @Test
  void theResponsesApiGivesOneFunctionCallItemPerCallInOrder() throws Exception {
    try (TestDaemon daemon = new TestDaemon(scenario(THREE_READS, FINAL))) {
      ObjectNode body = TestDaemon.JSON.createObjectNode().put("model", "sol-web-high").put("stream", true)
          .put("store", false).put("parallel_tool_calls", true);
      ArrayNode input = body.putArray("input");
      input.addObject().put("role", "user").put("content", "read a, b and list");
      ArrayNode tools = body.putArray("tools");
      tools.addObject().put("type", "function").put("name", "read").putObject("parameters").put("type", "object");
      tools.addObject().put("type", "function").put("name", "bash").putObject("parameters").put("type", "object");
      Map<String, String> session = Map.of("session-id", "multi-call-session");

      List<JsonNode> events = daemon.stream("/v1/responses", body.toString(), session).events().stream()
          .filter(e -> !e.data().startsWith("NON-DATA")).map(TestDaemon.Event::json).toList();

      List<JsonNode> done = events.stream().filter(e -> e.path("type").asText().equals("response.output_item.done")).toList();
      assertThat(done).extracting(e -> e.path("output_index").asInt()).containsExactly(0, 1, 2);
      assertThat(done).extracting(e -> e.path("item").path("type").asText()).containsOnly("function_call");
      assertThat(done).extracting(e -> e.path("item").path("name").asText()).containsExactly("read", "read", "bash");
      JsonNode completed = events.get(events.size() - 1).path("response").path("output");
      assertThat(completed).hasSize(3);
      List<JsonNode> added = events.stream().filter(e -> e.path("type").asText().equals("response.output_item.added")).toList();
      assertThat(added).extracting(e -> e.path("output_index").asInt()).containsExactly(0, 1, 2);

      // Codex's next request: the function_call items, then every output, in call order (measured).
      for (JsonNode item : completed) {
        input.addObject().put("type", "function_call").put("call_id", item.path("call_id").asText())
            .put("name", item.path("name").asText()).put("arguments", item.path("arguments").asText());
      }
      for (JsonNode item : completed) {
        input.addObject().put("type", "function_call_output").put("call_id", item.path("call_id").asText())
            .put("output", "out of " + item.path("call_id").asText());
      }
      body.put("stream", false);
      HttpResponse<String> next = daemon.post("/v1/responses", body.toString(), session);

      assertThat(next.statusCode()).isEqualTo(200);
      List<ScenarioPlayer.Send> sends = daemon.player.sends();
      assertThat(sends).hasSize(2);
      assertThat(sends.get(1).conversationId()).isEqualTo(sends.get(0).conversationId());
      assertThat(sends.get(1).text().split("\n\n")).hasSize(3)
          .allSatisfy(block -> assertThat(block).startsWith("TOOL RESULT [call_1_"));
    }
  }

  @Test
  void parallelToolCallsFalseTeachesOneCallAndRepairsAReplyWithSeveral() throws Exception {
    try (TestDaemon daemon = new TestDaemon(scenario(THREE_READS, ONE_READ))) {
      HttpResponse<String> response = daemon.post(task().parallelToolCalls(false).json());

      assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
      JsonNode calls = TestDaemon.json(response.body()).path("choices").get(0).path("message").path("tool_calls");
      assertThat(calls).hasSize(1);
      List<ScenarioPlayer.Send> sends = daemon.player.sends();
      assertThat(sends.get(0).text()).contains("Call one tool per reply and wait for its result.")
          .doesNotContain("\"calls\"");
      assertThat(sends.get(1).text()).startsWith("PROTOCOL ERROR\nthe reply had 3 calls, but this agent asked for one"
          + " call per reply (parallel_tool_calls: false)");
      assertThat(sends.get(1).conversationId()).isEqualTo(sends.get(0).conversationId());
    }
  }

  @Test
  void moreCallsThanTheCapTwiceIsTheTypedProtocolFailure() throws Exception {
    try (TestDaemon daemon = new TestDaemon(scenario(THREE_READS, THREE_READS), TestDaemon.Options.defaults().maxCalls(2))) {
      HttpResponse<String> response = daemon.post(task().json());

      assertThat(response.statusCode()).isEqualTo(502);
      JsonNode error = TestDaemon.json(response.body()).path("error");
      assertThat(error.path("type").asText()).isEqualTo("protocol");
      assertThat(error.path("message").asText()).contains("the reply had 3 calls; at most 2 go in one reply");
      List<ScenarioPlayer.Send> sends = daemon.player.sends();
      assertThat(sends).hasSize(2);
      assertThat(sends.get(0).text()).contains("To call several tools at once (at most 2)");
      assertThat(sends.get(1).text()).contains("make the first 2 now and the rest after their results")
          .contains("(at most 2)");
    }
  }

  @Test
  void aCallAgainstItsSchemaIsRepairedNamingTheEntry() throws Exception {
    String missingPath = "{\\\"calls\\\": [{\\\"tool\\\": \\\"read\\\", \\\"arguments\\\": {\\\"path\\\": \\\"a.txt\\\"}},"
        + " {\\\"tool\\\": \\\"read\\\", \\\"arguments\\\": {\\\"file\\\": \\\"b.txt\\\"}}]}";
    try (TestDaemon daemon = new TestDaemon(scenario(missingPath, FINAL))) {
      HttpResponse<String> response = daemon.post(Requests.chat("sol-web-high").user("read a and b")
          .tool("read", "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"}},\"required\":[\"path\"]}").json());

      assertThat(response.statusCode()).isEqualTo(200);
      assertThat(daemon.player.sends().get(1).text())
          .startsWith("PROTOCOL ERROR\ncalls[1] tool \"read\": missing required argument \"path\"");
    }
  }
}

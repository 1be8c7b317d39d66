package dev.solweb.provider.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.scenario.ScenarioPlayer;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The whole tool loop over real HTTP, as an OpenAI client sees it and as the seat saw it. */
class ToolLoopTest {
  private static final String SCENARIO = """
      {"default": [
        {"blocks": ["{\\"tool\\": \\"write\\", \\"arguments\\": {\\"path\\": \\"hello.txt\\", \\"content\\": \\"hi\\"}}"]},
        {"blocks": ["{\\"tool\\": \\"final\\", \\"text\\": \\"done: hello.txt\\"}"]}
      ]}
      """;

  private TestDaemon daemon;

  @BeforeEach
  void start() throws Exception {
    daemon = new TestDaemon(SCENARIO);
  }

  @AfterEach
  void stop() {
    daemon.close();
  }

  @Test
  void nonStreamingToolCallThenFinalTypesPreambleOnceThenOnlyTheDelta() throws Exception {
    Requests first = Requests.chat("sol-web-high").system("You are terse.").user("create hello.txt").tool("write").tool("bash");
    HttpResponse<String> response = daemon.post(first.json());

    assertThat(response.statusCode()).isEqualTo(200);
    JsonNode completion = TestDaemon.json(response.body());
    assertThat(completion.path("object").asText()).isEqualTo("chat.completion");
    JsonNode choice = completion.path("choices").get(0);
    assertThat(choice.path("finish_reason").asText()).isEqualTo("tool_calls");
    JsonNode call = choice.path("message").path("tool_calls").get(0);
    String callId = call.path("id").asText();
    assertThat(callId).matches("call_1_[0-9a-f]{8}");
    assertThat(call.path("type").asText()).isEqualTo("function");
    assertThat(call.path("function").path("name").asText()).isEqualTo("write");
    assertThat(TestDaemon.json(call.path("function").path("arguments").asText()))
        .isEqualTo(TestDaemon.json("{\"path\":\"hello.txt\",\"content\":\"hi\"}"));
    assertThat(completion.path("usage").path("usage_estimated").asBoolean()).isTrue();

    Requests second = Requests.chat("sol-web-high").system("You are terse.").user("create hello.txt").tool("write").tool("bash")
        .assistantCall(callId, "write", call.path("function").path("arguments").asText())
        .toolResult(callId, "Successfully wrote 2 bytes");
    HttpResponse<String> done = daemon.post(second.json());

    assertThat(done.statusCode()).isEqualTo(200);
    JsonNode finalChoice = TestDaemon.json(done.body()).path("choices").get(0);
    assertThat(finalChoice.path("finish_reason").asText()).isEqualTo("stop");
    assertThat(finalChoice.path("message").path("content").asText()).isEqualTo("done: hello.txt");

    List<ScenarioPlayer.Send> sends = daemon.player.sends();
    assertThat(sends).hasSize(2);
    assertThat(sends.get(0).text()).contains("PROTOCOL", "## write", "## bash", "You are terse.", "USER\ncreate hello.txt");
    assertThat(sends.get(1).text()).isEqualTo("TOOL RESULT [" + callId + "]\nSuccessfully wrote 2 bytes");
    assertThat(sends.get(1).conversationId()).isEqualTo(sends.get(0).conversationId());
    assertThat(sends).allSatisfy(send -> {
      assertThat(send.effort()).isEqualTo(Effort.HIGH);
      assertThat(send.effortLabel()).isEqualTo("High");
    });
    long firstUsage = completion.path("usage").path("prompt_tokens").asLong();
    assertThat(TestDaemon.json(done.body()).path("usage").path("prompt_tokens").asLong()).isGreaterThan(firstUsage);
  }

  @Test
  void streamingToolCallCarriesIndexIdAndArgumentsThenFinishUsageAndDone() throws Exception {
    TestDaemon.Stream stream = daemon.stream(
        Requests.chat("sol-web-medium").user("create hello.txt").tool("write").stream(true).json());

    assertThat(stream.response().statusCode()).isEqualTo(200);
    assertThat(stream.response().headers().firstValue("content-type")).hasValue("text/event-stream");
    List<TestDaemon.Event> events = stream.events();
    assertThat(events.get(0).json().path("choices").get(0).path("delta").path("role").asText()).isEqualTo("assistant");
    TestDaemon.Event answer = events.stream()
        .filter(e -> !e.done() && e.json().path("choices").path(0).path("delta").has("tool_calls")).findFirst().orElseThrow();
    JsonNode call = answer.json().path("choices").get(0).path("delta").path("tool_calls").get(0);
    assertThat(call.path("index").asInt(-1)).isZero();
    assertThat(call.path("id").asText()).startsWith("call_1_");
    assertThat(call.path("type").asText()).isEqualTo("function");
    assertThat(call.path("function").path("name").asText()).isEqualTo("write");
    assertThat(call.path("function").path("arguments").isTextual()).isTrue();
    int finishAt = indexOf(events, "\"finish_reason\":\"tool_calls\"");
    assertThat(finishAt).isGreaterThan(events.indexOf(answer));
    JsonNode usage = events.get(events.size() - 2).json();
    assertThat(usage.path("choices")).isEmpty();
    assertThat(usage.path("usage").path("usage_estimated").asBoolean()).isTrue();
    assertThat(events.get(events.size() - 1).done()).isTrue();
    assertThat(stream.data()).noneMatch(d -> d.startsWith("NON-DATA"));
  }

  @Test
  void streamingFinalAnswerIsOneContentChunkWithStop() throws Exception {
    String callArgs = "{\"path\":\"hello.txt\",\"content\":\"hi\"}";
    HttpResponse<String> first = daemon.post(Requests.chat("sol-web-pro").user("go").tool("write").json());
    String id = TestDaemon.json(first.body()).path("choices").get(0).path("message").path("tool_calls").get(0).path("id").asText();

    TestDaemon.Stream stream = daemon.stream(Requests.chat("sol-web-pro").user("go").tool("write")
        .assistantCall(id, "write", callArgs).toolResult(id, "ok").stream(false).json());

    List<String> contents = stream.events().stream().filter(e -> !e.done())
        .map(e -> e.json().path("choices").path(0).path("delta").path("content"))
        .filter(JsonNode::isTextual).map(JsonNode::asText).toList();
    assertThat(contents).containsExactly("done: hello.txt");
    assertThat(indexOf(stream.events(), "\"finish_reason\":\"stop\"")).isPositive();
    // Without include_usage, the finish chunk itself carries the estimated usage.
    assertThat(stream.events().get(stream.events().size() - 2).json().path("usage").path("usage_estimated").asBoolean()).isTrue();
    assertThat(daemon.player.sends()).hasSize(2);
  }

  private static int indexOf(List<TestDaemon.Event> events, String fragment) {
    for (int i = 0; i < events.size(); i++) {
      if (events.get(i).data().contains(fragment)) {
        return i;
      }
    }
    return -1;
  }
}

package dev.solweb.provider.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.translate.Answer;
import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.protocol.Reply;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The Responses event writer on bytes: which events, in which order, each once, and what they carry. */
class ResponsesEventsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Map<String, ResponsesRequest.ToolName> NAMES = Map.of(
      "exec_command", new ResponsesRequest.ToolName(null, "exec_command"),
      "multi_agent_v1.spawn_agent", new ResponsesRequest.ToolName("multi_agent_v1", "spawn_agent"));

  private final ResponsesEvents events = new ResponsesEvents("resp_0123abcd", "sol-web-high", 1700000000L, NAMES);

  /** One parsed SSE frame: its {@code event:} name and its data. */
  private record Frame(String event, JsonNode data) {}

  private static Frame frame(String raw) throws Exception {
    assertThat(raw).endsWith("\n\n");
    String[] lines = raw.substring(0, raw.length() - 2).split("\n");
    assertThat(lines).hasSize(2);
    assertThat(lines[0]).startsWith("event: ");
    assertThat(lines[1]).startsWith("data: ");
    Frame frame = new Frame(lines[0].substring(7), JSON.readTree(lines[1].substring(6)));
    assertThat(frame.data().path("type").asText()).as("data.type matches the event line").isEqualTo(frame.event());
    return frame;
  }

  private List<Frame> turn(Answer answer) throws Exception {
    List<Frame> frames = new ArrayList<>();
    for (String raw : events.opening()) {
      frames.add(frame(raw));
    }
    frames.add(frame(events.keepAlive()));
    for (String raw : events.answer(answer)) {
      frames.add(frame(raw));
    }
    return frames;
  }

  @Test
  void aFinalAnswerIsTheTextEventSequenceEachOnceWithIncreasingSequenceNumbers() throws Exception {
    List<Frame> frames = turn(new Answer(new Reply.Final("hello.txt written"), null, new Answer.Usage(120, 5), List.of()));

    assertThat(frames).extracting(Frame::event).containsExactly(
        "response.created", "response.in_progress", "keepalive",
        "response.output_item.added", "response.content_part.added", "response.output_text.delta",
        "response.output_text.done", "response.content_part.done", "response.output_item.done", "response.completed");
    assertThat(frames).extracting(f -> f.data().path("sequence_number").asLong())
        .containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);
    JsonNode created = frames.get(0).data().path("response");
    assertThat(created.path("id").asText()).isEqualTo("resp_0123abcd");
    assertThat(created.path("status").asText()).isEqualTo("in_progress");
    assertThat(created.path("output")).isEmpty();

    JsonNode added = frames.get(3).data().path("item");
    assertThat(added.path("type").asText()).isEqualTo("message");
    assertThat(added.path("status").asText()).isEqualTo("in_progress");
    assertThat(added.path("content")).isEmpty();
    String itemId = added.path("id").asText();
    assertThat(frames.get(5).data().path("delta").asText()).isEqualTo("hello.txt written");
    assertThat(frames.get(5).data().path("item_id").asText()).isEqualTo(itemId);
    assertThat(frames.get(6).data().path("text").asText()).isEqualTo("hello.txt written");
    JsonNode done = frames.get(8).data().path("item");
    assertThat(done.path("id").asText()).isEqualTo(itemId);
    assertThat(done.path("status").asText()).isEqualTo("completed");
    assertThat(done.path("role").asText()).isEqualTo("assistant");
    assertThat(done.path("content").get(0).path("type").asText()).isEqualTo("output_text");
    assertThat(done.path("content").get(0).path("text").asText()).isEqualTo("hello.txt written");

    JsonNode completed = frames.get(9).data().path("response");
    assertThat(completed.path("status").asText()).isEqualTo("completed");
    assertThat(completed.path("output").get(0)).isEqualTo(done);
    assertThat(completed.path("usage").path("input_tokens").asLong()).isEqualTo(120);
    assertThat(completed.path("usage").path("output_tokens").asLong()).isEqualTo(5);
    assertThat(completed.path("usage").path("total_tokens").asLong()).isEqualTo(125);
    assertThat(completed.path("usage").path("usage_estimated").asBoolean()).isTrue();
  }

  @Test
  void aToolCallIsTheArgumentEventSequenceUnderTheCallId() throws Exception {
    ObjectNode arguments = JSON.createObjectNode().put("cmd", "echo hi > hello.txt");
    List<Frame> frames = turn(new Answer(new Reply.ToolCall("exec_command", arguments), List.of("call_1_0a1b2c3d"),
        new Answer.Usage(100, 10), List.of()));

    assertThat(frames).extracting(Frame::event).containsExactly(
        "response.created", "response.in_progress", "keepalive",
        "response.output_item.added", "response.function_call_arguments.delta",
        "response.function_call_arguments.done", "response.output_item.done", "response.completed");
    JsonNode added = frames.get(3).data().path("item");
    assertThat(added.path("type").asText()).isEqualTo("function_call");
    assertThat(added.path("arguments").asText()).isEmpty();
    assertThat(frames.get(4).data().path("delta").asText()).isEqualTo(arguments.toString());
    assertThat(frames.get(5).data().path("arguments").asText()).isEqualTo(arguments.toString());
    JsonNode done = frames.get(6).data().path("item");
    assertThat(done.path("call_id").asText()).isEqualTo("call_1_0a1b2c3d");
    assertThat(done.path("name").asText()).isEqualTo("exec_command");
    assertThat(done.has("namespace")).isFalse();
    assertThat(JSON.readTree(done.path("arguments").asText())).isEqualTo(arguments);
    assertThat(done.path("status").asText()).isEqualTo("completed");
  }

  @Test
  void aNamespacedCallIsMappedBackToItsNamespaceAndName() throws Exception {
    Answer answer = new Answer(new Reply.ToolCall("multi_agent_v1.spawn_agent", JSON.createObjectNode().put("message", "go")),
        List.of("call_2_0a1b2c3d"), new Answer.Usage(1, 1), List.of());

    JsonNode item = events.whole(answer).path("output").get(0);

    assertThat(item.path("namespace").asText()).isEqualTo("multi_agent_v1");
    assertThat(item.path("name").asText()).isEqualTo("spawn_agent");
  }

  @Test
  void aFailureAfterCommitIsOneResponseFailedCarryingTheTypedFailure() throws Exception {
    ProviderFailure cap = ProviderFailure.capped("usage cap reached", Instant.parse("2030-01-01T00:00:00Z"),
        Instant.parse("2029-12-31T23:00:00Z"));
    events.opening();

    List<String> raw = events.failure(cap);

    assertThat(raw).hasSize(1);
    Frame failed = frame(raw.get(0));
    assertThat(failed.event()).isEqualTo("response.failed");
    assertThat(failed.data().path("sequence_number").asLong()).isEqualTo(2);
    JsonNode response = failed.data().path("response");
    assertThat(response.path("status").asText()).isEqualTo("failed");
    JsonNode error = response.path("error");
    assertThat(error.path("code").asText()).isEqualTo("usage_limit_reached");
    assertThat(error.path("message").asText()).isEqualTo("capped: usage cap reached resume_at=2030-01-01T00:00:00Z");
    assertThat(error.path("resets_at").asLong()).isEqualTo(Instant.parse("2030-01-01T00:00:00Z").getEpochSecond());
    assertThat(ProviderFailure.fromJson(error.path("metadata").path("raw").asText())).isEqualTo(cap);
  }

  @Test
  void overflowKeepsTheCodeCodexReadsAsAFullContextWindow() throws Exception {
    ProviderFailure overflow = ProviderFailure.of(ProviderFailure.Kind.CONTEXT_OVERFLOW, "exceeds the context window");

    JsonNode error = frame(events.failure(overflow).get(0)).data().path("response").path("error");

    assertThat(error.path("code").asText()).isEqualTo("context_length_exceeded");
    assertThat(error.path("type").asText()).isEqualTo("context_overflow");
  }

  @Test
  void theWholeResponseIsTheCompletedObject() throws Exception {
    JsonNode whole = events.whole(new Answer(new Reply.Final("ok"), null, new Answer.Usage(3, 1), List.of()));

    assertThat(whole.path("object").asText()).isEqualTo("response");
    assertThat(whole.path("status").asText()).isEqualTo("completed");
    assertThat(whole.path("model").asText()).isEqualTo("sol-web-high");
    assertThat(whole.path("created_at").asLong()).isEqualTo(1700000000L);
    assertThat(whole.path("store").asBoolean()).isFalse();
    assertThat(whole.path("output").get(0).path("content").get(0).path("text").asText()).isEqualTo("ok");
    assertThat(whole.path("usage").path("total_tokens").asLong()).isEqualTo(4);
  }
}

package dev.solweb.provider.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.protocol.Reply;
import dev.solweb.provider.translate.Answer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Messages wire on bytes: Anthropic's event order, each frame exactly as Claude Code reads it. */
class MessagesEventsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Answer.Usage USAGE = new Answer.Usage(1200, 34);

  private final MessagesEvents events = new MessagesEvents("msg_0123abcd", "sol-web-high");

  private String stream(Answer answer) {
    List<String> frames = new ArrayList<>(events.opening());
    frames.add(events.keepAlive());
    frames.addAll(events.answer(answer));
    return String.join("", frames);
  }

  private static ObjectNode args(String json) throws Exception {
    return (ObjectNode) JSON.readTree(json);
  }

  @Test
  void aFinalAnswerIsOneTextBlockInAnthropicsOrderByteForByte() {
    String bytes = stream(Answer.text("Created hello.txt.", USAGE, List.of()));

    assertThat(bytes).isEqualTo("""
        event: message_start
        data: {"type":"message_start","message":{"id":"msg_0123abcd","type":"message","role":"assistant","model":"sol-web-high","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":0,"output_tokens":0}}}

        event: ping
        data: {"type":"ping"}

        event: content_block_start
        data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}

        event: content_block_delta
        data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Created hello.txt."}}

        event: content_block_stop
        data: {"type":"content_block_stop","index":0}

        event: message_delta
        data: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"input_tokens":1200,"output_tokens":34,"usage_estimated":true}}

        event: message_stop
        data: {"type":"message_stop"}

        """);
  }

  @Test
  void severalCallsAreSeveralToolUseBlocksInCallOrderByteForByte() throws Exception {
    Reply calls = new Reply.ToolCalls(List.of(
        new Reply.ToolCall("Read", args("{\"file_path\":\"a.txt\"}")),
        new Reply.ToolCall("Bash", args("{\"command\":\"ls\"}"))));
    String bytes = stream(new Answer(calls, List.of("call_1_0000000a", "call_1_0000000b"), USAGE, List.of()));

    assertThat(bytes).endsWith("""
        event: content_block_start
        data: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"call_1_0000000a","name":"Read","input":{}}}

        event: content_block_delta
        data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\\"file_path\\":\\"a.txt\\"}"}}

        event: content_block_stop
        data: {"type":"content_block_stop","index":0}

        event: content_block_start
        data: {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"call_1_0000000b","name":"Bash","input":{}}}

        event: content_block_delta
        data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\\"command\\":\\"ls\\"}"}}

        event: content_block_stop
        data: {"type":"content_block_stop","index":1}

        event: message_delta
        data: {"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"input_tokens":1200,"output_tokens":34,"usage_estimated":true}}

        event: message_stop
        data: {"type":"message_stop"}

        """);
  }

  @Test
  void theWholeMessageCarriesTheSameBlocksAndStopReason() throws Exception {
    Reply call = new Reply.ToolCall("Write", args("{\"file_path\":\"hello.txt\",\"content\":\"hi\"}"));
    ObjectNode whole = events.whole(new Answer(call, List.of("call_2_0000000c"), USAGE, List.of()));

    assertThat(whole.toString()).isEqualTo("{\"id\":\"msg_0123abcd\",\"type\":\"message\",\"role\":\"assistant\","
        + "\"model\":\"sol-web-high\",\"content\":[{\"type\":\"tool_use\",\"id\":\"call_2_0000000c\",\"name\":\"Write\","
        + "\"input\":{\"file_path\":\"hello.txt\",\"content\":\"hi\"}}],\"stop_reason\":\"tool_use\",\"stop_sequence\":null,"
        + "\"usage\":{\"input_tokens\":1200,\"output_tokens\":34,\"usage_estimated\":true}}");
  }

  @Test
  void aFailureAfterCommitIsOneErrorEventAndNoMessageStop() {
    ProviderFailure cap = ProviderFailure.capped("usage cap reached", Instant.parse("2030-01-01T00:00:00Z"),
        Instant.parse("2029-12-31T23:00:00Z"));
    List<String> frames = events.failure(cap);

    assertThat(frames).containsExactly("event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\","
        + "\"message\":\"capped: usage cap reached resume_at=2030-01-01T00:00:00Z\",\"metadata\":{\"raw\":"
        + JSON.valueToTree(cap.toJson()) + "},\"resume_at\":\"2030-01-01T00:00:00Z\"}}\n\n");
    assertThat(String.join("", events.failure(ProviderFailure.of(ProviderFailure.Kind.UNAVAILABLE, "logged out"))))
        .contains("\"type\":\"overloaded_error\"").doesNotContain("message_stop");
    assertThat(String.join("", events.failure(ProviderFailure.of(ProviderFailure.Kind.CONTEXT_OVERFLOW, "too big"))))
        .contains("\"type\":\"invalid_request_error\",\"message\":\"prompt is too long: context_overflow: too big\"");
  }
}

package dev.solweb.provider.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.platform.Json;
import dev.solweb.provider.protocol.Reply;
import dev.solweb.provider.translate.Answer;
import io.vertx.core.http.HttpServerResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The Messages wire for one turn, in Anthropic's event order: {@code message_start} at commit,
 * {@code ping} as the keep-alive, then per content block (the one text block of a final answer,
 * or one {@code tool_use} block per call, in call order, at indexes 0, 1, ...)
 * {@code content_block_start}, one {@code content_block_delta} ({@code text_delta} or
 * {@code input_json_delta} with the whole arguments) and {@code content_block_stop}, then
 * {@code message_delta} with the {@code stop_reason} ({@code end_turn} or {@code tool_use}) and
 * estimated usage, and {@code message_stop}. A failure after commit is one {@code error} event
 * and no {@code message_stop}. Usage is the conversation's estimate, marked
 * {@code usage_estimated}; {@code max_tokens} is never a stop reason, as the page's answer is
 * never cut.
 *
 * <p>Not thread-safe: one instance per turn, used on the event loop.
 */
final class MessagesEvents implements TurnWire {
  private static final ObjectMapper JSON = Json.MAPPER;

  private final String id;
  private final String model;

  MessagesEvents(String id, String model) {
    this.id = id;
    this.model = model;
  }

  static String newId() {
    return "msg_" + UUID.randomUUID().toString().replace("-", "");
  }

  @Override
  public List<String> opening() {
    ObjectNode message = message();
    message.putArray("content");
    message.putNull("stop_reason");
    message.putNull("stop_sequence");
    message.putObject("usage").put("input_tokens", 0).put("output_tokens", 0);
    return List.of(event("message_start", JSON.createObjectNode().set("message", message)));
  }

  @Override
  public String keepAlive() {
    return event("ping", JSON.createObjectNode());
  }

  @Override
  public List<String> answer(Answer answer) {
    List<String> frames = new ArrayList<>();
    if (answer.reply() instanceof Reply.Final text) {
      ObjectNode start = JSON.createObjectNode().put("type", "text").put("text", "");
      ObjectNode delta = JSON.createObjectNode().put("type", "text_delta").put("text", text.text());
      block(frames, 0, start, delta);
    } else {
      List<Answer.Call> calls = answer.calls();
      for (int index = 0; index < calls.size(); index++) {
        ObjectNode start = toolUse(calls.get(index));
        start.putObject("input");
        ObjectNode delta = JSON.createObjectNode().put("type", "input_json_delta")
            .put("partial_json", calls.get(index).arguments().toString());
        block(frames, index, start, delta);
      }
    }
    ObjectNode messageDelta = JSON.createObjectNode();
    messageDelta.putObject("delta").put("stop_reason", stopReason(answer)).putNull("stop_sequence");
    messageDelta.set("usage", usage(answer));
    frames.add(event("message_delta", messageDelta));
    frames.add(event("message_stop", JSON.createObjectNode()));
    return frames;
  }

  @Override
  public List<String> failure(ProviderFailure failure) {
    return List.of(frame("error", AnthropicErrors.failure(failure)));
  }

  @Override
  public ObjectNode whole(Answer answer) {
    ObjectNode message = message();
    ArrayNode content = message.putArray("content");
    if (answer.reply() instanceof Reply.Final text) {
      content.addObject().put("type", "text").put("text", text.text());
    } else {
      answer.calls().forEach(call -> content.add(toolUse(call).set("input", call.arguments())));
    }
    message.put("stop_reason", stopReason(answer));
    message.putNull("stop_sequence");
    message.set("usage", usage(answer));
    return message;
  }

  @Override
  public void refuse(HttpServerResponse response, ProviderFailure failure) {
    AnthropicErrors.send(response, failure);
  }

  private ObjectNode message() {
    return JSON.createObjectNode().put("id", id).put("type", "message").put("role", "assistant").put("model", model);
  }

  private static ObjectNode toolUse(Answer.Call call) {
    return JSON.createObjectNode().put("type", "tool_use").put("id", call.id()).put("name", call.name());
  }

  private static void block(List<String> frames, int index, ObjectNode start, ObjectNode delta) {
    frames.add(event("content_block_start", JSON.createObjectNode().put("index", index).set("content_block", start)));
    frames.add(event("content_block_delta", JSON.createObjectNode().put("index", index).set("delta", delta)));
    frames.add(event("content_block_stop", JSON.createObjectNode().put("index", index)));
  }

  private static String stopReason(Answer answer) {
    return answer.reply() instanceof Reply.Final ? "end_turn" : "tool_use";
  }

  private static ObjectNode usage(Answer answer) {
    return JSON.createObjectNode().put("input_tokens", answer.usage().promptTokens())
        .put("output_tokens", answer.usage().completionTokens()).put("usage_estimated", true);
  }

  /** {@code event: <type>} and the data carrying the same {@code type} first. */
  private static String event(String type, ObjectNode body) {
    ObjectNode data = JSON.createObjectNode().put("type", type);
    data.setAll(body);
    return frame(type, data);
  }

  private static String frame(String type, ObjectNode data) {
    return "event: " + type + "\ndata: " + data + "\n\n";
  }
}

package dev.solweb.provider.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.platform.Json;
import dev.solweb.provider.platform.Json;
import dev.solweb.provider.protocol.Reply;
import dev.solweb.provider.translate.Answer;
import io.vertx.core.http.HttpServerResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The Responses wire for one turn: named SSE events ({@code event: <type>} plus a JSON
 * {@code data:} line carrying the same {@code type} and a {@code sequence_number}), in the order
 * a Responses client expects, each once: {@code response.created}, {@code response.in_progress},
 * then for each output item (the one message of a final answer, or one {@code function_call} per
 * call, in call order, at output indexes 0, 1, ...) {@code response.output_item.added}, its
 * content or argument events, {@code response.output_item.done}, and {@code response.completed}
 * with every item and estimated usage, or {@code response.failed} carrying the typed
 * {@link ProviderFailure}.
 *
 * <p>Keep-alives are {@code keepalive} events: Codex's idle timer only resets on a parsed event
 * (comments never reach it), and it ignores event types it does not know.
 *
 * <p>Not thread-safe: one instance per turn, used on the event loop.
 */
final class ResponsesEvents implements TurnWire {
  private static final ObjectMapper JSON = Json.MAPPER;

  private final String id;
  private final String model;
  private final long createdAt;
  private final Map<String, ResponsesRequest.ToolName> toolNames;
  private long sequence;

  ResponsesEvents(String id, String model, long createdAt, Map<String, ResponsesRequest.ToolName> toolNames) {
    this.id = id;
    this.model = model;
    this.createdAt = createdAt;
    this.toolNames = Map.copyOf(toolNames);
  }

  static String newId() {
    return "resp_" + UUID.randomUUID().toString().replace("-", "");
  }

  @Override
  public List<String> opening() {
    ObjectNode response = response("in_progress");
    return List.of(
        event("response.created", JSON.createObjectNode().set("response", response)),
        event("response.in_progress", JSON.createObjectNode().set("response", response)));
  }

  @Override
  public String keepAlive() {
    return event("keepalive", JSON.createObjectNode());
  }

  @Override
  public List<String> answer(Answer answer) {
    List<String> frames = new ArrayList<>();
    if (answer.reply() instanceof Reply.Final text) {
      ObjectNode done = message(text, "completed");
      String itemId = done.path("id").asText();
      ObjectNode pending = message(text, "in_progress");
      pending.putArray("content");
      frames.add(event("response.output_item.added", JSON.createObjectNode().put("output_index", 0).set("item", pending)));
      frames.add(event("response.content_part.added", part(itemId).set("part", textPart(""))));
      frames.add(event("response.output_text.delta", part(itemId).put("delta", text.text())));
      frames.add(event("response.output_text.done", part(itemId).put("text", text.text())));
      frames.add(event("response.content_part.done", part(itemId).set("part", textPart(text.text()))));
      frames.add(event("response.output_item.done", JSON.createObjectNode().put("output_index", 0).set("item", done)));
    } else {
      List<Answer.Call> calls = answer.calls();
      for (int index = 0; index < calls.size(); index++) {
        ObjectNode done = functionCall(calls.get(index), "completed");
        String itemId = done.path("id").asText();
        String arguments = done.path("arguments").asText();
        ObjectNode pending = functionCall(calls.get(index), "in_progress").put("arguments", "");
        frames.add(event("response.output_item.added",
            JSON.createObjectNode().put("output_index", index).set("item", pending)));
        frames.add(event("response.function_call_arguments.delta",
            JSON.createObjectNode().put("item_id", itemId).put("output_index", index).put("delta", arguments)));
        frames.add(event("response.function_call_arguments.done",
            JSON.createObjectNode().put("item_id", itemId).put("output_index", index).put("arguments", arguments)));
        frames.add(event("response.output_item.done", JSON.createObjectNode().put("output_index", index).set("item", done)));
      }
    }
    frames.add(event("response.completed", JSON.createObjectNode().set("response", whole(answer))));
    return frames;
  }

  @Override
  public List<String> failure(ProviderFailure failure) {
    ObjectNode response = response("failed");
    response.set("error", ResponsesErrors.streamError(failure));
    return List.of(event("response.failed", JSON.createObjectNode().set("response", response)));
  }

  @Override
  public ObjectNode whole(Answer answer) {
    ObjectNode response = response("completed");
    ArrayNode output = response.putArray("output");
    if (answer.reply() instanceof Reply.Final text) {
      output.add(message(text, "completed"));
    } else {
      answer.calls().forEach(call -> output.add(functionCall(call, "completed")));
    }
    response.set("usage", usage(answer));
    return response;
  }

  @Override
  public void refuse(HttpServerResponse response, ProviderFailure failure) {
    ResponsesErrors.send(response, failure);
  }

  private ObjectNode response(String status) {
    ObjectNode response = JSON.createObjectNode();
    response.put("id", id);
    response.put("object", "response");
    response.put("created_at", createdAt);
    response.put("status", status);
    response.put("model", model);
    response.putArray("output");
    response.putNull("error");
    response.putNull("incomplete_details");
    response.putNull("usage");
    response.put("store", false);
    return response;
  }

  /** One call's output item, its id stable across the events of this turn. */
  private ObjectNode functionCall(Answer.Call call, String status) {
    ObjectNode item = JSON.createObjectNode();
    item.put("id", "fc_" + call.id());
    item.put("type", "function_call");
    item.put("status", status);
    item.put("call_id", call.id());
    ResponsesRequest.ToolName name = toolNames.get(call.name());
    if (name != null && name.namespace() != null) {
      item.put("namespace", name.namespace());
      item.put("name", name.name());
    } else {
      item.put("name", call.name());
    }
    item.put("arguments", call.arguments().toString());
    return item;
  }

  /** A final answer's one message item. */
  private ObjectNode message(Reply.Final text, String status) {
    ObjectNode item = JSON.createObjectNode();
    item.put("id", "msg_" + id.substring("resp_".length()));
    item.put("type", "message");
    item.put("status", status);
    item.put("role", "assistant");
    item.putArray("content").add(textPart(text.text()));
    return item;
  }

  private static ObjectNode part(String itemId) {
    return JSON.createObjectNode().put("item_id", itemId).put("output_index", 0).put("content_index", 0);
  }

  private static ObjectNode textPart(String text) {
    ObjectNode part = JSON.createObjectNode().put("type", "output_text").put("text", text);
    part.putArray("annotations");
    return part;
  }

  private static ObjectNode usage(Answer answer) {
    ObjectNode usage = JSON.createObjectNode();
    usage.put("input_tokens", answer.usage().promptTokens());
    usage.putObject("input_tokens_details").put("cached_tokens", 0);
    usage.put("output_tokens", answer.usage().completionTokens());
    usage.putObject("output_tokens_details").put("reasoning_tokens", 0);
    usage.put("total_tokens", answer.usage().promptTokens() + answer.usage().completionTokens());
    usage.put("usage_estimated", true);
    return usage;
  }

  private String event(String type, ObjectNode body) {
    ObjectNode data = JSON.createObjectNode().put("type", type).put("sequence_number", sequence++);
    data.setAll(body);
    return "event: " + type + "\ndata: " + data + "\n\n";
  }
}

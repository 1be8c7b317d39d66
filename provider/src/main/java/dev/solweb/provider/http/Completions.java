package dev.solweb.provider.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.platform.Json;
import dev.solweb.provider.protocol.Reply;
import dev.solweb.provider.translate.Answer;
import java.util.ArrayList;
import java.util.List;

/**
 * OpenAI chat-completions JSON for an {@link Answer}: the whole {@code chat.completion}, and the
 * {@code chat.completion.chunk}s of a stream. Every call of a reply is one entry of the one
 * assistant message's {@code tool_calls}, with its own id; tool-call deltas always carry
 * {@code index} (Pi assembles fragments by it, ccr opens one tool_use block per index).
 */
final class Completions {
  private static final ObjectMapper JSON = Json.MAPPER;

  private final String id;
  private final String model;
  private final long created;

  Completions(String id, String model, long created) {
    this.id = id;
    this.model = model;
    this.created = created;
  }

  static String finishReason(Answer answer) {
    if (answer.reply() instanceof Reply.Final) {
      return "stop";
    }
    if (!answer.calls().isEmpty()) {
      return "tool_calls";
    }
    throw new IllegalStateException("Unhandled reply: " + answer.reply());
  }

  ObjectNode completion(Answer answer) {
    ObjectNode root = header("chat.completion");
    ObjectNode choice = root.putArray("choices").addObject();
    choice.put("index", 0);
    ObjectNode message = choice.putObject("message");
    message.put("role", "assistant");
    if (answer.reply() instanceof Reply.Final text) {
      message.put("content", text.text());
    } else {
      message.putNull("content");
      ArrayNode calls = message.putArray("tool_calls");
      answer.calls().forEach(call -> fillCall(calls.addObject(), call));
    }
    choice.put("finish_reason", finishReason(answer));
    root.set("usage", usage(answer));
    return root;
  }

  /** The first chunk: the role, before anything is known. */
  ObjectNode roleChunk() {
    ObjectNode chunk = header("chat.completion.chunk");
    choice(chunk).putObject("delta").put("role", "assistant");
    return chunk;
  }

  /** A well-formed empty delta: keeps proxies that parse every event (ccr) from timing out. */
  ObjectNode keepAliveChunk() {
    ObjectNode chunk = header("chat.completion.chunk");
    choice(chunk).putObject("delta");
    return chunk;
  }

  /**
   * The answer's content chunks: the text in one chunk, or one chunk per call (its {@code index},
   * id, name and whole arguments), in call order, as OpenAI streams several calls.
   */
  List<ObjectNode> answerChunks(Answer answer) {
    if (answer.reply() instanceof Reply.Final text) {
      ObjectNode chunk = header("chat.completion.chunk");
      choice(chunk).putObject("delta").put("content", text.text());
      return List.of(chunk);
    }
    List<ObjectNode> chunks = new ArrayList<>();
    List<Answer.Call> calls = answer.calls();
    for (int i = 0; i < calls.size(); i++) {
      ObjectNode chunk = header("chat.completion.chunk");
      ObjectNode entry = choice(chunk).putObject("delta").putArray("tool_calls").addObject();
      entry.put("index", i);
      fillCall(entry, calls.get(i));
      chunks.add(chunk);
    }
    return chunks;
  }

  /** The finish chunk; it carries usage itself when the client did not ask for a usage chunk. */
  ObjectNode finishChunk(Answer answer, boolean withUsage) {
    ObjectNode chunk = header("chat.completion.chunk");
    ObjectNode choice = choice(chunk);
    choice.putObject("delta");
    choice.put("finish_reason", finishReason(answer));
    if (withUsage) {
      chunk.set("usage", usage(answer));
    }
    return chunk;
  }

  ObjectNode usageChunk(Answer answer) {
    ObjectNode chunk = header("chat.completion.chunk");
    chunk.putArray("choices");
    chunk.set("usage", usage(answer));
    return chunk;
  }

  private ObjectNode header(String object) {
    ObjectNode root = JSON.createObjectNode();
    root.put("id", id);
    root.put("object", object);
    root.put("created", created);
    root.put("model", model);
    return root;
  }

  private static ObjectNode choice(ObjectNode chunk) {
    ArrayNode choices = chunk.putArray("choices");
    ObjectNode choice = choices.addObject();
    choice.put("index", 0);
    choice.putNull("finish_reason");
    return choice;
  }

  private static void fillCall(ObjectNode entry, Answer.Call call) {
    entry.put("id", call.id());
    entry.put("type", "function");
    ObjectNode function = entry.putObject("function");
    function.put("name", call.name());
    function.put("arguments", call.arguments().toString());
  }

  private static ObjectNode usage(Answer answer) {
    ObjectNode usage = JSON.createObjectNode();
    usage.put("prompt_tokens", answer.usage().promptTokens());
    usage.put("completion_tokens", answer.usage().completionTokens());
    usage.put("total_tokens", answer.usage().promptTokens() + answer.usage().completionTokens());
    usage.put("usage_estimated", true);
    return usage;
  }
}

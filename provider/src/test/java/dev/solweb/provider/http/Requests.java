package dev.solweb.provider.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Builds OpenAI chat-completions request bodies the way Pi sends them. */
final class Requests {
  private final ObjectNode body = TestDaemon.JSON.createObjectNode();
  private final ArrayNode messages = body.putArray("messages");

  static Requests chat(String model) {
    Requests requests = new Requests();
    requests.body.put("model", model);
    return requests;
  }

  Requests system(String text) {
    messages.addObject().put("role", "system").put("content", text);
    return this;
  }

  /** A user message with Pi's array-of-text-parts content. */
  Requests user(String text) {
    messages.addObject().put("role", "user").putArray("content").addObject().put("type", "text").put("text", text);
    return this;
  }

  Requests assistantCall(String id, String name, String argumentsJson) {
    ObjectNode message = messages.addObject().put("role", "assistant");
    message.putNull("content");
    ObjectNode call = message.putArray("tool_calls").addObject().put("id", id).put("type", "function");
    call.putObject("function").put("name", name).put("arguments", argumentsJson);
    return this;
  }

  /** One assistant message with several calls: each entry is {id, name, arguments JSON}. */
  Requests assistantCalls(java.util.List<String[]> calls) {
    ObjectNode message = messages.addObject().put("role", "assistant");
    message.putNull("content");
    ArrayNode entries = message.putArray("tool_calls");
    for (String[] call : calls) {
      entries.addObject().put("id", call[0]).put("type", "function").putObject("function").put("name", call[1])
          .put("arguments", call[2]);
    }
    return this;
  }

  Requests assistantText(String text) {
    messages.addObject().put("role", "assistant").put("content", text);
    return this;
  }

  Requests toolResult(String id, String content) {
    messages.addObject().put("role", "tool").put("tool_call_id", id).put("content", content);
    return this;
  }

  Requests tool(String name) {
    ArrayNode tools = body.has("tools") ? (ArrayNode) body.get("tools") : body.putArray("tools");
    ObjectNode function = tools.addObject().put("type", "function").putObject("function");
    function.put("name", name).put("description", "the " + name + " tool");
    function.putObject("parameters").put("type", "object");
    return this;
  }

  /** A tool with its own JSON Schema. */
  Requests tool(String name, String parametersJson) {
    ArrayNode tools = body.has("tools") ? (ArrayNode) body.get("tools") : body.putArray("tools");
    ObjectNode function = tools.addObject().put("type", "function").putObject("function");
    try {
      function.put("name", name).set("parameters", TestDaemon.JSON.readTree(parametersJson));
    } catch (java.io.IOException e) {
      throw new IllegalArgumentException(e);
    }
    return this;
  }

  Requests parallelToolCalls(boolean allowed) {
    body.put("parallel_tool_calls", allowed);
    return this;
  }

  Requests stream(boolean includeUsage) {
    body.put("stream", true);
    if (includeUsage) {
      body.putObject("stream_options").put("include_usage", true);
    }
    return this;
  }

  String json() {
    return body.toString();
  }
}

package dev.solweb.provider.protocol;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.platform.Json;
import java.io.IOException;
import java.util.List;
import java.util.Set;

/**
 * Parses the code blocks a seat extracted from the reply turn (never a fence regex over
 * innerText): exactly one JSON block naming a known tool with object arguments is a
 * {@link Reply.ToolCall}; {@code {"tool":"final","text":...}} is a {@link Reply.Final}; zero
 * blocks is {@link Reply.Final} of the prose (an empty reply is malformed); anything else is
 * {@link Reply.Malformed}.
 */
public final class ReplyParser {
  // Trailing tokens fail: a block holding two objects (two calls) must be Malformed, not the first
  // call with the second silently dropped.
  private static final ObjectMapper JSON =
      Json.MAPPER.copy().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private ReplyParser() {}

  public static Reply parse(List<String> blocks, String prose, Set<String> knownTools) {
    if (blocks.isEmpty()) {
      // An empty page turn is a reading failure or a refusal to answer, never a final answer.
      return prose.isBlank() ? new Reply.Malformed("the reply was empty") : new Reply.Final(prose.strip());
    }
    if (blocks.size() > 1) {
      return new Reply.Malformed("the reply had " + blocks.size() + " code blocks; exactly one is allowed");
    }
    JsonNode call;
    try {
      call = JSON.readTree(blocks.get(0));
    } catch (IOException e) {
      return new Reply.Malformed("the code block is not valid JSON: " + firstLine(e.getMessage()));
    }
    if (call == null || !call.isObject()) {
      return new Reply.Malformed("the code block must be one JSON object with a \"tool\" key");
    }
    JsonNode tool = call.get("tool");
    if (tool == null || !tool.isTextual()) {
      return new Reply.Malformed("the JSON object has no string \"tool\" key");
    }
    if (tool.asText().equals("final")) {
      JsonNode text = call.get("text");
      if (text == null || !text.isTextual()) {
        return new Reply.Malformed("a final answer needs a string \"text\" key");
      }
      return new Reply.Final(text.asText());
    }
    if (!knownTools.contains(tool.asText())) {
      return new Reply.Malformed("unknown tool \"" + tool.asText() + "\"; the tools are: "
          + String.join(", ", knownTools.stream().sorted().toList()) + ", final");
    }
    JsonNode arguments = call.get("arguments");
    if (arguments == null || !arguments.isObject()) {
      return new Reply.Malformed("\"arguments\" for tool \"" + tool.asText() + "\" must be a JSON object");
    }
    return new Reply.ToolCall(tool.asText(), (ObjectNode) arguments);
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "unparseable";
    }
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }
}

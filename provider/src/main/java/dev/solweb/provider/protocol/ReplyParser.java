package dev.solweb.provider.protocol;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.platform.Json;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Parses the code blocks a seat extracted from the reply turn (never a fence regex over
 * innerText). Exactly one JSON block, in one of three shapes: {@code {"tool": <known tool>,
 * "arguments": {...}}} is a {@link Reply.ToolCall}; {@code {"calls": [call, ...]}} is the calls in
 * order ({@link Reply#of}: one entry is a {@link Reply.ToolCall}, more a {@link Reply.ToolCalls});
 * {@code {"tool": "final", "text": ...}} is a {@link Reply.Final}. Zero blocks is {@link Reply.Final}
 * of the prose (an empty reply is malformed). Anything else is {@link Reply.Malformed}, naming
 * the entry at fault for the one correction turn: an unknown tool, arguments against the tool's
 * schema ({@link ArgumentCheck}), an empty list, {@code final} among the calls, more calls than
 * {@link ReplyRules#maxCalls()}.
 */
public final class ReplyParser {
  // Trailing tokens fail: a block holding two objects (two calls) must be Malformed, not the first
  // call with the second silently dropped.
  private static final ObjectMapper JSON =
      Json.MAPPER.copy().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private ReplyParser() {}

  /** Tools known by name only, with the default cap (no schemas to check). */
  public static Reply parse(List<String> blocks, String prose, Set<String> knownTools) {
    return parse(blocks, prose, ReplyRules.names(knownTools));
  }

  public static Reply parse(List<String> blocks, String prose, ReplyRules rules) {
    if (blocks.isEmpty()) {
      // An empty page turn is a reading failure or a refusal to answer, never a final answer.
      return prose.isBlank() ? new Reply.Malformed("the reply was empty") : new Reply.Final(prose.strip());
    }
    if (blocks.size() > 1) {
      return new Reply.Malformed("the reply had " + blocks.size() + " code blocks; exactly one is allowed"
          + (rules.maxCalls() > 1 ? " (several calls go in one block: {\"calls\": [...]})" : ""));
    }
    JsonNode root;
    try {
      root = JSON.readTree(blocks.get(0));
    } catch (IOException e) {
      return new Reply.Malformed("the code block is not valid JSON: " + firstLine(e.getMessage()));
    }
    if (root == null || !root.isObject()) {
      return new Reply.Malformed("the code block must be one JSON object with a \"tool\" key");
    }
    if (root.has("calls") && !root.has("tool")) {
      return calls(root.get("calls"), rules);
    }
    JsonNode tool = root.get("tool");
    if (tool == null || !tool.isTextual()) {
      return new Reply.Malformed("the JSON object has no string \"tool\" key");
    }
    if (tool.asText().equals("final")) {
      JsonNode text = root.get("text");
      if (text == null || !text.isTextual()) {
        return new Reply.Malformed("a final answer needs a string \"text\" key");
      }
      return new Reply.Final(text.asText());
    }
    Entry entry = entry(root, rules, "");
    return entry.problem == null ? entry.call : new Reply.Malformed(entry.problem);
  }

  private static Reply calls(JsonNode calls, ReplyRules rules) {
    if (calls == null || !calls.isArray()) {
      return new Reply.Malformed("\"calls\" must be a JSON array of {\"tool\": ..., \"arguments\": {...}} objects");
    }
    if (calls.isEmpty()) {
      return new Reply.Malformed("\"calls\" is an empty list; make at least one call, or give the final answer"
          + " {\"tool\": \"final\", \"text\": \"...\"}");
    }
    if (calls.size() > rules.maxCalls()) {
      return new Reply.Malformed(tooMany(calls.size(), rules));
    }
    List<Reply.ToolCall> parsed = new ArrayList<>();
    for (int i = 0; i < calls.size(); i++) {
      String where = "calls[" + i + "]";
      JsonNode call = calls.get(i);
      if (!call.isObject()) {
        return new Reply.Malformed(where + " must be a JSON object {\"tool\": ..., \"arguments\": {...}}");
      }
      JsonNode tool = call.get("tool");
      if (tool == null || !tool.isTextual()) {
        return new Reply.Malformed(where + " has no string \"tool\" key");
      }
      if (tool.asText().equals("final")) {
        return new Reply.Malformed(where + " is the final answer, which never goes among calls; either make the"
            + " calls and wait for their results, or reply with {\"tool\": \"final\", \"text\": \"...\"} alone");
      }
      Entry entry = entry(call, rules, where + " ");
      if (entry.problem != null) {
        return new Reply.Malformed(entry.problem);
      }
      parsed.add(entry.call);
    }
    return Reply.of(parsed);
  }

  private static String tooMany(int count, ReplyRules rules) {
    if (rules.maxCalls() == 1) {
      return "the reply had " + count + " calls, but " + (rules.oneByRequest()
          ? "this agent asked for one call per reply (parallel_tool_calls: false)"
          : "this daemon allows one call per reply (" + ReplyRules.MAX_CALLS_ENV + "=1)")
          + "; make only the first call now and the others after its result";
    }
    return "the reply had " + count + " calls; at most " + rules.maxCalls() + " go in one reply: make the first "
        + rules.maxCalls() + " now and the rest after their results";
  }

  /** One call, or the problem with it. */
  private record Entry(Reply.ToolCall call, String problem) {}

  /** {@code where} prefixes the problem: "calls[2] " in a list, empty for a lone call. */
  private static Entry entry(JsonNode call, ReplyRules rules, String where) {
    String name = call.get("tool").asText();
    ToolSpec spec = rules.tools().get(name);
    if (spec == null) {
      return new Entry(null, where + "unknown tool \"" + name + "\"; the tools are: "
          + String.join(", ", rules.toolNames().stream().sorted().toList()) + ", final");
    }
    JsonNode arguments = call.get("arguments");
    if (arguments == null || !arguments.isObject()) {
      return new Entry(null, where + "\"arguments\" for tool \"" + name + "\" must be a JSON object");
    }
    Optional<String> violation = ArgumentCheck.violation(spec.parameters(), arguments);
    if (violation.isPresent()) {
      return new Entry(null, where + "tool \"" + name + "\": " + violation.get() + " (its schema is in TOOLS above)");
    }
    return new Entry(new Reply.ToolCall(name, (ObjectNode) arguments), null);
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "unparseable";
    }
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }
}

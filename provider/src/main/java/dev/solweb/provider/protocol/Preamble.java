package dev.solweb.provider.protocol;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.solweb.provider.platform.Json;
import java.util.Collection;
import java.util.List;

/**
 * The first text a conversation receives: the protocol contract, every tool's name, description
 * and JSON Schema, then the client's system prompt. Swapping the wire protocol means changing
 * this class and {@link ReplyParser}, nothing else.
 */
public final class Preamble {
  private static final ObjectMapper JSON = Json.MAPPER;

  private static final String SHAPES = """
      PROTOCOL
      You are the model behind a coding agent. The agent runs tools for you and sends back their results.
      Every reply of yours is exactly ONE fenced ```json code block and nothing else, in one of %s shapes:

      To call a tool:
      ```json
      {"tool": "<tool name>", "arguments": {<arguments matching the tool's schema>}}
      ```
      %s
      To give your final answer:
      ```json
      {"tool": "final", "text": "<your answer>"}
      ```

      """;

  private static final String ONE_CALL = SHAPES.formatted("two", "") + """
      Call one tool per reply and wait for its result. Results arrive as "TOOL RESULT [<id>]" followed by the
      output; new instructions arrive as "USER" followed by the text. Never put two code blocks in a reply.
      """;

  private static String several(int max) {
    return SHAPES.formatted("three", """

        To call several tools at once (at most %d):
        ```json
        {"calls": [{"tool": "<tool name>", "arguments": {...}}, {"tool": "<tool name>", "arguments": {...}}]}
        ```
        """.formatted(max)) + """
        Put calls that do not depend on each other in one reply: the reads, searches and listings you already know
        you need. The agent may run them at the same time, so a call that needs another call's result waits for
        that result and goes in a later reply. Results arrive together in one message, one "TOOL RESULT [<id>]"
        followed by its output per call, in the order of your calls; the results of one reply share one bound of
        %d characters (longer ones are cut in the middle), so read a large file in a reply of its own. New
        instructions arrive as "USER" followed by the text. Never put two code blocks in a reply, and never put
        the final answer among calls.
        """.formatted(ReplyRules.MAX_RESULT_CHARS_PER_REPLY);
  }

  private Preamble() {}

  /** With the default cap and no schema rules: the preamble for a client that allows several calls. */
  public static String render(String system, List<ToolSpec> tools) {
    return render(system, ReplyRules.of(tools, true, ReplyRules.DEFAULT_MAX_CALLS));
  }

  /**
   * The preamble for {@code rules}: one call per reply when they allow one, else several at once.
   * A request without tools (a compaction summary, say) gets the shorter text: it can only answer.
   */
  public static String render(String system, ReplyRules rules) {
    StringBuilder text = new StringBuilder();
    Collection<ToolSpec> tools = rules.tools().values();
    text.append(rules.maxCalls() == 1 || tools.isEmpty() ? ONE_CALL : several(rules.maxCalls()));
    text.append("\nTOOLS\n");
    if (tools.isEmpty()) {
      text.append("(none: answer with the final shape)\n");
    }
    for (ToolSpec tool : tools) {
      text.append("\n## ").append(tool.name()).append('\n');
      if (!tool.description().isBlank()) {
        text.append(tool.description().strip()).append('\n');
      }
      text.append("Schema: ").append(schema(tool)).append('\n');
    }
    if (!system.isBlank()) {
      text.append("\nSYSTEM\n").append(system.strip()).append('\n');
    }
    return text.toString();
  }

  /** The correction turn after a {@link Reply.Malformed}: names the exact violation. */
  public static String correction(Reply.Malformed malformed) {
    return correction(malformed, 1);
  }

  /** The correction turn, with the shapes {@code maxCalls} allows. */
  public static String correction(Reply.Malformed malformed, int maxCalls) {
    return "PROTOCOL ERROR\n" + malformed.reason()
        + "\nReply again with exactly one fenced ```json block: "
        + "{\"tool\": \"<tool name>\", \"arguments\": {...}}"
        + (maxCalls > 1 ? ", {\"calls\": [{\"tool\": ..., \"arguments\": {...}}, ...]} (at most " + maxCalls + ")" : "")
        + " or {\"tool\": \"final\", \"text\": \"...\"}.";
  }

  private static String schema(ToolSpec tool) {
    try {
      return JSON.writeValueAsString(tool.parameters());
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a JSON tree always serializes", e);
    }
  }
}

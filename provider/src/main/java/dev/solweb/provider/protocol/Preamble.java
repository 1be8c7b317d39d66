package dev.solweb.provider.protocol;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.solweb.provider.platform.Json;
import java.util.List;

/**
 * The first text a conversation receives: the protocol contract, every tool's name, description
 * and JSON Schema, then the client's system prompt. Swapping the wire protocol means changing
 * this class and {@link ReplyParser}, nothing else.
 */
public final class Preamble {
  private static final ObjectMapper JSON = Json.MAPPER;

  private Preamble() {}

  public static String render(String system, List<ToolSpec> tools) {
    StringBuilder text = new StringBuilder();
    text.append("""
        PROTOCOL
        You are the model behind a coding agent. The agent runs tools for you and sends back their results.
        Every reply of yours is exactly ONE fenced ```json code block and nothing else, in one of two shapes:

        To call a tool:
        ```json
        {"tool": "<tool name>", "arguments": {<arguments matching the tool's schema>}}
        ```

        To give your final answer:
        ```json
        {"tool": "final", "text": "<your answer>"}
        ```

        Call one tool per reply and wait for its result. Results arrive as "TOOL RESULT [<id>]" followed by the
        output; new instructions arrive as "USER" followed by the text. Never put two code blocks in a reply.
        """);
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
    return "PROTOCOL ERROR\n" + malformed.reason()
        + "\nReply again with exactly one fenced ```json block: "
        + "{\"tool\": \"<tool name>\", \"arguments\": {...}} or {\"tool\": \"final\", \"text\": \"...\"}.";
  }

  private static String schema(ToolSpec tool) {
    try {
      return JSON.writeValueAsString(tool.parameters());
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a JSON tree always serializes", e);
    }
  }
}

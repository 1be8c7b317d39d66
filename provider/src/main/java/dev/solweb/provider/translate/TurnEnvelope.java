package dev.solweb.provider.translate;

import dev.solweb.provider.protocol.ReplyBlocks;
import java.util.ArrayList;
import java.util.List;

/**
 * The exact text typed into the composer for client messages. Pinned: the preamble teaches the
 * model this shape and the tests hold it byte for byte.
 *
 * <pre>
 * TOOL RESULT [&lt;tool_call_id&gt;]
 * &lt;content&gt;
 *
 * USER
 * &lt;content&gt;
 * </pre>
 *
 * Tool results over {@link #MAX_RESULT_CHARS} are cut in the middle, so one oversized file read
 * cannot consume the whole context.
 */
public final class TurnEnvelope {
  public static final int MAX_RESULT_CHARS = 60_000;

  private TurnEnvelope() {}

  public static String toolResult(String toolCallId, String content) {
    return "TOOL RESULT [" + toolCallId + "]\n" + elide(content);
  }

  public static String user(String content) {
    return "USER\n" + content;
  }

  /**
   * An assistant turn of a replayed history; its tool calls are rendered by the protocol
   * ({@link ReplyBlocks}), so the model reads them as it wrote them.
   */
  public static String assistant(Message message) {
    List<String> parts = new ArrayList<>();
    if (!message.content().isEmpty()) {
      parts.add(message.content());
    }
    for (Message.ToolCallRef call : message.toolCalls()) {
      parts.add(ReplyBlocks.toolCall(call.name(), call.arguments()));
    }
    return "ASSISTANT\n" + String.join("\n", parts);
  }

  /** Joins rendered blocks with one blank line between them. */
  public static String join(List<String> blocks) {
    return String.join("\n\n", blocks);
  }

  /** Cuts {@code content} in the middle to at most {@link #MAX_RESULT_CHARS} kept characters. */
  public static String elide(String content) {
    if (content.length() <= MAX_RESULT_CHARS) {
      return content;
    }
    int elided = content.length() - MAX_RESULT_CHARS;
    int head = MAX_RESULT_CHARS / 2;
    int tail = MAX_RESULT_CHARS - head;
    return content.substring(0, head) + "\n…" + elided + " chars elided…\n" + content.substring(content.length() - tail);
  }
}

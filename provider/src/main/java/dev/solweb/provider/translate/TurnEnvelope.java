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
final class TurnEnvelope {
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

  /**
   * Cuts {@code content} in the middle to at most {@link #MAX_RESULT_CHARS} kept characters, on
   * code-point boundaries: a surrogate pair at either cut is elided whole, never split into a lone
   * half (which would reach the page as U+FFFD).
   */
  public static String elide(String content) {
    if (content.length() <= MAX_RESULT_CHARS) {
      return content;
    }
    int head = MAX_RESULT_CHARS / 2;
    if (Character.isHighSurrogate(content.charAt(head - 1))) {
      head--;
    }
    int tailStart = content.length() - (MAX_RESULT_CHARS - MAX_RESULT_CHARS / 2);
    if (Character.isLowSurrogate(content.charAt(tailStart))) {
      tailStart++;
    }
    return content.substring(0, head) + "\n…" + (tailStart - head) + " chars elided…\n" + content.substring(tailStart);
  }

  /**
   * One client message as a replay types it (system messages go in the preamble: null), the
   * same blocks {@link Delivery#deliverAll} joins.
   */
  public static String block(Message message) {
    return switch (message.role()) {
      case SYSTEM -> null;
      case USER -> user(message.content());
      case TOOL -> toolResult(message.toolCallId(), message.content());
      case ASSISTANT -> assistant(message);
    };
  }
}

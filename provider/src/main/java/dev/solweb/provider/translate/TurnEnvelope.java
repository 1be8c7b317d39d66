package dev.solweb.provider.translate;

import dev.solweb.provider.protocol.ReplyBlocks;
import dev.solweb.provider.protocol.ReplyRules;
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
 * cannot consume the whole context; the results of one reply's calls, typed together, are held to
 * {@link #MAX_TURN_RESULT_CHARS} together ({@link #elideTogether}), so one batch cannot either.
 */
final class TurnEnvelope {
  public static final int MAX_RESULT_CHARS = 60_000;
  /** The results of one reply together: {@link ReplyRules#MAX_RESULT_CHARS_PER_REPLY}. */
  public static final int MAX_TURN_RESULT_CHARS = ReplyRules.MAX_RESULT_CHARS_PER_REPLY;

  private TurnEnvelope() {}

  public static String toolResult(String toolCallId, String content) {
    return "TOOL RESULT [" + toolCallId + "]\n" + elide(content);
  }

  public static String user(String content) {
    return "USER\n" + content;
  }

  /**
   * A short text file typed into its message ({@link MessageParts}): its text between two lines
   * that name it, so the model reads where the file ends.
   */
  static String typedFile(String name, String text) {
    return "[file " + name + "]\n" + text + "\n[end of file " + name + "]";
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
    if (!message.toolCalls().isEmpty()) {
      parts.add(ReplyBlocks.toolCalls(message.toolCalls().stream()
          .map(call -> new ReplyBlocks.Call(call.name(), call.arguments())).toList()));
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
    return elide(content, MAX_RESULT_CHARS);
  }

  /**
   * The results of one reply, each kept whole when they fit {@code limit} together, else cut in
   * the middle to a fair share: the max-min split, where a result shorter than an equal share of
   * what is left keeps all of it and the longer ones share the rest equally. So a small listing
   * beside two large reads survives whole, and no result takes another's room.
   */
  public static List<String> elideTogether(List<String> contents, int limit) {
    Integer[] bySize = new Integer[contents.size()];
    for (int i = 0; i < bySize.length; i++) {
      bySize[i] = i;
    }
    java.util.Arrays.sort(bySize, java.util.Comparator.comparingInt(i -> contents.get(i).length()));
    int[] keep = new int[contents.size()];
    long left = limit;
    for (int k = 0; k < bySize.length; k++) {
      int i = bySize[k];
      long share = left / (bySize.length - k);
      keep[i] = (int) Math.min(contents.get(i).length(), share);
      left -= keep[i];
    }
    List<String> kept = new ArrayList<>(contents.size());
    for (int i = 0; i < contents.size(); i++) {
      kept.add(elide(contents.get(i), keep[i]));
    }
    return kept;
  }

  /** {@code content} cut in the middle to at most {@code limit} kept characters, on code-point boundaries. */
  static String elide(String content, int limit) {
    if (content.length() <= limit) {
      return content;
    }
    int head = limit / 2;
    if (head > 0 && Character.isHighSurrogate(content.charAt(head - 1))) {
      head--;
    }
    int tailStart = content.length() - (limit - limit / 2);
    if (tailStart < content.length() && Character.isLowSurrogate(content.charAt(tailStart))) {
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

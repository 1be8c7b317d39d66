package dev.solweb.provider.translate;

import dev.solweb.provider.protocol.Reply;
import java.util.List;

/**
 * A turn's answer: a tool call or a final text, with the conversation's cumulative estimated
 * usage.
 *
 * @param reply a {@link Reply.ToolCall} or a {@link Reply.Final}, never {@link Reply.Malformed}
 * @param toolCallId {@code call_<turn>_<8 hex>} for a tool call, else null
 */
public record Answer(Reply reply, String toolCallId, Usage usage, List<String> images) {

  /** Cumulative estimated tokens of the conversation, reported as {@code usage_estimated: true}. */
  public record Usage(long promptTokens, long completionTokens) {}

  public Answer {
    if (reply instanceof Reply.Malformed) {
      throw new IllegalArgumentException("an answer is never Malformed");
    }
    images = images == null ? List.of() : List.copyOf(images);
  }
}

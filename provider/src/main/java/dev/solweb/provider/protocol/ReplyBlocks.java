package dev.solweb.provider.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;

/**
 * Replies in the protocol's own shape, for the assistant turns of a replayed history: the model
 * reads its earlier tool calls exactly as {@link Preamble} taught it to write them and
 * {@link ReplyParser} reads them back.
 */
public final class ReplyBlocks {
  private ReplyBlocks() {}

  /** One tool call as the fenced block the model writes. */
  public static String toolCall(String name, JsonNode arguments) {
    return "```json\n{\"tool\": " + TextNode.valueOf(name) + ", \"arguments\": " + arguments + "}\n```";
  }
}

package dev.solweb.provider.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Replies in the protocol's own shape, for the assistant turns of a replayed history: the model
 * reads its earlier tool calls exactly as {@link Preamble} taught it to write them and
 * {@link ReplyParser} reads them back. The calls of one reply stay one block, as they were made.
 */
public final class ReplyBlocks {
  private ReplyBlocks() {}

  /** One call of a replayed assistant turn (arguments as the client replays them). */
  public record Call(String name, JsonNode arguments) {}

  /** One tool call as the fenced block the model writes. */
  public static String toolCall(String name, JsonNode arguments) {
    return fenced(object(new Call(name, arguments)));
  }

  /** The calls of one reply: a lone call in its own shape, several as one {@code {"calls": [...]}} block. */
  public static String toolCalls(List<Call> calls) {
    if (calls.size() == 1) {
      return toolCall(calls.get(0).name(), calls.get(0).arguments());
    }
    return fenced(calls.stream().map(ReplyBlocks::object).collect(Collectors.joining(", ", "{\"calls\": [", "]}")));
  }

  private static String object(Call call) {
    return "{\"tool\": " + TextNode.valueOf(call.name()) + ", \"arguments\": " + call.arguments() + "}";
  }

  private static String fenced(String json) {
    return "```json\n" + json + "\n```";
  }
}

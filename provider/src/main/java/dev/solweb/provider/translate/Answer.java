package dev.solweb.provider.translate;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.protocol.Reply;
import java.util.ArrayList;
import java.util.List;

/**
 * A turn's answer: tool calls or a final text, with the conversation's cumulative estimated
 * usage.
 *
 * @param reply a {@link Reply.ToolCall}, {@link Reply.ToolCalls} or {@link Reply.Final}, never
 *     {@link Reply.Malformed}
 * @param toolCallIds one {@code call_<turn>_<8 hex>} per call of the reply, in order; empty for a final answer
 * @param model the model slug that answered, as the page named it (every wire's {@code x-solweb-model}); null when
 *     unknown (an answer given again from memory, a page that names none)
 */
public record Answer(Reply reply, List<String> toolCallIds, Usage usage, List<String> images, String model) {

  /** Cumulative estimated tokens of the conversation, reported as {@code usage_estimated: true}. */
  public record Usage(long promptTokens, long completionTokens) {}

  /** One call as a wire renders it: its id, the tool's name and the arguments. */
  public record Call(String id, String name, ObjectNode arguments) {}

  public Answer {
    if (reply instanceof Reply.Malformed) {
      throw new IllegalArgumentException("an answer is never Malformed");
    }
    toolCallIds = toolCallIds == null ? List.of() : List.copyOf(toolCallIds);
    if (toolCallIds.size() != reply.calls().size()) {
      throw new IllegalArgumentException("one id per call: " + reply.calls().size() + " calls, "
          + toolCallIds.size() + " ids");
    }
    images = images == null ? List.of() : List.copyOf(images);
  }

  /** An answer whose model is not known. */
  public Answer(Reply reply, List<String> toolCallIds, Usage usage, List<String> images) {
    this(reply, toolCallIds, usage, images, null);
  }

  /** A final answer: no calls, no ids. */
  public static Answer text(String text, Usage usage, List<String> images) {
    return new Answer(new Reply.Final(text), List.of(), usage, images);
  }

  /** The calls with their ids, in the order the model made them; empty for a final answer. */
  public List<Call> calls() {
    List<Call> calls = new ArrayList<>();
    for (int i = 0; i < toolCallIds.size(); i++) {
      Reply.ToolCall call = reply.calls().get(i);
      calls.add(new Call(toolCallIds.get(i), call.name(), call.arguments()));
    }
    return calls;
  }
}

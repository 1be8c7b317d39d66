package dev.solweb.provider.translate;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.protocol.Reply;
import java.util.List;

/**
 * The answer to the last turn of a conversation, kept in the registry so that an identical
 * re-send (a client retry, across a daemon restart too) is answered without typing. Exactly one
 * of {@code text} (a final answer) and {@code calls} (the tool calls, in order) is set; a file
 * written before several calls per reply existed holds its one call as {@code tool},
 * {@code arguments} and {@code tool_call_id}, which are read and never written.
 *
 * @param historyDigest {@link HistoryDigest} of the request it answered
 * @param answeredAt epoch second; {@link Conversations#MAX_ANSWER_AGE} bounds how long it is used
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record RememberedAnswer(
    @JsonProperty("history_digest") String historyDigest,
    @JsonProperty("text") String text,
    @JsonProperty("calls") List<Call> calls,
    @JsonProperty("tool") String tool,
    @JsonProperty("arguments") ObjectNode arguments,
    @JsonProperty("tool_call_id") String toolCallId,
    @JsonProperty("prompt_tokens") long promptTokens,
    @JsonProperty("completion_tokens") long completionTokens,
    @JsonProperty("images") List<String> images,
    @JsonProperty("answered_at") long answeredAt) {

  /** One remembered call. */
  public record Call(@JsonProperty("id") String id, @JsonProperty("tool") String tool,
      @JsonProperty("arguments") ObjectNode arguments) {}

  public RememberedAnswer {
    images = images == null ? List.of() : List.copyOf(images);
    if (calls == null && tool != null) {
      calls = List.of(new Call(toolCallId, tool, arguments));
    }
    calls = calls == null || calls.isEmpty() ? null : List.copyOf(calls);
    tool = null;
    arguments = null;
    toolCallId = null;
  }

  static RememberedAnswer of(String historyDigest, Answer answer, long answeredAt) {
    String text = answer.reply() instanceof Reply.Final done ? done.text() : null;
    List<Call> calls = answer.calls().stream().map(c -> new Call(c.id(), c.name(), c.arguments())).toList();
    return new RememberedAnswer(historyDigest, text, calls, null, null, null, answer.usage().promptTokens(),
        answer.usage().completionTokens(), answer.images(), answeredAt);
  }

  /** Characters it keeps on disk, for the size bound. */
  long size() {
    return (text == null ? 0 : text.length())
        + (calls == null ? 0 : calls.stream().mapToLong(c -> c.tool().length() + c.arguments().toString().length()).sum());
  }

  Answer answer() {
    Answer.Usage usage = new Answer.Usage(promptTokens, completionTokens);
    if (calls == null) {
      return Answer.text(text == null ? "" : text, usage, images);
    }
    Reply reply = Reply.of(calls.stream().map(c -> new Reply.ToolCall(c.tool(), c.arguments())).toList());
    return new Answer(reply, calls.stream().map(Call::id).toList(), usage, images);
  }
}

package dev.solweb.provider.translate;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.protocol.Reply;
import java.util.List;

/**
 * The answer to the last turn of a conversation, kept in the registry so that an identical
 * re-send (a client retry, across a daemon restart too) is answered without typing. Exactly one
 * of {@code text} (a final answer) and {@code tool} (a tool call) is set.
 *
 * @param historyDigest {@link HistoryDigest} of the request it answered
 * @param answeredAt epoch second; {@link Conversations#MAX_ANSWER_AGE} bounds how long it is used
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record RememberedAnswer(
    @JsonProperty("history_digest") String historyDigest,
    @JsonProperty("text") String text,
    @JsonProperty("tool") String tool,
    @JsonProperty("arguments") ObjectNode arguments,
    @JsonProperty("tool_call_id") String toolCallId,
    @JsonProperty("prompt_tokens") long promptTokens,
    @JsonProperty("completion_tokens") long completionTokens,
    @JsonProperty("images") List<String> images,
    @JsonProperty("answered_at") long answeredAt) {

  public RememberedAnswer {
    images = images == null ? List.of() : List.copyOf(images);
  }

  static RememberedAnswer of(String historyDigest, Answer answer, long answeredAt) {
    String text = answer.reply() instanceof Reply.Final done ? done.text() : null;
    Reply.ToolCall call = answer.reply() instanceof Reply.ToolCall c ? c : null;
    return new RememberedAnswer(historyDigest, text, call == null ? null : call.name(),
        call == null ? null : call.arguments(), answer.toolCallId(), answer.usage().promptTokens(),
        answer.usage().completionTokens(), answer.images(), answeredAt);
  }

  /** Characters it keeps on disk, for the size bound. */
  long size() {
    return (text == null ? 0 : text.length()) + (arguments == null ? 0 : arguments.toString().length());
  }

  Answer answer() {
    Reply reply = tool != null ? new Reply.ToolCall(tool, arguments) : new Reply.Final(text == null ? "" : text);
    return new Answer(reply, toolCallId, new Answer.Usage(promptTokens, completionTokens), images);
  }
}

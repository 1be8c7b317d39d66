package dev.solweb.provider.dispatch;

import dev.solweb.provider.model.Effort;
import dev.solweb.provider.translate.HistoryDigest;
import dev.solweb.provider.translate.Message;
import dev.solweb.provider.translate.ToolSpec;
import java.util.List;
import java.util.Optional;

/**
 * One validated chat-completions request, keyed to its conversation.
 *
 * @param historyDigest {@link HistoryDigest} of {@code messages}, computed once per request
 */
public record TurnRequest(
    String sessionKey, Effort effort, List<Message> messages, List<ToolSpec> tools, Optional<String> clientSession,
    String historyDigest) {
  public TurnRequest {
    messages = List.copyOf(messages);
    tools = List.copyOf(tools);
  }

  public static TurnRequest of(
      String sessionKey, Effort effort, List<Message> messages, List<ToolSpec> tools, Optional<String> clientSession) {
    return new TurnRequest(sessionKey, effort, messages, tools, clientSession, HistoryDigest.of(messages));
  }
}

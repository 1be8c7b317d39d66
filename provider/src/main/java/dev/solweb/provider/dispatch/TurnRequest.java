package dev.solweb.provider.dispatch;

import dev.solweb.provider.model.Effort;
import dev.solweb.provider.translate.Message;
import dev.solweb.provider.translate.ToolSpec;
import java.util.List;
import java.util.Optional;

/** One validated chat-completions request, keyed to its conversation. */
public record TurnRequest(
    String sessionKey, Effort effort, List<Message> messages, List<ToolSpec> tools, Optional<String> clientSession) {
  public TurnRequest {
    messages = List.copyOf(messages);
    tools = List.copyOf(tools);
  }
}

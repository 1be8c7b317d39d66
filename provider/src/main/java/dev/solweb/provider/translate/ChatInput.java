package dev.solweb.provider.translate;

import dev.solweb.provider.model.Effort;
import dev.solweb.provider.protocol.ToolSpec;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The one parsed, normalized, wire-neutral request that enters translate: whatever the client
 * spoke ({@code /v1/chat/completions} today, other OpenAI-shaped routes tomorrow), the route
 * reduces it to the effort, the normalized history, the tools offered and the client session.
 * Everything after this point (session key, prefix digests, deliver or replay, budget, answer
 * memory) is computed by translate from this type alone; a route renders the {@link Answer} that
 * comes back in its own wire shape.
 *
 * @param clientSession the {@code X-Overdeck-Client-Session} value, already checked for shape
 * @param parallelToolCalls the request's {@code parallel_tool_calls}: false asks for one tool call
 *     per reply (absent is true, as in both OpenAI APIs)
 */
public record ChatInput(Effort effort, List<Message> messages, List<ToolSpec> tools, Optional<String> clientSession,
    boolean parallelToolCalls) {

  public ChatInput {
    Objects.requireNonNull(effort, "effort");
    messages = List.copyOf(messages);
    tools = List.copyOf(tools);
    Objects.requireNonNull(clientSession, "clientSession");
  }

  /** A request that allows several calls per reply. */
  public ChatInput(Effort effort, List<Message> messages, List<ToolSpec> tools, Optional<String> clientSession) {
    this(effort, messages, tools, clientSession, true);
  }

  /** {@link #of(Effort, List, List, Optional, boolean)} allowing several calls per reply. */
  public static ChatInput of(Effort effort, List<Message> messages, List<ToolSpec> tools, Optional<String> clientSession)
      throws BadRequest {
    return of(effort, messages, tools, clientSession, true);
  }

  /**
   * Checks what every route needs to hold: a non-empty history in which each tool result answers
   * a call an earlier assistant message made.
   *
   * @throws BadRequest naming the offending message
   */
  public static ChatInput of(Effort effort, List<Message> messages, List<ToolSpec> tools, Optional<String> clientSession,
      boolean parallelToolCalls) throws BadRequest {
    if (messages.isEmpty()) {
      throw BadRequest.invalid("messages must not be empty");
    }
    Set<String> calls = new HashSet<>();
    for (int i = 0; i < messages.size(); i++) {
      Message message = messages.get(i);
      message.toolCalls().forEach(call -> calls.add(call.id()));
      if (message.role() == Message.Role.TOOL && !calls.contains(message.toolCallId())) {
        throw BadRequest.invalid("messages[" + i + "] is a tool result for tool_call_id '" + message.toolCallId()
            + "', which no earlier assistant message called");
      }
    }
    return new ChatInput(effort, messages, tools, clientSession, parallelToolCalls);
  }
}

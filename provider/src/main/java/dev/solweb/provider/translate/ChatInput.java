package dev.solweb.provider.translate;

import dev.solweb.provider.model.Attachment;
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
    messages = List.copyOf(Continuity.merged(messages)); // one reply is one message, however the client split it
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
   * a call an earlier assistant message made, and whose last turn (the messages after the last
   * assistant message: what this request adds) carries at most {@link Attachment#MAX_PER_TURN}
   * distinct files, the most one send can upload (REAL-PAGE row 49).
   *
   * @throws BadRequest naming the offending message or file
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
    refuseTooManyFiles(messages);
    return new ChatInput(effort, messages, tools, clientSession, parallelToolCalls);
  }

  private static void refuseTooManyFiles(List<Message> messages) throws BadRequest {
    int turnStart = messages.size();
    while (turnStart > 0 && messages.get(turnStart - 1).role() != Message.Role.ASSISTANT) {
      turnStart--;
    }
    Set<String> files = new HashSet<>();
    for (int i = turnStart; i < messages.size(); i++) {
      for (Attachment file : messages.get(i).attachments()) {
        if (files.add(file.sha256()) && files.size() > Attachment.MAX_PER_TURN) {
          throw new BadRequest(400, "too_many_attachments", "messages[" + i + "] (" + file.name() + ") brings the files"
              + " of the request's last turn to " + files.size() + "; one send uploads at most " + Attachment.MAX_PER_TURN
              + " (REAL-PAGE row 49): send the rest in a later turn; nothing was sent");
        }
      }
    }
  }
}

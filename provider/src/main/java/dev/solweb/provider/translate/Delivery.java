package dev.solweb.provider.translate;

import java.util.ArrayList;
import java.util.List;

/**
 * Stateless {@code messages[]} to stateful conversation: what must be typed this turn.
 *
 * <p>The client re-sends its whole history every request; the browser conversation already holds
 * the delivered prefix. {@link #deliver} returns only the new suffix; {@link #deliverAll} renders
 * a whole history for a fresh conversation. {@link Conversations#plan} is the only caller.
 */
final class Delivery {
  private Delivery() {}

  /**
   * The text to type into {@code conversation} for {@code messages}: the rendered suffix after the
   * delivered prefix.
   *
   * @param deliveredPrefixDigest {@link HistoryDigest} of the request's first
   *     {@code min(conversation.deliveredCount(), messages.size())} messages ({@link ChatTurn}
   *     computes every prefix digest once per request)
   * @throws ReplayNeeded when {@code messages} does not extend the delivered prefix, adds nothing,
   *     or adds a message other than tool results and user turns
   */
  static String deliver(Conversation conversation, List<Message> messages, String deliveredPrefixDigest)
      throws ReplayNeeded {
    int delivered = conversation.deliveredCount();
    if (messages.size() <= delivered) {
      throw new ReplayNeeded("the request adds nothing to the " + delivered + " delivered messages");
    }
    if (!deliveredPrefixDigest.equals(conversation.deliveredDigest())) {
      throw new ReplayNeeded("the history does not extend what the conversation holds (compacted or rewritten)");
    }
    List<String> blocks = new ArrayList<>();
    for (Message message : messages.subList(delivered, messages.size())) {
      switch (message.role()) {
        case TOOL -> blocks.add(TurnEnvelope.toolResult(message.toolCallId(), message.content()));
        case USER -> blocks.add(TurnEnvelope.user(message.content()));
        case ASSISTANT, SYSTEM -> throw new ReplayNeeded(
            "the new messages include a " + message.role().name().toLowerCase(java.util.Locale.ROOT)
                + " message the conversation never saw");
        default -> throw new IllegalStateException("Unhandled role: " + message.role());
      }
    }
    return TurnEnvelope.join(blocks);
  }

  /**
   * The whole history (system messages excluded: they go in the preamble) for a fresh
   * conversation. Never raises: a fresh conversation always takes everything.
   */
  static String deliverAll(List<Message> messages) {
    List<String> blocks = new ArrayList<>();
    for (Message message : messages) {
      switch (message.role()) {
        case SYSTEM -> { }
        case USER -> blocks.add(TurnEnvelope.user(message.content()));
        case TOOL -> blocks.add(TurnEnvelope.toolResult(message.toolCallId(), message.content()));
        case ASSISTANT -> blocks.add(TurnEnvelope.assistant(message));
        default -> throw new IllegalStateException("Unhandled role: " + message.role());
      }
    }
    return TurnEnvelope.join(blocks);
  }
}

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
    return render(messages, delivered, false);
  }

  /**
   * The whole history (system messages excluded: they go in the preamble) for a fresh
   * conversation. Never raises: a fresh conversation always takes everything.
   */
  static String deliverAll(List<Message> messages) {
    try {
      return render(messages, 0, true);
    } catch (ReplayNeeded impossible) {
      throw new IllegalStateException("a fresh conversation takes every message", impossible);
    }
  }

  /**
   * Renders {@code messages} from {@code from} on, each run of tool results as one
   * {@link ToolResultSet} of the assistant message before it (in the history before {@code from}
   * too). {@code fresh}: a replay, which renders assistant turns and leaves system messages to
   * the preamble; else a delta, which may only hold tool results and user turns.
   */
  private static String render(List<Message> messages, int from, boolean fresh) throws ReplayNeeded {
    Message assistant = null;
    for (int i = from - 1; i >= 0 && assistant == null; i--) {
      assistant = messages.get(i).role() == Message.Role.ASSISTANT ? messages.get(i) : null;
    }
    List<String> blocks = new ArrayList<>();
    int i = from;
    while (i < messages.size()) {
      Message message = messages.get(i);
      switch (message.role()) {
        case TOOL -> {
          int end = i;
          while (end < messages.size() && messages.get(end).role() == Message.Role.TOOL) {
            end++;
          }
          blocks.add(ToolResultSet.after(assistant, messages.subList(i, end)).render());
          i = end;
          continue;
        }
        case USER -> blocks.add(TurnEnvelope.user(message.content()));
        case ASSISTANT, SYSTEM -> {
          if (!fresh) {
            throw new ReplayNeeded("the new messages include a " + message.role().name().toLowerCase(java.util.Locale.ROOT)
                + " message the conversation never saw");
          }
          if (message.role() == Message.Role.ASSISTANT) {
            blocks.add(TurnEnvelope.assistant(message));
            assistant = message;
          }
        }
        default -> throw new IllegalStateException("Unhandled role: " + message.role());
      }
      i++;
    }
    return TurnEnvelope.join(blocks);
  }
}

package dev.solweb.provider.translate;

import dev.solweb.provider.model.Attachment;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Stateless {@code messages[]} to stateful conversation: what must be typed this turn.
 *
 * <p>The client re-sends its whole history every request; the browser conversation already holds
 * the delivered prefix. {@link #deliver} returns only the new suffix; {@link #deliverAll} renders
 * a whole history for a fresh conversation. {@link Conversations#plan} is the only caller. The
 * files go with the text ({@link TurnFiles}): a delta uploads only those its conversation does
 * not hold yet, a replay the newest the page takes.
 */
final class Delivery {
  private Delivery() {}

  /** What one send types, and the files it uploads first. */
  record Typed(String text, List<Attachment> uploads) {
    Typed {
      uploads = List.copyOf(uploads);
    }
  }

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
  static Typed deliver(Conversation conversation, List<Message> messages, String deliveredPrefixDigest)
      throws ReplayNeeded {
    int delivered = conversation.deliveredCount();
    if (messages.size() < delivered) {
      throw new ReplayNeeded(ReplayCause.COMPACTED, "the history holds " + messages.size() + " messages, fewer than the "
          + delivered + " the conversation holds (compacted, or messages removed)");
    }
    if (!deliveredPrefixDigest.equals(conversation.deliveredDigest())) {
      throw new ReplayNeeded(ReplayCause.REWRITTEN, "the history does not extend what the conversation holds (rewritten)");
    }
    if (messages.size() == delivered) {
      throw new ReplayNeeded(ReplayCause.NOTHING_NEW, "the request adds nothing to the " + delivered + " delivered messages");
    }
    TurnFiles files = TurnFiles.of(messages, delivered, conversation.fileDigests());
    return new Typed(render(messages, delivered, false, files), files.uploads());
  }

  /**
   * The whole history (system messages excluded: they go in the preamble) for a fresh
   * conversation. Never raises: a fresh conversation always takes everything.
   */
  static String deliverAll(List<Message> messages) {
    return replayed(messages).text();
  }

  /** {@link #deliverAll}'s text with the files it uploads: the newest the page takes, the rest named in a note. */
  static Typed replayed(List<Message> messages) {
    TurnFiles files = TurnFiles.of(messages, 0, Set.of());
    try {
      return new Typed(render(messages, 0, true, files), files.uploads());
    } catch (ReplayNeeded impossible) {
      throw new IllegalStateException("a fresh conversation takes every message", impossible);
    }
  }

  /**
   * Renders {@code messages} from {@code from} on, each run of tool results as one
   * {@link ToolResultSet} of the assistant message before it (in the history before {@code from}
   * too). {@code fresh}: a replay, which renders assistant turns and leaves system messages to
   * the preamble; else a delta, which may only hold tool results and user turns. Each message's
   * files are named at the end of its block, and a note ends the text when some were left out.
   */
  private static String render(List<Message> messages, int from, boolean fresh, TurnFiles files)
      throws ReplayNeeded {
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
          blocks.add(ToolResultSet.after(assistant, messages.subList(i, end)).render(files::marker));
          i = end;
          continue;
        }
        case USER -> blocks.add(TurnEnvelope.user(message.content()) + files.marker(message));
        case ASSISTANT, SYSTEM -> {
          if (!fresh) {
            throw new ReplayNeeded(ReplayCause.FOREIGN_MESSAGE, "the new messages include a " + message.role().name().toLowerCase(java.util.Locale.ROOT)
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
    files.note().ifPresent(blocks::add);
    return TurnEnvelope.join(blocks);
  }
}

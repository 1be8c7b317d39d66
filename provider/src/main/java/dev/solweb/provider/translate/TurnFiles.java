package dev.solweb.provider.translate;

import dev.solweb.provider.model.Attachment;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The files of one typed text: which it uploads, which the conversation already holds, which it
 * leaves out. A file is recognised by its sha256, so one the conversation holds is never
 * uploaded again (a delta carries only new files) and one sent twice in the text goes once. A
 * send takes at most {@link Attachment#MAX_PER_TURN} files (REAL-PAGE row 49): when a replay's
 * history holds more, the newest (by their last mention) go and a {@code NOTE} names the rest.
 *
 * <p>Every file is named where its message is typed ({@link #marker}), so the model reads which
 * message each file came with, uploaded now or earlier.
 */
final class TurnFiles {
  private final Set<String> held;
  private final List<Attachment> uploads;
  private final List<Attachment> leftOut;

  private TurnFiles(Set<String> held, List<Attachment> uploads, List<Attachment> leftOut) {
    this.held = Set.copyOf(held);
    this.uploads = List.copyOf(uploads);
    this.leftOut = List.copyOf(leftOut);
  }

  /**
   * The files of {@code messages} from {@code from} on, for a conversation that already holds the
   * files of sha256 {@code held}.
   */
  static TurnFiles of(List<Message> messages, int from, Set<String> held) {
    Map<String, Attachment> first = new LinkedHashMap<>();
    Map<String, Integer> lastMention = new LinkedHashMap<>();
    int mention = 0;
    for (Message message : messages.subList(from, messages.size())) {
      for (Attachment file : message.attachments()) {
        if (!held.contains(file.sha256())) {
          first.putIfAbsent(file.sha256(), file);
          lastMention.put(file.sha256(), mention);
        }
        mention++;
      }
    }
    List<String> newestFirst = new ArrayList<>(first.keySet());
    newestFirst.sort(Comparator.comparing(lastMention::get, Comparator.reverseOrder()));
    Set<String> kept = Set.copyOf(newestFirst.subList(0, Math.min(Attachment.MAX_PER_TURN, newestFirst.size())));
    List<Attachment> uploads = new ArrayList<>();
    List<Attachment> leftOut = new ArrayList<>();
    first.forEach((sha, file) -> (kept.contains(sha) ? uploads : leftOut).add(file));
    return new TurnFiles(held, uploads, leftOut);
  }

  /** The files this send uploads, in the order the history first names them. */
  List<Attachment> uploads() {
    return uploads;
  }

  /** The files named in the text but neither held nor uploaded. */
  List<Attachment> leftOut() {
    return leftOut;
  }

  /** The lines that name {@code message}'s files at the end of its block, or "" for none. */
  String marker(Message message) {
    if (message.attachments().isEmpty()) {
      return "";
    }
    return "\n" + message.attachments().stream().map(this::marker).collect(Collectors.joining("\n"));
  }

  private String marker(Attachment file) {
    if (held.contains(file.sha256())) {
      return "[attached earlier in this conversation: " + file.name() + "]";
    }
    return leftOut.stream().anyMatch(out -> out.sha256().equals(file.sha256()))
        ? "[not attached: " + file.name() + ", see the NOTE]"
        : "[attached: " + file.name() + "]";
  }

  /** The {@code NOTE} block naming the files left out, when any were. */
  Optional<String> note() {
    if (leftOut.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of("NOTE\nA message takes at most " + Attachment.MAX_PER_TURN + " files, so the " + uploads.size()
        + " newest are attached and these " + leftOut.size() + " older ones are not: "
        + leftOut.stream().map(Attachment::name).collect(Collectors.joining(", "))
        + ". Ask for any of them you still need.");
  }
}

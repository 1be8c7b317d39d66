package dev.solweb.provider.dispatch;

import dev.solweb.provider.model.Effort;
import dev.solweb.provider.translate.HistoryDigest;
import dev.solweb.provider.translate.Message;
import dev.solweb.provider.translate.ToolSpec;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * One validated chat-completions request, keyed to its conversation, or a one-shot ask.
 *
 * @param prefixDigests {@link HistoryDigest} of every prefix of {@code messages} (element i covers
 *     the first i), computed once per request
 * @param oneShot for {@code POST /v1/ask}: the attachments and output directory; null for a chat turn
 */
public record TurnRequest(
    String sessionKey, Effort effort, List<Message> messages, List<ToolSpec> tools, Optional<String> clientSession,
    List<String> prefixDigests, OneShot oneShot) {

  /** A one-shot ask's files, absolute paths (the daemon's cwd is not the caller's). */
  public record OneShot(String prompt, List<Path> attachments, Path outputDir) {
    public OneShot {
      attachments = List.copyOf(attachments);
      for (Path path : attachments) {
        if (!path.isAbsolute()) {
          throw new IllegalArgumentException("attachment paths must be absolute, got: " + path);
        }
      }
      if (!outputDir.isAbsolute()) {
        throw new IllegalArgumentException("the output directory must be absolute, got: " + outputDir);
      }
    }
  }

  public TurnRequest {
    messages = List.copyOf(messages);
    tools = List.copyOf(tools);
    prefixDigests = List.copyOf(prefixDigests);
    if (prefixDigests.size() != messages.size() + 1) {
      throw new IllegalArgumentException("need one digest per prefix: " + (messages.size() + 1) + ", got " + prefixDigests.size());
    }
  }

  /** {@link HistoryDigest} of the whole history. */
  public String historyDigest() {
    return prefixDigests.get(messages.size());
  }

  public static TurnRequest of(
      String sessionKey, Effort effort, List<Message> messages, List<ToolSpec> tools, Optional<String> clientSession) {
    return new TurnRequest(sessionKey, effort, messages, tools, clientSession, HistoryDigest.prefixes(messages), null);
  }

  /**
   * A one-shot ask: its own session key, so it never attaches to, or is answered from, another
   * request, and it shares the queue, seat lock, turn timeout and cap gate with chat turns.
   */
  public static TurnRequest ask(Effort effort, OneShot oneShot) {
    List<Message> messages = List.of(new Message(Message.Role.USER, oneShot.prompt(), List.of(), null));
    return new TurnRequest("ask-" + UUID.randomUUID(), effort, messages, List.of(), Optional.empty(),
        HistoryDigest.prefixes(messages), oneShot);
  }
}

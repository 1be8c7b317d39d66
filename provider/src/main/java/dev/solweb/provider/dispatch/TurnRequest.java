package dev.solweb.provider.dispatch;

import dev.solweb.provider.model.Effort;
import dev.solweb.provider.translate.ChatInput;
import dev.solweb.provider.translate.ChatTurn;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;

/**
 * What the dispatcher queues: a chat turn of a managed conversation, or a one-shot ask. Both
 * share the queue, the seat lock, the turn timeout and the cap gate; only a chat turn has a
 * conversation (and so an answer memory).
 */
public sealed interface TurnRequest {

  /** Turns of one key run one at a time, in arrival order. */
  String sessionKey();

  Effort effort();

  /** Two requests with the same key and identity are the same turn: the second attaches to the first. */
  String identity();

  /** A chat turn of {@code input}, keyed by translate ({@link ChatTurn#of}). */
  static Chat chat(ChatInput input) {
    return new Chat(ChatTurn.of(input));
  }

  /** A chat-completions turn, keyed by translate. */
  record Chat(ChatTurn turn) implements TurnRequest {
    @Override
    public String sessionKey() {
      return turn.sessionKey();
    }

    @Override
    public Effort effort() {
      return turn.input().effort();
    }

    @Override
    public String identity() {
      return turn.historyDigest();
    }
  }

  /**
   * A one-shot ask ({@code POST /v1/ask}, ask-gpt): a key of its own, so it never attaches to,
   * or is answered from, another request. Paths are absolute (the daemon's cwd is not the caller's).
   */
  record Ask(String sessionKey, Effort effort, String prompt, List<Path> attachments, Path outputDir)
      implements TurnRequest {
    public Ask {
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

    public static Ask of(Effort effort, String prompt, List<Path> attachments, Path outputDir) {
      return new Ask("ask-" + UUID.randomUUID(), effort, prompt, attachments, outputDir);
    }

    @Override
    public String identity() {
      return sessionKey;
    }
  }

  /**
   * Not a turn: work on a seat between turns ({@code solwebctl doctor}, {@code capture}), queued
   * and timed like one under a key of its own. It types nothing, so it has no effort.
   */
  record SeatWork(String sessionKey) implements TurnRequest {
    public static SeatWork create() {
      return new SeatWork("seat-work-" + UUID.randomUUID());
    }

    @Override
    public Effort effort() {
      throw new IllegalStateException("seat work " + sessionKey + " types nothing and has no effort");
    }

    @Override
    public String identity() {
      return sessionKey;
    }
  }
}

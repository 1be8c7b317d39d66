package dev.solweb.provider.translate;

import java.util.List;

/**
 * A {@link ChatInput} keyed to its conversation: the session key and the digest of every prefix
 * of its history, computed once per request (a long history is never hashed twice).
 *
 * @param prefixDigests element {@code i} is the {@link HistoryDigest} of the first {@code i} messages
 */
public record ChatTurn(ChatInput input, String sessionKey, List<String> prefixDigests) {

  public ChatTurn {
    prefixDigests = List.copyOf(prefixDigests);
    if (prefixDigests.size() != input.messages().size() + 1) {
      throw new IllegalArgumentException("need one digest per prefix: " + (input.messages().size() + 1)
          + ", got " + prefixDigests.size());
    }
  }

  /** Keys {@code input}: {@link SessionKey} and {@link HistoryDigest#prefixes}. */
  public static ChatTurn of(ChatInput input) {
    return new ChatTurn(input,
        SessionKey.of(input.messages(), input.tools(), input.effort(), input.clientSession()),
        HistoryDigest.prefixes(input.messages()));
  }

  public List<Message> messages() {
    return input.messages();
  }

  /** {@link HistoryDigest} of the whole history: two requests with the same digest are the same turn. */
  public String historyDigest() {
    return prefixDigests.get(input.messages().size());
  }
}

package dev.solweb.provider.translate;

import java.util.Locale;

/**
 * Why a turn was typed whole into a fresh conversation instead of continuing one: what
 * {@code /healthz} counts under {@code replays} and the operator page shows as
 * "replayed: &lt;cause&gt;". {@link #FRESH} is a session's first turn, no replay, and never counted.
 */
public enum ReplayCause {
  /** A session not seen before: its first conversation. */
  FRESH,
  /** A message the conversation holds changed in the client's history (an edited user message, a changed tool result). */
  REWRITTEN,
  /** The client's history holds fewer messages than the conversation (a compaction, a removed message). */
  COMPACTED,
  /** The request adds nothing to what the conversation holds. */
  NOTHING_NEW,
  /** The new messages hold one a delta cannot carry (an assistant or system message the conversation never saw). */
  FOREIGN_MESSAGE,
  /** The conversation's last turn was left uncertain past its Send. */
  UNCERTAIN,
  /** solwebd stopped the conversation's last turn (its client left, the turn timed out). */
  CANCELLED,
  /** The page said the conversation is full. */
  RETIRED,
  /** A temporary chat from before a restart. */
  EXPIRED,
  /** The conversation was deleted from the page. */
  DELETED,
  /** The conversation is not where this daemon opens conversations (another project, not temporary). */
  MISPLACED,
  /** The page no longer has the conversation. */
  MISSING,
  /** The uncertain turn's conversation holds no answer to it. */
  UNRECOVERED;

  /** The name /healthz and the operator page use: {@code nothing_new}. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The cause of replacing a conversation of {@code status} (anything but {@code ready}). */
  static ReplayCause of(Conversation.Status status) {
    return switch (status) {
      case IN_FLIGHT, UNCERTAIN -> UNCERTAIN;
      case CANCELLED -> CANCELLED;
      case RETIRED -> RETIRED;
      case EXPIRED -> EXPIRED;
      case DELETED -> DELETED;
      case READY -> throw new IllegalArgumentException("a ready conversation is continued, not replaced");
    };
  }
}

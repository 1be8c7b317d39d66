package dev.solweb.provider.translate;

import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.model.Attachment;
import java.util.List;
import java.util.Optional;

/**
 * What {@link Conversations#plan} decided for one turn: type a delta into the conversation that
 * holds the prefix, replace the conversation and type the whole history into a fresh one, or
 * first look for the answer in the conversation a send of this very turn was left uncertain in.
 * The seat uploads {@link #attachments()}, then types {@link #text()} and nothing else.
 */
public sealed interface TurnPlan {

  ChatTurn turn();

  /** The exact text to type. */
  String text();

  /**
   * The files to upload with the text: only those the conversation does not hold yet (by
   * sha256), at most {@link Attachment#MAX_PER_TURN}; the text names them all.
   */
  List<Attachment> attachments();

  /** Estimated input tokens this text adds ({@link ContextBudget#estimateInput}). */
  long newInput();

  /** A {@code context_overflow} failure when the send would not fit; the seat must not send. */
  Optional<ProviderFailure> overflow();

  /**
   * Resume {@code into} (its URL) and type only the messages it has not seen.
   */
  record Deliver(ChatTurn turn, Conversation into, String text, long newInput, List<Attachment> attachments)
      implements TurnPlan {
    public Deliver {
      attachments = List.copyOf(attachments);
    }

    @Override
    public Optional<ProviderFailure> overflow() {
      return ContextBudget.check(into.estimatedInput(), into.estimatedOutput(), newInput, 0);
    }
  }

  /**
   * Open a fresh conversation and type the preamble plus the whole history. A desynced,
   * uncertain or retired conversation is replaced this way, never patched.
   *
   * @param replaced the registry entry this replaces, or null for a session never seen
   * @param mandatory estimated tokens of the system rules and tool schemas alone
   * @param cause why, as /healthz counts it ({@link ReplayCause#FRESH} for a session's first turn)
   * @param why why the conversation is not continued, in words (for logs and tests)
   * @param attachments the history's newest files (its text's note names any left out)
   */
  record Replay(ChatTurn turn, Conversation replaced, String text, long newInput, long mandatory, ReplayCause cause,
      String why, List<Attachment> attachments) implements TurnPlan {
    public Replay {
      attachments = List.copyOf(attachments);
    }

    @Override
    public Optional<ProviderFailure> overflow() {
      // A fresh replay's failure names its largest message: the one a compaction cannot shrink.
      return ContextBudget.check(0, 0, newInput, mandatory, turn.messages());
    }
  }

  /**
   * This exact turn was sent before and left uncertain past the Send boundary (the daemon killed,
   * the browser lost, a timeout): look for its answer in {@code uncertain}'s conversation, after
   * the user message the page's request named ({@link Conversation#sentMessageId()}), before
   * anything is typed. Found: it answers the request and the conversation carries on; not found:
   * {@link Conversations#replayUnrecovered} replays as before. Nothing is typed for this plan.
   */
  record Recover(ChatTurn turn, Conversation uncertain) implements TurnPlan {
    @Override
    public String text() {
      return "";
    }

    @Override
    public long newInput() {
      return 0; // the uncertain send's input is already in the entry's estimate
    }

    @Override
    public List<Attachment> attachments() {
      return List.of(); // nothing is sent; the uncertain send's files are in the entry already
    }

    @Override
    public Optional<ProviderFailure> overflow() {
      return Optional.empty();
    }
  }
}

package dev.solweb.provider.translate;

import dev.solweb.provider.failure.ProviderFailure;
import java.util.Optional;

/**
 * What {@link Conversations#plan} decided for one turn: type a delta into the conversation that
 * holds the prefix, or replace the conversation and type the whole history into a fresh one.
 * The seat types {@link #text()} and nothing else.
 */
public sealed interface TurnPlan {

  ChatTurn turn();

  /** The exact text to type. */
  String text();

  /** Estimated input tokens this text adds ({@link ContextBudget#estimateInput}). */
  long newInput();

  /** A {@code context_overflow} failure when the send would not fit; the seat must not send. */
  Optional<ProviderFailure> overflow();

  /**
   * Resume {@code into} (its URL) and type only the messages it has not seen.
   */
  record Deliver(ChatTurn turn, Conversation into, String text, long newInput) implements TurnPlan {
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
   * @param why why the conversation is not continued (for logs and tests)
   */
  record Replay(ChatTurn turn, Conversation replaced, String text, long newInput, long mandatory, String why)
      implements TurnPlan {
    @Override
    public Optional<ProviderFailure> overflow() {
      return ContextBudget.check(0, 0, newInput, mandatory);
    }
  }
}

package dev.solweb.provider.translate;

import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.protocol.Preamble;
import dev.solweb.provider.protocol.ReplyRules;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Context occupancy of a browser conversation, estimated deterministically: one token per UTF-8
 * byte of text actually typed (preamble or full replay once, then deltas), plus 16 per message
 * and 8 per tool definition; output is the visible answer text. Deliberately conservative and
 * tokenizer-independent. These are adapter safety settings, not ChatGPT product limits.
 */
public final class ContextBudget {
  public static final long CONTEXT_WINDOW = 120_000;
  public static final long RESERVED_OUTPUT = 16_000;
  /** Budget for new input before any answer accumulated: window minus reserved output. */
  public static final long INPUT_CEILING = CONTEXT_WINDOW - RESERVED_OUTPUT;
  public static final int PER_MESSAGE = 16;
  public static final int PER_TOOL = 8;

  private ContextBudget() {}

  public static long estimateTokens(String text) {
    return text.getBytes(StandardCharsets.UTF_8).length;
  }

  /** Estimated input of one typed text that renders {@code messages} messages and {@code tools} tools. */
  public static long estimateInput(String typed, int messages, int tools) {
    return estimateTokens(typed) + (long) PER_MESSAGE * messages + (long) PER_TOOL * tools;
  }

  /**
   * {@code input} typed whole into a fresh conversation, as a replay types it: the preamble with
   * the system text and tool schemas, then the history. What a client asking to count its
   * tokens is told ({@code /v1/messages/count_tokens}).
   */
  public static long estimateFresh(ChatInput input, ReplyRules rules) {
    String preamble = Preamble.render(SessionKey.systemText(input.messages()), rules);
    String history = Delivery.deliverAll(input.messages());
    return estimateInput(history.isEmpty() ? preamble : preamble + "\n" + history, input.messages().size(),
        input.tools().size());
  }

  /**
   * Refuses a send that would take the conversation over the window.
   *
   * @param mandatory estimated tokens of the system rules and tool schemas (fresh conversations;
   *     0 for deltas): over {@link #INPUT_CEILING} they fail explicitly and are never truncated
   * @return a {@code context_overflow} failure, or empty when the send fits
   */
  public static Optional<ProviderFailure> check(long input, long output, long newInput, long mandatory) {
    return check(input, output, newInput, mandatory, List.of());
  }

  /**
   * As {@link #check(long, long, long, long)}; for a replay into a fresh conversation
   * ({@code replayed}: the request's messages, typed after the preamble) an overflow also names
   * the largest message and says whether it fits at all: with the mandatory preamble alone it
   * needs {@code mandatory + its tokens + reserved}; over the window, compaction cannot help and
   * the failure says by how much that one message must shrink.
   */
  public static Optional<ProviderFailure> check(long input, long output, long newInput, long mandatory,
      List<Message> replayed) {
    if (mandatory > INPUT_CEILING) {
      return Optional.of(ProviderFailure.of(ProviderFailure.Kind.CONTEXT_OVERFLOW,
          "the system rules and tool schemas alone are estimated at " + mandatory
              + " tokens, over the " + INPUT_CEILING + " ceiling, so the request exceeds the context window;"
              + " nothing was truncated or sent"));
    }
    long total = input + newInput + output + RESERVED_OUTPUT;
    if (total <= CONTEXT_WINDOW) {
      return Optional.empty();
    }
    String head = "estimated input " + (input + newInput) + " + output " + output + " + reserved " + RESERVED_OUTPUT
        + " = " + total + " tokens exceeds the context window of " + CONTEXT_WINDOW + " by " + (total - CONTEXT_WINDOW);
    return Optional.of(ProviderFailure.of(ProviderFailure.Kind.CONTEXT_OVERFLOW,
        head + largest(replayed, mandatory) + "; nothing was sent"));
  }

  /** "; compact the history", or which replayed message is too large and by how much. */
  private static String largest(List<Message> replayed, long mandatory) {
    int index = -1;
    long tokens = 0;
    for (int i = 0; i < replayed.size(); i++) {
      String block = TurnEnvelope.block(replayed.get(i));
      long t = block == null ? 0 : estimateInput(block, 1, 0);
      if (t > tokens) {
        index = i;
        tokens = t;
      }
    }
    if (index < 0) {
      return "; compact the history";
    }
    Message m = replayed.get(index);
    String which = "messages[" + index + "] (" + (m.role() == Message.Role.TOOL ? "the tool result for "
        + m.toolCallId() : m.role().name().toLowerCase(Locale.ROOT) + " message") + ", " + tokens + " tokens)";
    long alone = mandatory + tokens + RESERVED_OUTPUT;
    if (alone > CONTEXT_WINDOW) {
      return "; the largest of the " + replayed.size() + " messages, " + which + ", cannot fit even alone: with the"
          + " system rules and tool schemas (" + mandatory + ") and the reserve it needs " + alone
          + ", so it must shrink by at least " + (alone - CONTEXT_WINDOW) + " tokens; compaction cannot help";
    }
    return "; the largest of the " + replayed.size() + " messages is " + which + "; compact the history";
  }
}

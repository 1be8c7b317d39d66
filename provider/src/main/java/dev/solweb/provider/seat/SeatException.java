package dev.solweb.provider.seat;

import dev.solweb.provider.failure.ProviderFailure;
import java.util.Objects;
import java.util.Optional;

/**
 * A seat operation that did not complete. The reason tells the dispatcher what to do; the
 * failure is what the client sees if the dispatcher cannot recover.
 */
public final class SeatException extends Exception {

  /** What the dispatcher does about it. */
  public enum Reason {
    /** A typed failure for this turn (cap, logged out, overflow, protocol, cancelled, ...). */
    FAILED,
    /** The browser connection is gone: rebuild the seat once. */
    BROKEN,
    /** {@link BrowserSeat#resume} found no such conversation; nothing was sent. */
    CONVERSATION_MISSING
  }

  private final Reason reason;
  private final transient ProviderFailure failure;
  private final boolean afterSend;
  private final boolean conversationFull;
  private final transient AccountBlock block;

  public SeatException(Reason reason, ProviderFailure failure, boolean afterSend, Throwable cause) {
    this(reason, failure, afterSend, false, null, cause);
  }

  private SeatException(Reason reason, ProviderFailure failure, boolean afterSend, boolean conversationFull,
      AccountBlock block, Throwable cause) {
    super(failure.message(), cause);
    this.reason = Objects.requireNonNull(reason, "reason");
    this.failure = failure;
    this.afterSend = afterSend;
    this.conversationFull = conversationFull;
    this.block = block;
  }

  /**
   * ChatGPT says the conversation reached its maximum length: a typed {@code context_overflow}
   * for this turn (nothing is re-sent), and the conversation can take no further turn, so the
   * session's next turn must open a fresh conversation and replay the history.
   */
  public static SeatException conversationFull(String detail, boolean afterSend) {
    return new SeatException(Reason.FAILED, ProviderFailure.of(ProviderFailure.Kind.CONTEXT_OVERFLOW, detail),
        afterSend, true, null, null);
  }

  /** A typed failure for this turn that also stops the whole account ({@link AccountBlock}). */
  public static SeatException blocked(ProviderFailure failure, AccountBlock block, boolean afterSend) {
    return new SeatException(Reason.FAILED, failure, afterSend, false, Objects.requireNonNull(block, "block"), null);
  }

  public static SeatException failed(ProviderFailure failure, boolean afterSend) {
    return new SeatException(Reason.FAILED, failure, afterSend, null);
  }

  public static SeatException broken(String detail, boolean afterSend, Throwable cause) {
    return new SeatException(
        Reason.BROKEN,
        ProviderFailure.of(ProviderFailure.Kind.UNAVAILABLE, detail),
        afterSend,
        cause);
  }

  public static SeatException conversationMissing(String url) {
    return new SeatException(
        Reason.CONVERSATION_MISSING,
        ProviderFailure.of(ProviderFailure.Kind.UNAVAILABLE, "conversation missing: " + url),
        false,
        null);
  }

  public Reason reason() {
    return reason;
  }

  public ProviderFailure failure() {
    return failure;
  }

  /** True when the conversation is full: never resume it, replay into a fresh one next time. */
  public boolean conversationFull() {
    return conversationFull;
  }

  /** What the page said about the whole account, when it said anything. */
  public Optional<AccountBlock> accountBlock() {
    return Optional.ofNullable(block);
  }

  /** True when Send was clicked: the turn may have reached ChatGPT and must not be resent. */
  public boolean afterSend() {
    return afterSend;
  }
}

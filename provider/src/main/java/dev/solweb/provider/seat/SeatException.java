package dev.solweb.provider.seat;

import dev.solweb.provider.failure.ProviderFailure;
import java.util.Objects;

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

  public SeatException(Reason reason, ProviderFailure failure, boolean afterSend, Throwable cause) {
    super(failure.message(), cause);
    this.reason = Objects.requireNonNull(reason, "reason");
    this.failure = failure;
    this.afterSend = afterSend;
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

  /** True when Send was clicked: the turn may have reached ChatGPT and must not be resent. */
  public boolean afterSend() {
    return afterSend;
  }
}

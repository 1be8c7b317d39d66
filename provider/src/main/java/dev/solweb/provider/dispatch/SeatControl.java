package dev.solweb.provider.dispatch;

import dev.solweb.provider.seat.SeatScreen;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A person's control of one seat from the operator page ({@link Dispatcher#takeControl}): the seat
 * leaves the pool (no turn and no seat work is dispatched to it; queued turns wait for another
 * seat or for its return), input is relayed only while it is {@link State#CONTROLLED}, and it
 * returns by {@link Dispatcher#giveBack} or by itself after {@link SeatControls#IDLE}
 * without input. On its return the seat probes its page again before it takes a turn, so a login
 * the person did is seen (the account) and a page still walled keeps the daemon's state honest.
 */
public final class SeatControl {
  private SeatControl() {
  }

  /**
   * Where the operator page's seat routes take and give back control and reach a seat's screen:
   * the daemon's {@link Dispatcher}, or {@code solwebctl login --web}'s one login window.
   */
  public interface Desk {
    /** The seat's screen; empty for a seat without a page. @throws Refused 404 for no such seat */
    Optional<SeatScreen> screen(int seat);

    /** Takes control: completes once it is taken. @throws Refused when it cannot be */
    CompletableFuture<View> takeControl(int seat);

    /** Gives control back; false when the seat was not under control. */
    boolean giveBack(int seat);

    /** Records input on a controlled seat. @throws Refused 409 when the seat is not under control */
    View touch(int seat);

    /** How the seat's control stands, or null while it is free. */
    View control(int seat);
  }

  /** {@code PENDING}: asked for while a turn or seat job ran on the seat; it is taken when that ends. */
  public enum State { PENDING, CONTROLLED }

  /**
   * How one seat's control stands.
   *
   * @param since when it was asked for ({@code PENDING}) or taken ({@code CONTROLLED})
   * @param idleReleaseAt when it is given back without more input; null while {@code PENDING}
   */
  public record View(int seat, State state, Instant since, Instant idleReleaseAt) {}

  /** Why a control request was refused: its HTTP status, error type and a line that says what to do. */
  public static final class Refused extends RuntimeException {
    private final int status;
    private final String type;

    public Refused(int status, String type, String message) {
      super(message);
      this.status = status;
      this.type = type;
    }

    public int status() {
      return status;
    }

    public String type() {
      return type;
    }
  }
}

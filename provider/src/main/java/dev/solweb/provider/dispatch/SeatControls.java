package dev.solweb.provider.dispatch;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntConsumer;
import java.util.logging.Logger;

/**
 * The bookkeeping of a person's control of the seats ({@link SeatControl}): which seat is asked
 * for or taken, since when, its last input and the idle release. The {@link Dispatcher} decides
 * when a seat is free; this class only remembers. Not thread-safe on its own: every call is made
 * under the monitor {@code lock} given to it, and the idle timer takes that monitor too.
 */
final class SeatControls {
  private static final Logger LOG = Logger.getLogger(SeatControls.class.getName());
  /** How long a seat under a person's control stays so without input before it is given back. */
  static final Duration IDLE = Duration.ofMinutes(5);

  /** What a give-back found: no control, a control still waiting for its turn to end, or a seat taken. */
  enum Released { NONE, PENDING, TAKEN }

  private final Control[] controls; // by seat index: a person's control of the seat, or null while it is in the pool
  private final DispatchTime time;
  private final Object lock;
  private final IntConsumer idleRelease;

  /**
   * @param lock the scheduler's monitor, taken by the idle timer before it looks
   * @param idleRelease gives a seat back once it was idle {@link #IDLE}; called under {@code lock}
   */
  SeatControls(int seats, DispatchTime time, Object lock, IntConsumer idleRelease) {
    this.controls = new Control[seats];
    this.time = time;
    this.lock = lock;
    this.idleRelease = idleRelease;
  }

  /**
   * Asks for seat {@code seat}: taken at once when {@code seatFree}, else when {@link #turnEnded}
   * says so. Asking again while it is asked for or held answers the same future.
   */
  CompletableFuture<SeatControl.View> ask(int seat, boolean seatFree) {
    Control control = controls[seat];
    if (control != null) {
      return control.taken;
    }
    control = new Control(time.now());
    controls[seat] = control;
    if (seatFree) {
      activate(seat, control);
    } else {
      LOG.info("seat " + seat + ": control asked for; it is taken when the running turn ends");
    }
    return control.taken;
  }

  /** Drops seat {@code seat}'s control; a pending one's future fails. The caller returns the seat to the pool. */
  Released giveBack(int seat) {
    Control control = controls[seat];
    if (control == null) {
      return Released.NONE;
    }
    controls[seat] = null;
    control.idle.cancel();
    if (control.state == SeatControl.State.PENDING) {
      control.taken.completeExceptionally(new SeatControl.Refused(409, "given_back",
          "seat " + seat + " was given back before the running turn ended"));
      return Released.PENDING;
    }
    return Released.TAKEN;
  }

  /**
   * Records input on a controlled seat (the idle release counts from the last input).
   *
   * @throws SeatControl.Refused 409 when the seat is not under control (input is relayed only then)
   */
  SeatControl.View touch(int seat) {
    Control control = controls[seat];
    if (control == null || control.state != SeatControl.State.CONTROLLED) {
      throw new SeatControl.Refused(409, "not_controlled", "seat " + seat + " is not under your control"
          + (control == null ? "" : " yet (a turn is still running on it)")
          + ": take control first (POST /ui/api/seats/" + seat + "/control); input is relayed only while controlled");
    }
    control.lastInput = time.now();
    return control.view(seat);
  }

  /** How seat {@code seat}'s control stands, or null while it is in the pool. */
  SeatControl.View view(int seat) {
    return controls[seat] == null ? null : controls[seat].view(seat);
  }

  /** Every seat under control or asked for, in index order. */
  List<SeatControl.View> views() {
    List<SeatControl.View> views = new ArrayList<>();
    for (int i = 0; i < controls.length; i++) {
      if (controls[i] != null) {
        views.add(controls[i].view(i));
      }
    }
    return views;
  }

  /** Whether seat {@code seat} is asked for or held: it takes nothing, not even seat work. */
  boolean holds(int seat) {
    return controls[seat] != null;
  }

  /** The turn or job on seat {@code seat} ended: a control asked for meanwhile is taken now. */
  void turnEnded(int seat) {
    Control control = controls[seat];
    if (control != null && control.state == SeatControl.State.PENDING) {
      activate(seat, control);
    }
  }

  /** Shutting down: every control ends, a pending one's future fails. */
  void closeAll() {
    for (Control control : controls) {
      if (control != null) {
        control.idle.cancel();
        control.taken.completeExceptionally(new SeatControl.Refused(503, "shutting_down", "solwebd is shutting down"));
      }
    }
  }

  private void activate(int seat, Control control) {
    control.state = SeatControl.State.CONTROLLED;
    control.since = time.now();
    control.lastInput = control.since;
    LOG.info("seat " + seat + ": under the operator's control; no turns until it is given back");
    watchIdle(seat, control, IDLE);
    control.taken.complete(control.view(seat));
  }

  /** Gives the seat back once {@link #IDLE} passed since the last input; input only moves the mark. */
  private void watchIdle(int seat, Control control, Duration in) {
    control.idle = time.schedule(in, () -> {
      synchronized (lock) {
        if (controls[seat] != control) {
          return;
        }
        Duration left = Duration.between(time.now(), control.lastInput.plus(IDLE));
        if (left.isNegative() || left.isZero()) {
          LOG.info("seat " + seat + ": no input for " + IDLE.toMinutes() + " min; given back");
          idleRelease.accept(seat);
        } else {
          watchIdle(seat, control, left);
        }
      }
    });
  }

  /** One seat's control: asked for, then taken; the idle release rides on {@link #idle}. */
  private static final class Control {
    final CompletableFuture<SeatControl.View> taken = new CompletableFuture<>();
    SeatControl.State state = SeatControl.State.PENDING;
    Instant since;
    Instant lastInput;
    DispatchTime.Cancellable idle = () -> { };

    Control(Instant asked) {
      this.since = asked;
    }

    SeatControl.View view(int seat) {
      return new SeatControl.View(seat, state, since,
          state == SeatControl.State.CONTROLLED ? lastInput.plus(IDLE) : null);
    }
  }
}

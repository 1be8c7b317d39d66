package dev.solweb.provider.dispatch;

import dev.solweb.provider.seat.SeatScreen;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.logging.Logger;

/**
 * A person's control of a {@link Dispatcher}'s seats ({@link SeatControl}), for the operator page:
 * a seat taken out of the pool is given no turn until it is given back, and it probes its page
 * before the next. Every verb holds the dispatcher's lock, as its scheduling does.
 */
final class SeatDesk implements SeatControl.Desk {
  private static final Logger LOG = Logger.getLogger(SeatDesk.class.getName());

  private final Dispatcher scheduler;

  SeatDesk(Dispatcher scheduler) {
    this.scheduler = scheduler;
  }

  /** A seat's picture, screencast and hands, for the operator page; empty for a seat without a page or a dead one. */
  @Override
  public Optional<SeatScreen> screen(int seat) {
    return seatAt(seat).screen();
  }

  /**
   * Takes seat {@code seat} out of the pool for a person ({@link SeatControl}): at once when it is
   * free, else when the turn or seat job running on it ends (the future completes then; nothing
   * new is dispatched to it meanwhile). Asking again while it is asked for or held answers the same.
   *
   * @throws SeatControl.Refused no such seat (404), the seat is dead, still starting or has no page (409)
   */
  @Override
  public CompletableFuture<SeatControl.View> takeControl(int seat) {
    synchronized (scheduler) {
      SeatPool.Seat target = seatAt(seat);
      if (scheduler.closed) {
        throw new SeatControl.Refused(503, "shutting_down", "solwebd is shutting down");
      }
      if (!scheduler.started) {
        throw new SeatControl.Refused(409, "starting", "the seats are still starting; try again in a moment");
      }
      if (!target.live()) {
        throw new SeatControl.Refused(409, "seat_down", "seat " + seat + " is down: " + scheduler.pool.deadDetail());
      }
      if (target.screen().isEmpty()) {
        throw new SeatControl.Refused(409, "no_page", "seat " + seat + " has no page to control (a scripted seat)");
      }
      return scheduler.controls.ask(seat, scheduler.onSeat[seat] == null);
    }
  }

  /**
   * Gives seat {@code seat} back to the pool: it probes its page first, then takes turns again.
   * A control still waiting for a turn to end is dropped (its future fails).
   *
   * @return false when the seat was not under control
   */
  @Override
  public boolean giveBack(int seat) {
    synchronized (scheduler) {
      SeatPool.Seat target = seatAt(seat);
      SeatControls.Released released = scheduler.controls.giveBack(seat);
      if (released == SeatControls.Released.NONE) {
        return false;
      }
      if (released == SeatControls.Released.TAKEN && target.live() && scheduler.onSeat[seat] == null
          && !scheduler.closed) {
        LOG.info("seat " + seat + ": given back; probing its page before the next turn");
        Job probe = new Job(scheduler, TurnRequest.SeatWork.create(), "");
        probe.seatWork = page -> {
          target.reprobe();
          return null;
        };
        scheduler.startOn(target, probe);
      }
      scheduler.pump();
      return true;
    }
  }

  /**
   * Records input on a controlled seat (the idle release counts from the last input).
   *
   * @throws SeatControl.Refused 409 when the seat is not under control (input is relayed only then)
   */
  @Override
  public SeatControl.View touch(int seat) {
    synchronized (scheduler) {
      seatAt(seat);
      return scheduler.controls.touch(seat);
    }
  }

  /** How seat {@code seat}'s control stands, or null while it is in the pool. */
  @Override
  public SeatControl.View control(int seat) {
    synchronized (scheduler) {
      seatAt(seat);
      return scheduler.controls.view(seat);
    }
  }

  private SeatPool.Seat seatAt(int seat) {
    SeatPool pool = scheduler.pool;
    if (seat < 0 || seat >= pool.size()) {
      throw new SeatControl.Refused(404, "no_such_seat", "no seat " + seat + "; this daemon runs seats 0 to "
          + (pool.size() - 1));
    }
    return pool.seats().get(seat);
  }
}

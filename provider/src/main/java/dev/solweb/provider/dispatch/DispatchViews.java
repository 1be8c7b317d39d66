package dev.solweb.provider.dispatch;

import java.util.ArrayList;
import java.util.List;

/**
 * What a {@link Dispatcher} shows of itself, read under its lock: the live turns, the seats and the
 * last finished turns, for {@code /healthz} and the operator page. No text of a prompt or an answer.
 */
public final class DispatchViews {
  private final Dispatcher scheduler;

  DispatchViews(Dispatcher scheduler) {
    this.scheduler = scheduler;
  }

  /**
   * Every accepted turn not yet answered, running ones (in seat order) before queued ones (in
   * queue order); seat work ({@link Dispatcher#runBetweenTurns}) is no turn and is not shown.
   */
  public List<LiveTurn.View> turns() {
    synchronized (scheduler) {
      List<LiveTurn.View> views = new ArrayList<>();
      for (Job job : scheduler.onSeat) {
        if (job != null && job.live != null) {
          views.add(job.live.view());
        }
      }
      for (Job job : scheduler.queue) {
        if (job.live != null) {
          views.add(job.live.view());
        }
      }
      return views;
    }
  }

  /** Every seat, in index order, as the operator page shows it. */
  public List<SeatView> seats() {
    synchronized (scheduler) {
      List<SeatView> views = new ArrayList<>();
      for (SeatPool.Seat seat : scheduler.pool.seats()) {
        Job job = scheduler.onSeat[seat.index];
        String state = !seat.live() ? "dead" : seat.lastProbe() == null ? "starting" : SeatView.stateOf(seat.lastProbe());
        String detail = !seat.live() ? seat.deathCause() : seat.lastProbe() == null ? "starting" : seat.lastProbe().detail();
        String doing = job == null ? "idle" : job.seatWork != null ? "seat_work" : "turn";
        views.add(new SeatView(seat.index, state, detail, scheduler.seatEffort[seat.index], doing,
            job == null || job.live == null ? null : job.live.view()));
      }
      return views;
    }
  }

  /** The last turns the seats finished, newest first (a bounded ring; no text). */
  public List<FinishedTurn> finishedTurns() {
    synchronized (scheduler) {
      return scheduler.finished.newestFirst();
    }
  }
}

package dev.solweb.provider.dispatch;

import dev.solweb.provider.seat.SeatProbe;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * What {@code /healthz} shows of the scheduler and its seats, at one moment. The state is the
 * first that holds of: {@code starting} (seats still starting), {@code capped} (the account's cap
 * has not lifted), {@code paused} (the page paused or stopped the whole account, REAL-PAGE rows
 * 52-53: nothing is sent until the pause ends or a person resumes it), {@code logged_out} (a seat's page is), {@code degraded} (a seat is dead, or a
 * seat's page is neither ready nor capped), {@code capped} (a seat's page shows the cap),
 * {@code degraded} (every live seat is under the operator's control: no turn can run), else
 * {@code ready}. A seat under control (or asked for) adds a line to the detail, whatever the state.
 *
 * @param controls the seats under a person's control or asked for ({@link SeatControl}), in index order
 *
 * @param liveSeats seats alive, of {@code seats}
 * @param capResumeAt when a cap lifts, only while {@code capped}
 * @param detail one line saying why the state is what it is (a seat's own words where it has them)
 */
public record HealthSnapshot(
    String state, int queue, int active, int seats, int liveSeats, double turnP50Seconds,
    double dispatchWaitSeconds, Instant capResumeAt, String account, String detail, List<SeatControl.View> controls) {

  public HealthSnapshot {
    controls = List.copyOf(controls);
  }

  /** What the scheduler knows now; the caller holds its lock. {@code accountPaused}: the pause's words while one holds, else null. */
  static HealthSnapshot of(boolean started, Instant capUntil, Instant now, SeatPool pool, int queue, int active,
      double turnP50Seconds, double dispatchWaitSeconds, List<SeatControl.View> controls, String accountPaused) {
    int live = pool.live();
    String account = pool.account();
    String state;
    String detail;
    Instant resumeAt = null;
    if (!started) {
      state = "starting";
      detail = "seats are starting";
    } else if (capUntil != null && now.isBefore(capUntil)) {
      state = "capped";
      detail = "usage cap until " + capUntil;
      resumeAt = capUntil;
    } else if (accountPaused != null) {
      state = "paused";
      detail = accountPaused;
    } else if (pool.probes().stream().anyMatch(p -> p.state() == SeatProbe.State.LOGGED_OUT)) {
      state = "logged_out";
      // The seat's own words: through the daemon's DiagnosedSeats they name the fix (solwebctl login).
      detail = pool.probes().stream().filter(p -> p.state() == SeatProbe.State.LOGGED_OUT)
          .map(SeatProbe::detail).findFirst().orElse("ChatGPT is logged out in the seat's profile");
    } else if (live < pool.size()) {
      state = "degraded";
      detail = pool.deadDetail();
    } else if (pool.probes().stream().anyMatch(p -> p.state() != SeatProbe.State.READY)) {
      SeatProbe odd = pool.probes().stream().filter(p -> p.state() != SeatProbe.State.READY).findFirst().orElseThrow();
      boolean capped = odd.state() == SeatProbe.State.CAPPED;
      state = capped ? "capped" : "degraded";
      detail = odd.detail();
      resumeAt = capped ? (odd.capResumeAt() != null ? odd.capResumeAt() : capUntil) : null;
    } else if (live > 0 && controls.stream().filter(c -> c.state() == SeatControl.State.CONTROLLED).count() >= live) {
      // No seat can take a turn: clients must not read the daemon as ready (turns queue until one is given back).
      state = "degraded";
      detail = "every seat is under the operator's control";
    } else {
      state = "ready";
      detail = "ready";
    }
    for (SeatControl.View control : controls) {
      detail += "; seat " + control.seat() + (control.state() == SeatControl.State.CONTROLLED
          ? " is under the operator's control (no turns until it is given back, by itself at "
              + control.idleReleaseAt().truncatedTo(ChronoUnit.SECONDS) + ")"
          : " is to be taken under control when its running turn ends");
    }
    return new HealthSnapshot(state, queue, active, pool.size(), live, turnP50Seconds, dispatchWaitSeconds,
        resumeAt, account, detail, controls);
  }

  /** The state and its detail as one line a person reads ({@link #causeLine}): /healthz's {@code cause}. */
  public String cause() {
    return causeLine(state, detail);
  }

  /**
   * {@code "<state in words>: <detail>"}, naming the state once. A seat's own words already start
   * with it ("logged out: the profile ... has no ChatGPT session"), and each reader that put the
   * state in front again showed "logged out: logged out: ..." (the operator page, solwebctl): every
   * reader takes this line instead of joining the two itself.
   */
  public static String causeLine(String state, String detail) {
    String words = state.replace('_', ' ');
    if (detail == null || detail.isBlank()) {
      return words;
    }
    return detail.startsWith(words) ? detail : words + ": " + detail;
  }
}

package dev.solweb.provider.daemon;

import dev.solweb.provider.seat.BrowserSeat;
import dev.solweb.provider.seat.ForwardingSeat;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.SeatFactory;
import dev.solweb.provider.seat.SeatProbe;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntFunction;

/**
 * The daemon's seat factory, seen through {@link SeatStartFailure}: a seat that cannot launch
 * fails with the one-line cause and fix (the trace goes to the log), and every probe that finds
 * the page blocked (logged out, challenged, not ready) carries that line as its detail, so
 * {@code /healthz} and {@code solwebctl health} say the same thing the daemon printed.
 */
final class DiagnosedSeats implements SeatFactory {
  private final SeatFactory factory;
  private final IntFunction<SeatStartFailure.Seat> seatOf;
  private final int seats;
  private final Map<Integer, SeatStartFailure> launchFailures = new TreeMap<>();
  private final java.util.Set<Integer> firstAttempts = new java.util.HashSet<>();
  private int firstFailures;
  private final CompletableFuture<Map<Integer, SeatStartFailure>> noSeat = new CompletableFuture<>();

  /**
   * @param seatOf what the classifier needs to know about seat i (its profile, Chromium, display)
   * @param seats how many seats the daemon starts
   */
  DiagnosedSeats(SeatFactory factory, IntFunction<SeatStartFailure.Seat> seatOf, int seats) {
    this.factory = factory;
    this.seatOf = seatOf;
    this.seats = seats;
  }

  /**
   * Completes, with every seat's cause, when the first launch of every seat has failed. It
   * completes inside the last failing {@link #create}, before the dispatcher counts its seats as
   * started, so what depends on it runs before /healthz can report anything but "starting".
   */
  CompletableFuture<Map<Integer, SeatStartFailure>> noSeatStarted() {
    return noSeat;
  }

  @Override
  public BrowserSeat create(int seatIndex) throws SeatException {
    BrowserSeat seat;
    boolean first;
    synchronized (launchFailures) {
      first = firstAttempts.add(seatIndex);
    }
    try {
      seat = factory.create(seatIndex);
    } catch (SeatException | RuntimeException e) {
      // The dispatcher logs this exception, with the original's trace as its cause, to the log file.
      SeatStartFailure failure = SeatStartFailure.ofLaunch(e, seatOf.apply(seatIndex));
      boolean none;
      synchronized (launchFailures) {
        launchFailures.put(seatIndex, failure);
        none = first && ++firstFailures == seats;
      }
      if (none) {
        noSeat.complete(launchFailures());
      }
      throw SeatException.broken(failure.line(), false, e);
    }
    synchronized (launchFailures) {
      launchFailures.remove(seatIndex);
    }
    return new Diagnosed(seat, seatOf.apply(seatIndex));
  }

  /** The seats whose latest launch failed, by index, with why. */
  Map<Integer, SeatStartFailure> launchFailures() {
    synchronized (launchFailures) {
      return Map.copyOf(launchFailures);
    }
  }

  /** A seat whose blocked probes explain themselves; everything else is passed through. */
  private static final class Diagnosed extends ForwardingSeat {
    private final SeatStartFailure.Seat about;

    Diagnosed(BrowserSeat seat, SeatStartFailure.Seat about) {
      super(seat);
      this.about = about;
    }

    @Override
    public SeatProbe probe() throws SeatException {
      SeatProbe probe = super.probe();
      if (probe.state() == SeatProbe.State.READY || probe.state() == SeatProbe.State.CAPPED) {
        return probe;
      }
      String line = SeatStartFailure.ofProbe(probe, null, about).map(SeatStartFailure::line).orElse(probe.detail());
      return new SeatProbe(probe.state(), probe.account(), probe.capResumeAt(), line);
    }
  }
}

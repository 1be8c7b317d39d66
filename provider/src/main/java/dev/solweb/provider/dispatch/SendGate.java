package dev.solweb.provider.dispatch;

import dev.solweb.provider.failure.ProviderFailure.Kind;
import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.failure.TurnFailed;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The account's Send pacing, across every seat: one Send on its way at a time (from the upload
 * and typing before it to the Send click the page's request proves), and each at least
 * {@code gap} after the last one ({@code SOLWEBD_SEND_GAP_MS}, default 2 s; docs/account-safety.md
 * and REAL-PAGE row 52: two turns started 4 s apart tripped the "Too many requests" modal once).
 * Uploads happen inside the paced window, so they are spaced the same way. Time comes from a
 * {@link DispatchTime}, so tests move it by hand.
 */
public final class SendGate {
  public static final String ENV = "SOLWEBD_SEND_GAP_MS";
  public static final Duration DEFAULT_GAP = Duration.ofSeconds(2);
  /** No pacing: for tests that do not exercise it. */
  public static SendGate unpaced() {
    return new SendGate(Duration.ZERO, null);
  }

  private final Duration gap;
  private final DispatchTime time;
  private boolean held;
  private Instant last;
  private int waiting;

  public SendGate(Duration gap, DispatchTime time) {
    if (gap.isNegative()) {
      throw new IllegalArgumentException(ENV + " must be 0 or more, got " + gap.toMillis());
    }
    this.gap = gap;
    this.time = time;
  }

  /** {@code SOLWEBD_SEND_GAP_MS}: whole milliseconds, 0 or more; blank is the default. */
  public static Duration parseGap(String millis) {
    return parseGap(millis, DEFAULT_GAP);
  }

  /** {@code SOLWEBD_SEND_GAP_MS}, or {@code unset} when it is blank. */
  public static Duration parseGap(String millis, Duration unset) {
    if (millis == null || millis.isBlank()) {
      return unset;
    }
    try {
      long ms = Long.parseLong(millis.strip());
      if (ms < 0) {
        throw new NumberFormatException();
      }
      return Duration.ofMillis(ms);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(ENV + " must be whole milliseconds, 0 or more (default 2000); got: " + millis);
    }
  }

  public Duration gap() {
    return gap;
  }

  /**
   * A Send may start now: the permit; else how long until it may (a zero wait means another Send
   * is on its way and its end is not yet known).
   */
  public synchronized Optional<Permit> tryAcquire() {
    if (gap.isZero()) {
      return Optional.of(new Permit());
    }
    if (held || !waitFrom(time.now()).isZero()) {
      return Optional.empty();
    }
    held = true;
    return Optional.of(new Permit());
  }

  /** How long from {@code now} until the gap after the last Send has passed (zero when it has). */
  public synchronized Duration waitFrom(Instant now) {
    if (last == null || gap.isZero()) {
      return Duration.ZERO;
    }
    Duration left = Duration.between(now, last.plus(gap));
    return left.isNegative() ? Duration.ZERO : left;
  }

  /** Threads blocked in {@link #acquire} now. */
  public synchronized int waiting() {
    return waiting;
  }

  /**
   * Blocks the seat's thread until a Send may start; the wake-up is set on the gate's time.
   *
   * @throws TurnFailed {@code cancelled} when the thread is interrupted (nothing was typed)
   */
  public Permit acquire() {
    synchronized (this) {
      waiting++;
      try {
        while (true) {
          Optional<Permit> permit = tryAcquire();
          if (permit.isPresent()) {
            return permit.get();
          }
          DispatchTime.Cancellable wake = held ? () -> { } : time.schedule(waitFrom(time.now()), this::wakeAll);
          try {
            wait();
          } finally {
            wake.cancel();
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new TurnFailed(ProviderFailure.of(Kind.CANCELLED, "interrupted while waiting for the Send gap; nothing was typed"));
      } finally {
        waiting--;
      }
    }
  }

  private synchronized void wakeAll() {
    notifyAll();
  }

  /** One Send's place: its end ({@link #sent} or {@link #release}) opens the gap for the next. */
  public final class Permit {
    private boolean done;

    /** The page's request proved the Send: the gap counts from now. */
    public void sent() {
      end(true);
    }

    /**
     * The send returned or failed: {@code mayHaveSent} counts the gap from now (a Send that
     * happened, or may have), else the next Send may go at once (nothing reached the page).
     */
    public void release(boolean mayHaveSent) {
      end(mayHaveSent);
    }

    private void end(boolean counted) {
      synchronized (SendGate.this) {
        if (done) {
          return;
        }
        done = true;
        if (gap.isZero()) {
          return;
        }
        held = false;
        if (counted) {
          last = time.now();
        }
        SendGate.this.notifyAll();
      }
    }
  }
}

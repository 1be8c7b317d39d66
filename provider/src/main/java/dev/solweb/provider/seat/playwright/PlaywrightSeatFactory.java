package dev.solweb.provider.seat.playwright;

import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.SeatFactory;
import dev.solweb.provider.seat.UploadReadiness;
import dev.solweb.provider.seat.playwright.browser.OrphanReaper;
import dev.solweb.provider.seat.playwright.browser.ProfileLock;
import dev.solweb.provider.seat.playwright.page.CompletionTracker;
import dev.solweb.provider.seat.playwright.traffic.HistoryPolls;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * Builds {@link PlaywrightSeat}s for a daemon. Creating the factory makes sure the profile is
 * this process's ({@link ProfileLock}: the owner's claim, or one taken here; a second daemon on
 * the same profile fails here, naming the lock and its holder) and ends Chromium processes
 * orphaned on the profile by a killed predecessor; a lock taken here is held until
 * {@link #close()} or process exit.
 *
 * <p>{@link #create(int)} is called on the seat's own thread, at start and once more to rebuild a
 * seat whose browser broke: the predecessor of that index is closed first.
 */
public final class PlaywrightSeatFactory implements SeatFactory, AutoCloseable {

  private final PlaywrightOptions options;
  private final ProfileLock lock; // null when the owner (solwebd, ask-gpt) holds the profile
  private final Clock clock;
  private final CompletionTracker.Rule completion;
  private final UploadReadiness readiness;
  /** The account's pacing of the seats' own history and status requests: one for all the seats. */
  private final HistoryPolls polls;
  private final Map<Integer, PlaywrightSeat> seats = new HashMap<>();
  private CompletableFuture<PlaywrightSeat> prelaunch;
  private boolean prelaunchTaken;

  private PlaywrightSeatFactory(PlaywrightOptions options, ProfileLock lock, Clock clock, CompletionTracker.Rule completion,
      UploadReadiness readiness) {
    this.options = options;
    this.readiness = readiness;
    this.lock = lock;
    this.clock = clock;
    this.completion = completion;
    this.polls = new HistoryPolls(clock);
  }

  /**
   * Takes the profile lock and reaps orphans; the seats themselves start lazily in {@link #create(int)}.
   *
   * @throws ProfileLock.ProfileLockedException when another process holds {@code <profile>.lock}
   */
  public static PlaywrightSeatFactory create(PlaywrightOptions options) {
    return create(options, Clock.systemUTC(), CompletionTracker.Rule.DEFAULT);
  }

  public static PlaywrightSeatFactory create(PlaywrightOptions options, Clock clock, CompletionTracker.Rule completion) {
    return create(options, clock, completion, UploadReadiness.PROCESSED);
  }

  /** As above, with when a turn's files count as uploaded (anything but the shipped rule is the kill gate's control). */
  public static PlaywrightSeatFactory create(PlaywrightOptions options, Clock clock, CompletionTracker.Rule completion,
      UploadReadiness readiness) {
    ProfileLock lock = ProfileLock.acquireUnlessOwned(options.profileDir()).orElse(null);
    OrphanReaper.reap(options.profileDir());
    return new PlaywrightSeatFactory(options, lock, clock, completion, readiness);
  }

  /**
   * Starts seat 0's Playwright and Chromium now, on a helper thread, so the browser comes up
   * while the daemon starts its HTTP side; the first {@code create(0)} adopts it. Safe by
   * Playwright's threading rule (one thread at a time): the helper stops touching the seat
   * before the future completes, and the seat thread starts after {@code get()}.
   */
  public synchronized void prelaunch() {
    if (prelaunch != null || prelaunchTaken) {
      return;
    }
    prelaunch = new CompletableFuture<>();
    CompletableFuture<PlaywrightSeat> future = prelaunch;
    Thread helper = new Thread(() -> {
      try {
        future.complete(new PlaywrightSeat(options, options.profileOf(0), clock, completion, polls, readiness));
      } catch (SeatException | RuntimeException e) {
        future.completeExceptionally(e);
      }
    }, "playwright-prelaunch");
    helper.setDaemon(true);
    helper.start();
  }

  /** Hands the prelaunched seat over once; later calls (rebuilds) get null. */
  private synchronized CompletableFuture<PlaywrightSeat> takePrelaunch(int seatIndex) {
    if (seatIndex != 0) {
      return null;
    }
    CompletableFuture<PlaywrightSeat> taken = prelaunch;
    prelaunch = null;
    prelaunchTaken = true;
    return taken;
  }

  @Override
  public PlaywrightSeat create(int seatIndex) throws SeatException {
    CompletableFuture<PlaywrightSeat> early = takePrelaunch(seatIndex);
    if (early != null) {
      try {
        PlaywrightSeat seat = early.get();
        synchronized (seats) {
          seats.put(seatIndex, seat);
        }
        return seat;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw SeatException.broken("interrupted while Chromium started", false, e);
      } catch (ExecutionException e) {
        // A launch failure is not retried (seed 004): the same Chromium on the same profile and
        // display fails the same way, and a second attempt only doubles the trace.
        if (e.getCause() instanceof SeatException launch) {
          throw launch;
        }
        if (e.getCause() instanceof RuntimeException launch) {
          throw launch;
        }
        throw SeatException.broken("Chromium did not start: " + e.getCause(), false, e.getCause());
      }
    }
    PlaywrightSeat previous;
    synchronized (seats) {
      previous = seats.remove(seatIndex);
    }
    if (previous != null) {
      previous.close();
    }
    PlaywrightSeat seat = new PlaywrightSeat(options, options.profileOf(seatIndex), clock, completion, polls, readiness);
    synchronized (seats) {
      seats.put(seatIndex, seat);
    }
    return seat;
  }

  public PlaywrightOptions options() {
    return options;
  }

  /** Releases the profile lock. Seats are closed by their owners (each on its own thread). */
  @Override
  public void close() {
    CompletableFuture<PlaywrightSeat> early = takePrelaunch(0);
    if (early != null) {
      early.thenAccept(PlaywrightSeat::close); // never adopted: nobody else will close it
    }
    if (lock != null) {
      lock.close();
    }
  }
}

package dev.solweb.provider.seat.playwright;

import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.SeatFactory;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;

/**
 * Builds {@link PlaywrightSeat}s for a daemon. Creating the factory takes the daemon's
 * {@link ProfileLock} (a second daemon on the same home fails here, naming the lock and its
 * holder) and ends Chromium processes orphaned on the profile by a killed predecessor; the lock
 * is held until {@link #close()} or process exit.
 *
 * <p>{@link #create(int)} is called on the seat's own thread, at start and once more to rebuild a
 * seat whose browser broke: the predecessor of that index is closed first.
 */
public final class PlaywrightSeatFactory implements SeatFactory, AutoCloseable {

  private final PlaywrightOptions options;
  private final ProfileLock lock;
  private final Clock clock;
  private final CompletionTracker.Rule completion;
  private final Map<Integer, PlaywrightSeat> seats = new HashMap<>();

  private PlaywrightSeatFactory(PlaywrightOptions options, ProfileLock lock, Clock clock, CompletionTracker.Rule completion) {
    this.options = options;
    this.lock = lock;
    this.clock = clock;
    this.completion = completion;
  }

  /**
   * Takes the profile lock and reaps orphans; the seats themselves start lazily in {@link #create(int)}.
   *
   * @throws ProfileLock.ProfileLockedException when another process holds {@code <home>/profile.lock}
   */
  public static PlaywrightSeatFactory create(PlaywrightOptions options) {
    return create(options, Clock.systemUTC(), CompletionTracker.Rule.DEFAULT);
  }

  public static PlaywrightSeatFactory create(PlaywrightOptions options, Clock clock, CompletionTracker.Rule completion) {
    ProfileLock lock = ProfileLock.acquire(options.home(), options.profileDir());
    OrphanReaper.reap(options.profileDir());
    DriverCache.use(System.getenv());
    return new PlaywrightSeatFactory(options, lock, clock, completion);
  }

  @Override
  public PlaywrightSeat create(int seatIndex) throws SeatException {
    PlaywrightSeat previous;
    synchronized (seats) {
      previous = seats.remove(seatIndex);
    }
    if (previous != null) {
      previous.close();
    }
    OrphanReaper.reap(options.profileOf(seatIndex));
    PlaywrightSeat seat = new PlaywrightSeat(options, options.profileOf(seatIndex), clock, completion);
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
    lock.close();
  }
}

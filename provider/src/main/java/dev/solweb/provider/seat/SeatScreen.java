package dev.solweb.provider.seat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * A seat's page as a person sees it: its picture, its live screencast and hands on it. Every
 * method may be called from any thread; the work itself is done on the seat's own thread, where
 * the browser objects live: between polls while a turn runs (so a picture never waits for the
 * turn and never disturbs it: no focus change, no navigation, no scroll), or in
 * {@link #serve(Duration)} while the seat is idle.
 *
 * <p>Whether input is allowed (only while the seat is under a person's control, between turns)
 * is the dispatcher's decision, not the screen's.
 */
public interface SeatScreen {

  /** The page's viewport as a PNG, now. Fails with a {@link SeatException} when the page cannot be read. */
  CompletableFuture<byte[]> png();

  /**
   * Starts receiving the page's screencast frames: the first watcher starts the screencast, the
   * last {@link Watch#close()} stops it. {@code frames} is called on the seat's thread and must
   * not block (hand the frame over, drop it if the reader is slow).
   */
  Watch watch(Consumer<ScreenFrame> frames);

  /** Relays one input event to the page (mouse at page coordinates, keys, text); completes when the page took it. */
  CompletableFuture<Void> input(PageInput input);

  /**
   * On the seat's thread, while no turn runs: does the posted work and, while someone watches,
   * lets the page's events (screencast frames) in, for at most {@code slice}.
   *
   * @return true while it wants to be served again (someone watches, or work is waiting)
   */
  boolean serve(Duration slice);

  /** Where the screen says it has work for its seat's thread (any thread calls it); the seat pool sets it once. */
  void onWork(Runnable wake);

  /** One watcher's hold on the screencast. */
  interface Watch extends AutoCloseable {
    @Override
    void close();
  }
}

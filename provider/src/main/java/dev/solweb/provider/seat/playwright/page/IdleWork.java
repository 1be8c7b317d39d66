package dev.solweb.provider.seat.playwright.page;

import java.time.Duration;

/**
 * What the seat's thread does while it waits for the page anyway: the work other threads posted
 * for it (a picture of the page, a screencast frame's acknowledgement). {@link PageWait} runs it
 * between polls, so it never runs inside a step of a turn.
 */
public interface IdleWork {

  /** Nothing to do: a plain sleep between polls. */
  IdleWork NONE = new IdleWork() {
    @Override
    public void drain() {
    }

    @Override
    public void runFor(Duration time) throws InterruptedException {
      Thread.sleep(time.toMillis());
    }
  };

  /** Runs what was posted so far. */
  void drain();

  /**
   * Whether work is expected while the seat waits (someone watches the page, or work waits now):
   * the seat then waits for the page in short slices, so the work is not held back.
   */
  default boolean expected() {
    return false;
  }

  /** Runs posted work as it arrives, for {@code time}. */
  void runFor(Duration time) throws InterruptedException;
}

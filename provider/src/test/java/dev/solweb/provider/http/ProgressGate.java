package dev.solweb.provider.http;

import dev.solweb.provider.seat.BrowserSeat;
import dev.solweb.provider.seat.ForwardingSeat;
import dev.solweb.provider.seat.TurnProgress;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Holds a seat at every progress report until the test lets it go: the report has reached the
 * dispatcher when {@link #next()} returns, and the seat goes on only after {@link #release()}, so
 * the test reads {@code /healthz} and moves its clock between any two stages.
 */
final class ProgressGate {
  private final BlockingQueue<TurnProgress.Stage> arrived = new LinkedBlockingQueue<>();
  private final Semaphore go = new Semaphore(0);

  BrowserSeat wrap(BrowserSeat seat) {
    return new ForwardingSeat(seat) {
      @Override
      public void progress(TurnProgress listener) {
        super.progress(listener == TurnProgress.NONE ? listener : (stage, chars) -> {
          listener.report(stage, chars);
          arrived.add(stage);
          go.acquireUninterruptibly();
        });
      }
    };
  }

  /** The stage the seat reported and is now held at. */
  TurnProgress.Stage next() throws InterruptedException {
    TurnProgress.Stage stage = arrived.poll(20, TimeUnit.SECONDS);
    if (stage == null) {
      throw new AssertionError("the seat reported no further stage within 20 s");
    }
    return stage;
  }

  void release() {
    go.release();
  }

  /** Stages reported and not yet taken with {@link #next()}. */
  int waiting() {
    return arrived.size();
  }
}

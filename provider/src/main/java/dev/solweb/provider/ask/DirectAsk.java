package dev.solweb.provider.ask;

import dev.solweb.provider.seat.playwright.browser.ProfileLock;
import dev.solweb.provider.daemon.SeatOptions;
import dev.solweb.provider.daemon.SeatSelection;
import dev.solweb.provider.translate.Answer;
import dev.solweb.provider.dispatch.OneShotTurn;
import dev.solweb.provider.failure.TurnFailed;
import dev.solweb.provider.dispatch.TurnRequest;
import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.protocol.Reply;
import dev.solweb.provider.seat.BrowserSeat;
import dev.solweb.provider.seat.SeatException;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The direct path when no daemon is up: this process takes the profile lock (never waiting: a
 * held lock is a message at once), opens its own seat, asks once and releases both at exit. The
 * seat is chosen by name only, like solwebd's {@code --seat}.
 */
final class DirectAsk {
  private final String seatSpec;
  private final SeatOptions options;
  private final Duration turnTimeout;

  DirectAsk(String seatSpec, SeatOptions options, Duration turnTimeout) {
    this.seatSpec = seatSpec;
    this.options = options;
    this.turnTimeout = turnTimeout;
  }

  AskResult ask(TurnRequest.Ask ask) {
    Path profile = options.profile();
    Optional<ProfileLock> lock;
    try {
      lock = ProfileLock.tryAcquire(profile);
    } catch (IOException e) {
      return new AskResult.Refused("cannot take the profile lock " + ProfileLock.fileFor(profile) + ": " + e.getMessage());
    }
    if (lock.isEmpty()) {
      return new AskResult.Refused("the ChatGPT profile " + profile + " is busy: " + ProfileLock.fileFor(profile)
          + " is held by pid " + ProfileLock.holder(profile) + " (solwebd starting, or another ask-gpt);"
          + " try again shortly, or keep solwebd running (solwebctl ensure) so asks queue instead");
    }
    try (ProfileLock held = lock.get()) {
      BrowserSeat seat;
      try {
        seat = SeatSelection.factory(seatSpec, options).create(0);
      } catch (IllegalArgumentException | SeatException e) {
        return new AskResult.Refused("cannot open a seat (" + seatSpec + "): " + e.getMessage());
      }
      ExecutorService thread = Executors.newSingleThreadExecutor();
      try {
        Future<Answer> answer = thread.submit(() -> OneShotTurn.run(seat, ask, Clock.systemUTC(), p -> { }));
        Answer done = answer.get(turnTimeout.toMillis(), TimeUnit.MILLISECONDS);
        return new AskResult.Answered(((Reply.Final) done.reply()).text(), done.images());
      } catch (TimeoutException e) {
        seat.stop();
        return new AskResult.Failed(ProviderFailure.of(ProviderFailure.Kind.TIMEOUT,
            "the ask took longer than " + turnTimeout.toSeconds() + " s (SOLWEBD_TURN_TIMEOUT); Stop was clicked"));
      } catch (ExecutionException e) {
        Throwable cause = e.getCause();
        if (cause instanceof TurnFailed failed) {
          return new AskResult.Failed(failed.failure());
        }
        if (cause instanceof SeatException seatFailure) {
          return new AskResult.Failed(seatFailure.failure());
        }
        return new AskResult.Failed(ProviderFailure.of(ProviderFailure.Kind.UNAVAILABLE, "internal error: " + cause));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        seat.stop();
        return new AskResult.Failed(ProviderFailure.of(ProviderFailure.Kind.CANCELLED, "interrupted"));
      } finally {
        thread.shutdownNow();
        seat.close();
      }
    }
  }
}

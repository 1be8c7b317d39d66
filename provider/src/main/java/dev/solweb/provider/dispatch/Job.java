package dev.solweb.provider.dispatch;

import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.failure.ProviderFailure.Kind;
import dev.solweb.provider.failure.TurnFailed;
import dev.solweb.provider.translate.Answer;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;

/** A queued or running turn of a {@link Dispatcher}, shared by every caller that sent the same messages. */
final class Job implements Dispatcher.TurnHandle {
  final Dispatcher owner;
  final TurnRequest request;
  final String digest;
  final CompletableFuture<Answer> future = new CompletableFuture<>();
  int listeners = 1;
  Dispatcher.SeatJob<?> seatWork; // a non-turn job (runBetweenTurns); null for a turn
  LiveTurn live; // how far the turn has come; null for seat work and decided-at-submit handles
  boolean running;
  Instant startedAt;
  DispatchTime.Cancellable timeout = () -> { };
  DispatchTime.Cancellable rejoinWait; // set while a running turn has lost its last client

  Job(Dispatcher owner, TurnRequest request, String digest) {
    this.owner = owner;
    this.request = request;
    this.digest = digest;
  }

  static Job done(Answer answer) {
    Job job = new Job(null, null, "");
    job.future.complete(answer);
    return job;
  }

  static Job failed(ProviderFailure failure) {
    Job job = new Job(null, null, "");
    job.future.completeExceptionally(new TurnFailed(failure));
    return job;
  }

  @Override
  public boolean decidedAtSubmit() {
    return owner == null;
  }

  boolean succeed(Answer answer) {
    return future.complete(answer);
  }

  boolean fail(ProviderFailure failure) {
    boolean failed = future.completeExceptionally(new TurnFailed(failure));
    if (failed && owner != null && live != null && live.sent()) {
      owner.failures.remember(request.sessionKey(), digest, failure);
    }
    return failed;
  }

  @Override
  public CompletableFuture<Answer> result() {
    return future;
  }

  @Override
  public int queuePosition() {
    return owner == null ? 0 : owner.positionOf(this);
  }

  @Override
  public void release() {
    if (owner == null) {
      return;
    }
    synchronized (owner) {
      listeners--;
      if (listeners > 0 || future.isDone()) {
        return;
      }
      ProviderFailure cancelled = ProviderFailure.of(Kind.CANCELLED, "the client disconnected");
      if (!running) {
        owner.cancelQueued(this);
        if (owner.inFlight.get(request.sessionKey()) == this) {
          owner.inFlight.remove(request.sessionKey());
        }
        fail(cancelled);
        return;
      }
      if (rejoinWait != null) {
        return;
      }
      // Running: its message may be spent. A client whose connection dropped retries the same
      // request within seconds and rejoins it (submit) instead of typing it again; only a turn
      // no one rejoined within the grace is stopped.
      rejoinWait = owner.time.schedule(Dispatcher.REJOIN_GRACE, () -> {
        synchronized (owner) {
          rejoinWait = null;
          if (listeners > 0 || future.isDone()) {
            return;
          }
          fail(cancelled);
          for (SeatPool.Seat seat : owner.pool.seats()) {
            if (owner.onSeat[seat.index] == this) {
              timeout.cancel();
              owner.stopUntilReturned(seat, this);
            }
          }
        }
      });
    }
  }
}

package dev.solweb.provider.dispatch;

import dev.solweb.provider.failure.ProviderFailure;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Seat work that is no turn ({@link Dispatcher#runBetweenTurns}, {@link Dispatcher#runWhenIdle}):
 * queued like a turn, or behind every turn, and refused at once under a session key that is busy.
 */
final class SeatJobs {
  private SeatJobs() {}

  static <T> CompletableFuture<T> run(Dispatcher scheduler, TurnRequest marker, Dispatcher.SeatJob<T> job,
      boolean whenIdle, boolean keyed) {
    CompletableFuture<T> result = new CompletableFuture<>();
    Dispatcher.TurnHandle handle;
    synchronized (scheduler) {
      if (keyed && scheduler.busy(marker.sessionKey())) {
        result.completeExceptionally(new Dispatcher.SessionBusy(marker.sessionKey()));
        return result;
      }
      handle = submit(scheduler, marker, seat -> result.complete(job.run(seat)), whenIdle);
    }
    handle.result().whenComplete((done, error) -> {
      if (error != null) {
        result.completeExceptionally(error instanceof CompletionException && error.getCause() != null
            ? error.getCause() : error);
      }
    });
    return result;
  }

  /** Queues {@code work}; the caller holds the scheduler's lock. */
  private static Dispatcher.TurnHandle submit(Dispatcher scheduler, TurnRequest marker, Dispatcher.SeatJob<?> work,
      boolean whenIdle) {
    ProviderFailure refused = scheduler.refusal();
    if (refused != null) {
      return Job.failed(refused);
    }
    Job job = new Job(scheduler, marker, marker.identity());
    job.seatWork = work;
    (whenIdle ? scheduler.idleQueue : scheduler.queue).addLast(job);
    scheduler.pump();
    return job;
  }
}

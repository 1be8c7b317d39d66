package dev.solweb.provider.dispatch;

import dev.solweb.provider.failure.ProviderFailure.Kind;
import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.failure.TurnFailed;
import dev.solweb.provider.seat.BrowserSeat;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.SeatFactory;
import dev.solweb.provider.seat.SeatProbe;
import dev.solweb.provider.seat.SeatScreen;
import dev.solweb.provider.seat.TurnProgress;
import dev.solweb.provider.translate.Answer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The daemon's browser seats, each on its own thread: started once, rebuilt at most once in its
 * life after its browser breaks (a second break leaves it dead, and {@code /healthz} degraded),
 * and the one place a {@link SeatException} becomes a typed {@link ProviderFailure}. It decides
 * nothing about order: the {@link Dispatcher} chooses which seat runs what, and when.
 */
final class SeatPool {
  private static final Logger LOG = Logger.getLogger(SeatPool.class.getName());

  /** The longest an idle seat's screen holds its thread at a time. */
  static final Duration SERVE_SLICE = Duration.ofMillis(100);

  private final SeatFactory factory;
  private final List<Seat> seats = new ArrayList<>();

  /** @param threads one single-threaded executor per seat index: every call on that seat runs there */
  SeatPool(SeatFactory factory, int count, IntFunction<ExecutorService> threads) {
    this.factory = factory;
    for (int i = 0; i < count; i++) {
      seats.add(new Seat(i, threads.apply(i)));
    }
  }

  /** Creates and probes every seat on its own thread; completes when all are up (or dead). */
  CompletableFuture<Void> start() {
    List<CompletableFuture<Void>> ups = new ArrayList<>();
    for (Seat seat : seats) {
      ups.add(CompletableFuture.runAsync(seat::startUp, seat.thread));
    }
    return CompletableFuture.allOf(ups.toArray(CompletableFuture[]::new));
  }

  /** In index order. */
  List<Seat> seats() {
    return seats;
  }

  int size() {
    return seats.size();
  }

  int live() {
    return (int) seats.stream().filter(Seat::live).count();
  }

  /** The account the first seat that read one reports, or null. */
  String account() {
    return seats.stream().map(s -> s.lastProbe).filter(p -> p != null && p.account() != null)
        .map(SeatProbe::account).findFirst().orElse(null);
  }

  /** The last probe of every seat that has one, in index order. */
  List<SeatProbe> probes() {
    return seats.stream().map(s -> s.lastProbe).filter(p -> p != null).toList();
  }

  /** Why each dead seat is dead ({@code seat 0: did not start: ...}), or "all seats alive". */
  String deadDetail() {
    return seats.stream().filter(s -> !s.live()).map(s -> "seat " + s.index + ": " + s.deathCause)
        .reduce((a, b) -> a + "; " + b).orElse("all seats alive");
  }

  /** Asks every seat to stop what it does, closes it on its own thread and ends the threads. */
  void close() {
    seats.forEach(Seat::stopAndClose);
  }

  /** One seat, its thread, and its rebuild-once budget. Its verbs but {@link #stop} run on its thread. */
  final class Seat {
    final int index;
    final ExecutorService thread;
    private volatile BrowserSeat seat;
    private volatile SeatProbe lastProbe;
    private volatile String deathCause;
    private boolean rebuilt;
    private final AtomicBoolean serveQueued = new AtomicBoolean();

    private Seat(int index, ExecutorService thread) {
      this.index = index;
      this.thread = thread;
    }

    boolean live() {
      return deathCause == null;
    }

    /** The last probe, or null before the seat's first one. */
    SeatProbe lastProbe() {
      return lastProbe;
    }

    /** Why the seat is dead, or null while it lives. */
    String deathCause() {
      return deathCause;
    }

    /** Clicks Stop on whatever the seat is doing (any thread). */
    void stop() {
      BrowserSeat current = seat;
      if (current != null) {
        current.stop();
      }
    }

    /** The seat's screen now (a rebuilt seat has a new one), or empty for a seat without a page or a dead one. */
    Optional<SeatScreen> screen() {
      BrowserSeat current = seat;
      return current == null ? Optional.empty() : current.screen();
    }

    /**
     * Lets the seat's screen do its work on the seat's thread while no turn runs there (during a
     * turn, the seat's own waits run it between polls): one short serve at a time, queued behind
     * whatever the thread has to do, so a turn that arrives waits at most one {@link #SERVE_SLICE}.
     */
    private void wire(BrowserSeat current) {
      current.screen().ifPresent(screen -> screen.onWork(() -> queueServe(current, screen)));
    }

    private void queueServe(BrowserSeat owner, SeatScreen screen) {
      if (!serveQueued.compareAndSet(false, true)) {
        return;
      }
      try {
        thread.execute(() -> {
          serveQueued.set(false);
          if (seat == owner && screen.serve(SERVE_SLICE)) {
            queueServe(owner, screen);
          }
        });
      } catch (RejectedExecutionException closing) {
        serveQueued.set(false);
      }
    }

    /** Probes the page again (after a person gave the seat back), on the seat's thread. */
    void reprobe() {
      runWork(current -> {
        lastProbe = current.probe();
        return null;
      });
    }

    private void startUp() {
      try {
        seat = factory.create(index);
        wire(seat);
        lastProbe = seat.probe();
      } catch (SeatException | RuntimeException e) {
        LOG.log(Level.WARNING, "seat " + index + " did not start: " + e.getMessage(), e);
        deathCause = "did not start: " + e.getMessage();
      }
    }

    /**
     * Runs one turn; a broken connection is rebuilt once, and a turn not yet sent is retried once.
     *
     * @throws TurnFailed with the failure the client gets
     */
    Answer runTurn(TurnRunner runner, TurnRequest request, TurnProgress progress) {
      boolean retried = false;
      while (true) {
        if (seat == null) {
          throw new TurnFailed(ProviderFailure.of(Kind.UNAVAILABLE, "seat " + index + " is down: " + deathCause));
        }
        BrowserSeat current = seat;
        try {
          current.progress(progress);
          return runner.run(current, request, probe -> lastProbe = probe);
        } catch (SeatException e) {
          switch (e.reason()) {
            case FAILED -> throw new TurnFailed(e.failure());
            case CONVERSATION_MISSING -> throw new TurnFailed(ProviderFailure.of(Kind.UNAVAILABLE,
                "the conversation vanished twice while resuming: " + e.getMessage()));
            case BROKEN -> {
              boolean up = rebuild(e);
              if (!up || e.afterSend() || retried) {
                throw new TurnFailed(ProviderFailure.of(Kind.UNAVAILABLE, e.failure().detail()
                    + (e.afterSend() ? "; the turn may have reached ChatGPT and is not resent" : "")
                    + (up ? "; the seat was rebuilt" : "; the seat could not be rebuilt")));
              }
              retried = true;
            }
            default -> throw new IllegalStateException("Unhandled seat failure: " + e.reason());
          }
        } finally {
          current.progress(TurnProgress.NONE);
        }
      }
    }

    /**
     * Runs a non-turn job; a broken browser is rebuilt (once in the seat's life) for the next turn.
     *
     * @throws TurnFailed with the seat's failure
     */
    void runWork(Dispatcher.SeatJob<?> work) {
      if (seat == null) {
        throw new TurnFailed(ProviderFailure.of(Kind.UNAVAILABLE, "seat " + index + " is down: " + deathCause));
      }
      try {
        work.run(seat);
      } catch (SeatException e) {
        if (e.reason() == SeatException.Reason.BROKEN) {
          rebuild(e);
        }
        throw new TurnFailed(e.failure());
      }
    }

    /** Rebuilds the seat once in its lifetime; a second break leaves it dead (health degraded). */
    private boolean rebuild(SeatException cause) {
      closeQuietly();
      if (rebuilt) {
        deathCause = "browser connection lost twice: " + cause.failure().detail();
        return false;
      }
      rebuilt = true;
      try {
        seat = factory.create(index);
        wire(seat);
        lastProbe = seat.probe();
        LOG.warning("seat " + index + " rebuilt after: " + cause.failure().detail());
        return true;
      } catch (SeatException | RuntimeException e) {
        deathCause = "rebuild failed: " + e.getMessage();
        return false;
      }
    }

    private void stopAndClose() {
      stop();
      thread.execute(this::closeQuietly);
      thread.shutdown();
      try {
        thread.awaitTermination(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    private void closeQuietly() {
      BrowserSeat current = seat;
      seat = null;
      if (current != null) {
        try {
          current.close();
        } catch (RuntimeException e) {
          LOG.log(Level.FINE, "closing seat " + index, e);
        }
      }
    }
  }

  /** One seat's own thread ({@code solwebd-seat-<index>}): a daemon thread, so a stuck page never holds the JVM. */
  static java.util.concurrent.ExecutorService seatThread(int index) {
    return java.util.concurrent.Executors.newSingleThreadExecutor(runnable -> {
      Thread thread = new Thread(runnable, "solwebd-seat-" + index);
      thread.setDaemon(true);
      return thread;
    });
  }
}

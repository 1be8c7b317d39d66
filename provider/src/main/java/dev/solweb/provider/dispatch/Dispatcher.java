package dev.solweb.provider.dispatch;

import dev.solweb.provider.failure.ProviderFailure.Kind;
import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.failure.TurnFailed;
import dev.solweb.provider.seat.BrowserSeat;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.SeatFactory;
import dev.solweb.provider.seat.TurnProgress;
import dev.solweb.provider.translate.Answer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.function.IntFunction;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The turn scheduler: one FIFO queue over a {@link SeatPool}, one turn at a time per seat and per
 * session key, seats shared across efforts; the spacing between sends and the turn timeout. The
 * pool starts, rebuilds and maps the seats' failures; {@link HealthSnapshot} says how it all stands,
 * {@link #views()} lists its turns and seats, and {@link #desk()} hands a seat to a person. It never runs a turn twice: a re-send of a turn in
 * flight attaches to it, and one its {@link TurnRunner} can answer without a seat (the answer
 * memory) is answered at once. It computes no conversation state: the runner plans and records.
 *
 * <p>Once a seat reports a cap, new dispatches fail fast with {@code capped} until
 * {@code resume_at}. A turn is bounded by the turn timeout; a client that leaves cancels its turn
 * (a queued turn never reaches a seat; a running one is stopped after {@link #REJOIN_GRACE}
 * unless the client's retry rejoined it), and a turn that failed after its Send answers its
 * identical retry from {@link RecentFailures} instead of typing it again. Each seat owns one
 * thread; all seat calls happen there. Time ({@link DispatchTime}) and the seat threads are given
 * to it, so tests run it by hand.
 */
public final class Dispatcher implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(Dispatcher.class.getName());
  /** How often Stop is clicked again while a stopped turn has not returned its seat. */
  static final Duration STOP_REPEAT = Duration.ofSeconds(5);
  /**
   * How long a running turn whose client left waits for that client's retry before Stop is
   * clicked. RetryTableTest drops the connection after Send: the retries of the OpenAI SDK,
   * Claude Code and opencode all rejoined within it (Pi and Codex, shipped with retries off, do
   * not retry). A client that really left has its turn stopped this much later.
   */
  static final Duration REJOIN_GRACE = Duration.ofSeconds(5);

  /**
   * Tunables; see the README's configuration table.
   *
   * @param pacing the account's Send gap, record and budget (the budget is checked here, before a
   *     turn reaches a seat; the gap where the seat sends)
   */
  public record Settings(int seats, Duration turnTimeout, DispatchSpacing spacing, AccountPacing pacing) {
    public Settings {
      if (seats < 1) {
        throw new IllegalArgumentException("seats must be at least 1, got " + seats);
      }
    }

    /** Unpaced: no Send gap, no budget. */
    public Settings(int seats, Duration turnTimeout, DispatchSpacing spacing) {
      this(seats, turnTimeout, spacing, AccountPacing.unpaced(Clock.systemUTC()));
    }
  }

  /** A caller's hold on a turn. {@link #release()} when the client leaves. */
  public interface TurnHandle {
    CompletableFuture<Answer> result();

    /** 0 while running or done, else 1-based position in the queue. */
    int queuePosition();

    /**
     * True when {@link #submit} decided the turn itself (an answer from memory, a fail-fast cap,
     * shutdown): nothing was queued, so a failure can still go out as an HTTP status.
     */
    boolean decidedAtSubmit();

    void release();
  }

  final SeatPool pool;
  private final TurnRunner runner;
  private final Settings settings;
  final DispatchTime time;
  final Job[] onSeat; // by seat index: the job a seat runs now, or null while it is free
  final SeatControls controls; // a person's control of the seats (operator page)
  private final SeatDesk desk;
  private final DispatchViews views = new DispatchViews(this);
  final RecentFailures failures; // turns that failed after their Send, for their identical retries
  final Deque<Job> queue = new ArrayDeque<>();
  final Deque<Job> idleQueue = new ArrayDeque<>(); // low-priority seat work: starts only when queue is empty
  private final Set<String> runningKeys = new HashSet<>();
  final Map<String, Job> inFlight = new HashMap<>();
  private final TurnStatistics statistics = new TurnStatistics();
  final FinishedTurns finished = new FinishedTurns();
  final String[] seatEffort; // by seat index: the effort of the last turn it ran
  boolean started;
  private Instant capUntil;
  private Instant nextSendAt = Instant.EPOCH;
  private DispatchTime.Cancellable spacingWake;
  boolean closed;

  /** Wall-clock time and one real thread per seat. */
  public Dispatcher(SeatFactory factory, TurnRunner runner, Settings settings, Clock clock) {
    this(factory, runner, settings, DispatchTime.system(clock),
        SeatPool::seatThread);
  }

  /**
   * @param seatThreads one single-threaded executor per seat index: every call on that seat runs there
   */
  public Dispatcher(SeatFactory factory, TurnRunner runner, Settings settings, DispatchTime time,
      IntFunction<ExecutorService> seatThreads) {
    this.pool = new SeatPool(factory, settings.seats(), seatThreads);
    this.runner = runner;
    this.settings = settings;
    this.time = time;
    this.onSeat = new Job[settings.seats()];
    this.seatEffort = new String[settings.seats()];
    this.desk = new SeatDesk(this);
    this.controls = new SeatControls(settings.seats(), time, this, desk::giveBack);
    this.failures = new RecentFailures(time::now);
  }

  /** Creates and probes every seat on its own thread; completes when all are up (or dead). */
  public CompletableFuture<Void> start() {
    return pool.start().whenComplete((ok, error) -> {
      synchronized (this) {
        started = true;
        pump();
      }
    });
  }

  /** Accepts a turn: answers it without a seat, attaches to an identical turn in flight, or queues it. */
  public synchronized TurnHandle submit(TurnRequest request) {
    String digest = request.identity();
    Optional<Answer> known = runner.answerAtSubmit(request);
    if (known.isPresent()) {
      return Job.done(known.get());
    }
    Job same = inFlight.get(request.sessionKey());
    if (same != null && same.digest.equals(digest) && !same.future.isDone()) {
      same.listeners++;
      return same;
    }
    ProviderFailure refused = refusal();
    if (refused == null) {
      refused = failures.answer(request.sessionKey(), digest).orElse(null);
    }
    if (refused == null) {
      refused = runner.refusalAtSubmit(request).orElse(null);
    }
    if (refused == null) {
      refused = overBudget(request);
    }
    if (refused != null) {
      return Job.failed(refused);
    }
    Job job = new Job(this, request, digest);
    job.live = new LiveTurn(request, time::now);
    queue.addLast(job);
    if (!inFlight.containsKey(request.sessionKey()) || inFlight.get(request.sessionKey()).future.isDone()) {
      inFlight.put(request.sessionKey(), job);
    }
    pump();
    return job;
  }

  /** Why nothing new can be queued now (shutting down, capped, no live seat), or null. */
  ProviderFailure refusal() {
    if (closed) {
      return ProviderFailure.of(Kind.UNAVAILABLE, "solwebd is shutting down");
    }
    ProviderFailure cap = capFailure();
    if (cap != null) {
      return cap;
    }
    if (started && pool.live() == 0) {
      return ProviderFailure.of(Kind.UNAVAILABLE, "no browser seat is alive: " + pool.deadDetail());
    }
    return null;
  }

  /**
   * Why a turn of {@code request}'s effort would break the owner's budget now ({@code capped},
   * never the account-wide cap: other efforts go on), counting the turns of that effort already
   * on a seat; null when it fits.
   */
  private ProviderFailure overBudget(TurnRequest request) {
    int pending = 0;
    for (Job job : onSeat) {
      if (job != null && job.live != null && job.request.effort() == request.effort()) {
        pending++;
      }
    }
    return settings.pacing().refusal(request.effort(), pending, time.now()).orElse(null);
  }

  /** Work on a seat that is not a turn ({@code solwebctl doctor}, {@code capture}); runs on the seat's thread. */
  @FunctionalInterface
  public interface SeatJob<T> {
    T run(BrowserSeat seat) throws SeatException;
  }

  /**
   * Queues {@code job} like a turn (FIFO behind what waits, the first free seat, the turn timeout,
   * the cap gate) and runs it on that seat between turns, never interleaved with one. A seat
   * failure fails the future with {@link TurnFailed}; a broken browser is rebuilt as after a turn.
   */
  public <T> CompletableFuture<T> runBetweenTurns(SeatJob<T> job) {
    return SeatJobs.run(this, TurnRequest.SeatWork.create(), job, false, false);
  }

  /** Refuses seat work under a session key while a turn or job of that session runs or waits. */
  public static final class SessionBusy extends RuntimeException {
    SessionBusy(String sessionKey) {
      super("a turn of session " + sessionKey + " is in flight or queued");
    }
  }

  /**
   * As {@link #runBetweenTurns(SeatJob)}, under {@code sessionKey}: it never runs while a turn of
   * that session does, and a turn of that session that arrives meanwhile waits for it (deleting
   * a managed conversation). Refused at once with {@link SessionBusy} (decided under the
   * scheduler's lock, so no turn slips in between) while one of that session runs or waits.
   */
  public <T> CompletableFuture<T> runBetweenTurns(String sessionKey, SeatJob<T> job) {
    return SeatJobs.run(this, new TurnRequest.SeatWork(sessionKey), job, false, true);
  }

  /**
   * Low-priority seat work under {@code sessionKey} (retention): it starts only when no turn or
   * other job waits in the queue, so it never delays a turn that is waiting; a turn that arrives
   * while it runs waits for it like for any turn. Not subject to the dispatch spacing (it types
   * nothing).
   */
  public <T> CompletableFuture<T> runWhenIdle(String sessionKey, SeatJob<T> job) {
    return SeatJobs.run(this, new TurnRequest.SeatWork(sessionKey), job, true, true);
  }

  /** True while a turn or job of {@code sessionKey} runs or waits in a queue. */
  public synchronized boolean busy(String sessionKey) {
    return runningKeys.contains(sessionKey) || queue.stream().anyMatch(job -> job.request.sessionKey().equals(sessionKey))
        || idleQueue.stream().anyMatch(job -> job.request.sessionKey().equals(sessionKey));
  }

  /** The account's pacing, record of Sends, budget and the page's own counters. */
  public AccountPacing pacing() {
    return settings.pacing();
  }

  /** The time the scheduler reads (the Limits report counts its windows from it). */
  public Instant now() {
    return time.now();
  }

  /** What {@code /healthz} shows of the queue and the seats now. */
  public synchronized HealthSnapshot snapshot() {
    Instant now = time.now();
    return HealthSnapshot.of(started, capUntil, now, pool, queue.size(), runningKeys.size(), statistics.p50(),
        dispatchWait(now), controls.views(), settings.pacing().paused(now).map(ProviderFailure::detail).orElse(null));
  }

  /** A person's control of the seats, for the operator page ({@link SeatDesk}). */
  public SeatControl.Desk desk() {
    return desk;
  }

  /** What the operator page and /healthz list: the live turns, the seats, the last finished turns ({@link DispatchViews}). */
  public DispatchViews views() {
    return views;
  }

  @Override
  public void close() {
    List<Job> dropped;
    synchronized (this) {
      closed = true;
      controls.closeAll();
      dropped = new ArrayList<>(queue);
      dropped.addAll(idleQueue);
      queue.clear();
      idleQueue.clear();
    }
    dropped.forEach(job -> job.fail(ProviderFailure.of(Kind.UNAVAILABLE, "solwebd is shutting down")));
    pool.close();
    time.close();
  }

  // --- scheduling, always under the monitor ---

  void pump() {
    if (!started || closed) {
      return;
    }
    ProviderFailure cap = capFailure();
    if (cap != null) {
      List<Job> walled = new ArrayList<>(queue);
      walled.addAll(idleQueue);
      queue.clear();
      idleQueue.clear();
      walled.forEach(job -> job.fail(cap));
      return;
    }
    for (SeatPool.Seat seat : pool.seats()) {
      if (!seat.live() || onSeat[seat.index] != null || controls.holds(seat.index)) {
        continue; // a seat under a person's control takes nothing, not even seat work
      }
      Job next = nextRunnable();
      if (next == null) {
        Job idle = queue.isEmpty() ? nextRunnable(idleQueue) : null;
        if (idle == null) {
          return;
        }
        idleQueue.remove(idle);
        startOn(seat, idle);
        continue;
      }
      Instant now = time.now();
      if (!settings.spacing().isOff() && now.isBefore(nextSendAt)) {
        scheduleWake(Duration.between(now, nextSendAt));
        return;
      }
      queue.remove(next);
      ProviderFailure over = next.live == null ? null : overBudget(next.request);
      if (over != null) {
        // Queued before the budget filled: refused before it reaches a seat; this seat takes the next.
        if (inFlight.get(next.request.sessionKey()) == next) {
          inFlight.remove(next.request.sessionKey());
        }
        next.fail(over);
        pump();
        return;
      }
      nextSendAt = now.plus(settings.spacing().nextGap());
      startOn(seat, next);
    }
  }

  private Job nextRunnable() {
    return nextRunnable(queue);
  }

  private Job nextRunnable(Deque<Job> jobs) {
    for (Job job : jobs) {
      if (!runningKeys.contains(job.request.sessionKey())) {
        return job;
      }
    }
    return null;
  }

  void startOn(SeatPool.Seat seat, Job job) {
    onSeat[seat.index] = job;
    job.running = true;
    job.startedAt = time.now();
    if (job.live != null) {
      job.live.started();
      seatEffort[seat.index] = job.request.effort().suffix();
    }
    runningKeys.add(job.request.sessionKey());
    if (job.seatWork == null) {
      // Seat work under a session's key holds the key, but a re-send of that session's turn never attaches to it.
      inFlight.put(job.request.sessionKey(), job);
    }
    job.timeout = time.schedule(settings.turnTimeout(), () -> {
      if (job.fail(ProviderFailure.of(Kind.TIMEOUT, "the turn took longer than "
          + settings.turnTimeout().toSeconds() + " s (SOLWEBD_TURN_TIMEOUT); Stop was clicked"))) {
        stopUntilReturned(seat, job);
      }
    });
    seat.thread.execute(() -> runOnSeat(seat, job));
  }

  /**
   * Clicks Stop for {@code job} now and again every {@link #STOP_REPEAT} until its seat returns:
   * a Stop that lands while the seat is between steps (opening the conversation, say) can be
   * cleared by the next step and lost, and a turn that never returns would hold its seat forever.
   * The repeat rides on the job's timeout handle, which the seat's return cancels.
   */
  void stopUntilReturned(SeatPool.Seat seat, Job job) {
    synchronized (this) {
      if (onSeat[seat.index] != job) {
        return;
      }
      job.timeout = time.schedule(STOP_REPEAT, () -> stopUntilReturned(seat, job));
    }
    seat.stop();
  }

  private void runOnSeat(SeatPool.Seat seat, Job job) {
    try {
      if (job.seatWork != null) {
        seat.runWork(job.seatWork);
        job.succeed(null);
        return;
      }
      job.succeed(seat.runTurn(runner, job.request, job.live == null ? TurnProgress.NONE : job.live));
    } catch (TurnFailed failed) {
      ProviderFailure failure = failed.failure();
      if (failure.kind() == Kind.CAPPED && failure.resumeAt() != null) {
        synchronized (this) {
          Instant until = Instant.parse(failure.resumeAt());
          capUntil = capUntil == null || until.isAfter(capUntil) ? until : capUntil;
        }
      }
      job.fail(failure);
    } catch (RuntimeException bug) {
      LOG.log(Level.SEVERE, "turn failed unexpectedly", bug);
      job.fail(ProviderFailure.of(Kind.UNAVAILABLE, "internal error: " + bug));
    } finally {
      synchronized (this) {
        job.timeout.cancel();
        onSeat[seat.index] = null;
        if (!closed) {
          controls.turnEnded(seat.index);
        }
        runningKeys.remove(job.request.sessionKey());
        if (inFlight.get(job.request.sessionKey()) == job) {
          inFlight.remove(job.request.sessionKey());
        }
        if (job.seatWork == null) {
          statistics.record(Duration.between(job.startedAt, time.now()));
        }
        if (job.live != null) {
          finished.add(FinishedTurn.of(seat.index, job.live.view(), job.startedAt, time.now(), job.future,
              runner.replayed(job.request).orElse(null)));
        }
        pump();
      }
    }
  }

  private void scheduleWake(Duration delay) {
    if (spacingWake != null) {
      return;
    }
    spacingWake = time.schedule(delay, () -> {
      synchronized (this) {
        spacingWake = null;
        pump();
      }
    });
  }

  private ProviderFailure capFailure() {
    Instant now = time.now();
    if (capUntil != null && now.isBefore(capUntil)) {
      return ProviderFailure.capped("usage cap reached on this account; no new turns until it lifts", capUntil, now);
    }
    return null;
  }

  synchronized void cancelQueued(Job job) {
    queue.remove(job);
    idleQueue.remove(job);
  }

  private double dispatchWait(Instant now) {
    if (settings.spacing().isOff() || !now.isBefore(nextSendAt)) {
      return 0;
    }
    return Duration.between(now, nextSendAt).toMillis() / 1000.0;
  }

  synchronized int positionOf(Job job) {
    int position = 1;
    for (Iterator<Job> it = queue.iterator(); it.hasNext(); position++) {
      if (it.next() == job) {
        return position;
      }
    }
    return 0;
  }
}

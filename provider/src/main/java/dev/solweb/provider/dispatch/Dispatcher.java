package dev.solweb.provider.dispatch;

import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.failure.ProviderFailure.Kind;
import dev.solweb.provider.failure.TurnFailed;
import dev.solweb.provider.seat.BrowserSeat;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.SeatFactory;
import dev.solweb.provider.seat.SeatProbe;
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
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The turn scheduler: one FIFO queue over a pool of seats, one turn at a time per seat and per
 * session key, seats shared across efforts. It never runs a turn twice: a re-send of a turn in
 * flight attaches to it, and one its {@link TurnRunner} can answer without a seat (the answer
 * memory) is answered at once. It computes no conversation state: the runner plans and records.
 *
 * <p>Once a seat reports a cap, new dispatches fail fast with {@code capped} until
 * {@code resume_at}. A turn is bounded by the turn timeout; a client that leaves cancels its turn
 * (a queued turn never reaches a seat). Each seat owns one thread; all seat calls happen there.
 * Time ({@link DispatchTime}) and the seat threads are given to it, so tests run it by hand.
 */
public final class Dispatcher implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(Dispatcher.class.getName());
  private static final int P50_WINDOW = 100;
  /** How often Stop is clicked again while a stopped turn has not returned its seat. */
  static final Duration STOP_REPEAT = Duration.ofSeconds(5);

  /** Tunables; see the README's configuration table. */
  public record Settings(int seats, Duration turnTimeout, DispatchSpacing spacing) {
    public Settings {
      if (seats < 1) {
        throw new IllegalArgumentException("seats must be at least 1, got " + seats);
      }
    }
  }

  /** What {@code /healthz} shows. */
  public record Snapshot(
      String state, int queue, int active, int seats, int liveSeats, double turnP50Seconds,
      double dispatchWaitSeconds, Instant capResumeAt, String account, String detail) {}

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

  private final SeatFactory factory;
  private final TurnRunner runner;
  private final Settings settings;
  private final DispatchTime time;
  private final List<Slot> slots = new ArrayList<>();
  private final Deque<Job> queue = new ArrayDeque<>();
  private final Deque<Job> idleQueue = new ArrayDeque<>(); // low-priority seat work: starts only when queue is empty
  private final Set<String> runningKeys = new HashSet<>();
  private final Map<String, Job> inFlight = new HashMap<>();
  private final Deque<Double> turnSeconds = new ArrayDeque<>();
  private boolean started;
  private Instant capUntil;
  private Instant nextSendAt = Instant.EPOCH;
  private DispatchTime.Cancellable spacingWake;
  private boolean closed;

  /** Wall-clock time and one real thread per seat. */
  public Dispatcher(SeatFactory factory, TurnRunner runner, Settings settings, Clock clock) {
    this(factory, runner, settings, DispatchTime.system(clock),
        index -> Executors.newSingleThreadExecutor(daemonThread("solwebd-seat-" + index)));
  }

  /**
   * @param seatThreads one single-threaded executor per seat index: every call on that seat runs there
   */
  public Dispatcher(SeatFactory factory, TurnRunner runner, Settings settings, DispatchTime time,
      IntFunction<ExecutorService> seatThreads) {
    this.factory = factory;
    this.runner = runner;
    this.settings = settings;
    this.time = time;
    for (int i = 0; i < settings.seats(); i++) {
      slots.add(new Slot(i, seatThreads.apply(i)));
    }
  }

  /** Creates and probes every seat on its own thread; completes when all are up (or dead). */
  public CompletableFuture<Void> start() {
    List<CompletableFuture<Void>> ups = new ArrayList<>();
    for (Slot slot : slots) {
      ups.add(CompletableFuture.runAsync(slot::startUp, slot.thread));
    }
    return CompletableFuture.allOf(ups.toArray(CompletableFuture[]::new)).whenComplete((ok, error) -> {
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
  private ProviderFailure refusal() {
    if (closed) {
      return ProviderFailure.of(Kind.UNAVAILABLE, "solwebd is shutting down");
    }
    ProviderFailure cap = capFailure();
    if (cap != null) {
      return cap;
    }
    if (started && slots.stream().noneMatch(Slot::live)) {
      return ProviderFailure.of(Kind.UNAVAILABLE, "no browser seat is alive: " + deadDetail());
    }
    return null;
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
    return runSeatJob(TurnRequest.SeatWork.create(), job, false, false);
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
    return runSeatJob(new TurnRequest.SeatWork(sessionKey), job, false, true);
  }

  /**
   * Low-priority seat work under {@code sessionKey} (retention): it starts only when no turn or
   * other job waits in the queue, so it never delays a turn that is waiting; a turn that arrives
   * while it runs waits for it like for any turn. Not subject to the dispatch spacing (it types
   * nothing).
   */
  public <T> CompletableFuture<T> runWhenIdle(String sessionKey, SeatJob<T> job) {
    return runSeatJob(new TurnRequest.SeatWork(sessionKey), job, true, true);
  }

  /** True while a turn or job of {@code sessionKey} runs or waits in a queue. */
  public synchronized boolean busy(String sessionKey) {
    return runningKeys.contains(sessionKey) || queue.stream().anyMatch(job -> job.request.sessionKey().equals(sessionKey))
        || idleQueue.stream().anyMatch(job -> job.request.sessionKey().equals(sessionKey));
  }

  private <T> CompletableFuture<T> runSeatJob(TurnRequest marker, SeatJob<T> job, boolean whenIdle, boolean keyed) {
    CompletableFuture<T> result = new CompletableFuture<>();
    TurnHandle handle;
    synchronized (this) {
      if (keyed && busy(marker.sessionKey())) {
        result.completeExceptionally(new SessionBusy(marker.sessionKey()));
        return result;
      }
      handle = submitJob(marker, seat -> result.complete(job.run(seat)), whenIdle);
    }
    handle.result().whenComplete((done, error) -> {
      if (error != null) {
        result.completeExceptionally(error instanceof java.util.concurrent.CompletionException && error.getCause() != null
            ? error.getCause() : error);
      }
    });
    return result;
  }

  private synchronized TurnHandle submitJob(TurnRequest marker, SeatJob<?> work, boolean whenIdle) {
    ProviderFailure refused = refusal();
    if (refused != null) {
      return Job.failed(refused);
    }
    Job job = new Job(this, marker, marker.identity());
    job.seatWork = work;
    (whenIdle ? idleQueue : queue).addLast(job);
    pump();
    return job;
  }

  public synchronized Snapshot snapshot() {
    Instant now = time.now();
    int live = (int) slots.stream().filter(Slot::live).count();
    String account = slots.stream().map(s -> s.lastProbe).filter(p -> p != null && p.account() != null)
        .map(SeatProbe::account).findFirst().orElse(null);
    String state;
    String detail;
    if (!started) {
      state = "starting";
      detail = "seats are starting";
    } else if (capUntil != null && now.isBefore(capUntil)) {
      state = "capped";
      detail = "usage cap until " + capUntil;
    } else if (slots.stream().anyMatch(s -> s.lastProbe != null && s.lastProbe.state() == SeatProbe.State.LOGGED_OUT)) {
      state = "logged_out";
      // The seat's own words: through the daemon's DiagnosedSeats they name the fix (solwebctl login).
      detail = slots.stream().map(s -> s.lastProbe).filter(p -> p != null && p.state() == SeatProbe.State.LOGGED_OUT)
          .map(SeatProbe::detail).findFirst().orElse("ChatGPT is logged out in the seat's profile");
    } else if (live < slots.size()) {
      state = "degraded";
      detail = deadDetail();
    } else if (slots.stream().anyMatch(s -> s.lastProbe != null && s.lastProbe.state() != SeatProbe.State.READY)) {
      SeatProbe odd = slots.stream().map(s -> s.lastProbe)
          .filter(p -> p != null && p.state() != SeatProbe.State.READY).findFirst().orElseThrow();
      state = odd.state() == SeatProbe.State.CAPPED ? "capped" : "degraded";
      detail = odd.detail();
      if (odd.state() == SeatProbe.State.CAPPED && odd.capResumeAt() != null) {
        return new Snapshot(state, queue.size(), runningKeys.size(), slots.size(), live, p50(),
            dispatchWait(now), odd.capResumeAt(), account, detail);
      }
    } else {
      state = "ready";
      detail = "ready";
    }
    return new Snapshot(state, queue.size(), runningKeys.size(), slots.size(), live, p50(),
        dispatchWait(now), "capped".equals(state) ? capUntil : null, account, detail);
  }

  /**
   * Every accepted turn not yet answered, running ones (in seat order) before queued ones (in
   * queue order); seat work ({@link #runBetweenTurns}) is no turn and is not shown.
   */
  public synchronized List<LiveTurn.View> turns() {
    List<LiveTurn.View> views = new ArrayList<>();
    for (Slot slot : slots) {
      if (slot.current != null && slot.current.live != null) {
        views.add(slot.current.live.view());
      }
    }
    for (Job job : queue) {
      if (job.live != null) {
        views.add(job.live.view());
      }
    }
    return views;
  }

  @Override
  public void close() {
    List<Job> dropped;
    synchronized (this) {
      closed = true;
      dropped = new ArrayList<>(queue);
      dropped.addAll(idleQueue);
      queue.clear();
      idleQueue.clear();
    }
    dropped.forEach(job -> job.fail(ProviderFailure.of(Kind.UNAVAILABLE, "solwebd is shutting down")));
    for (Slot slot : slots) {
      slot.stopAndClose();
    }
    time.close();
  }

  // --- scheduling, always under the monitor ---

  private void pump() {
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
    for (Slot slot : slots) {
      if (!slot.live() || slot.busy) {
        continue;
      }
      Job next = nextRunnable();
      if (next == null) {
        Job idle = queue.isEmpty() ? nextRunnable(idleQueue) : null;
        if (idle == null) {
          return;
        }
        idleQueue.remove(idle);
        startOn(slot, idle);
        continue;
      }
      Instant now = time.now();
      if (!settings.spacing().isOff() && now.isBefore(nextSendAt)) {
        scheduleWake(Duration.between(now, nextSendAt));
        return;
      }
      queue.remove(next);
      nextSendAt = now.plus(settings.spacing().nextGap());
      startOn(slot, next);
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

  private void startOn(Slot slot, Job job) {
    slot.busy = true;
    slot.current = job;
    job.running = true;
    job.startedAt = time.now();
    if (job.live != null) {
      job.live.started();
    }
    runningKeys.add(job.request.sessionKey());
    if (job.seatWork == null) {
      // Seat work under a session's key holds the key, but a re-send of that session's turn never attaches to it.
      inFlight.put(job.request.sessionKey(), job);
    }
    job.timeout = time.schedule(settings.turnTimeout(), () -> {
      if (job.fail(ProviderFailure.of(Kind.TIMEOUT, "the turn took longer than "
          + settings.turnTimeout().toSeconds() + " s (SOLWEBD_TURN_TIMEOUT); Stop was clicked"))) {
        stopUntilReturned(slot, job);
      }
    });
    slot.thread.execute(() -> runOnSeat(slot, job));
  }

  /**
   * Clicks Stop for {@code job} now and again every {@link #STOP_REPEAT} until its seat returns:
   * a Stop that lands while the seat is between steps (opening the conversation, say) can be
   * cleared by the next step and lost, and a turn that never returns would hold its seat forever.
   * The repeat rides on the job's timeout handle, which the seat's return cancels.
   */
  private void stopUntilReturned(Slot slot, Job job) {
    synchronized (this) {
      if (slot.current != job) {
        return;
      }
      job.timeout = time.schedule(STOP_REPEAT, () -> stopUntilReturned(slot, job));
    }
    slot.seat().ifPresent(BrowserSeat::stop);
  }

  private void runOnSeat(Slot slot, Job job) {
    try {
      if (job.seatWork != null) {
        slot.runSeatWork(job.seatWork);
        job.succeed(null);
        return;
      }
      job.succeed(slot.runTurn(job.request, job.live == null ? TurnProgress.NONE : job.live));
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
        slot.busy = false;
        slot.current = null;
        runningKeys.remove(job.request.sessionKey());
        if (inFlight.get(job.request.sessionKey()) == job) {
          inFlight.remove(job.request.sessionKey());
        }
        if (job.seatWork == null) {
          recordDuration(Duration.between(job.startedAt, time.now()));
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

  private synchronized void cancelQueued(Job job) {
    queue.remove(job);
    idleQueue.remove(job);
  }

  private void recordDuration(Duration duration) {
    turnSeconds.addLast(duration.toMillis() / 1000.0);
    while (turnSeconds.size() > P50_WINDOW) {
      turnSeconds.removeFirst();
    }
  }

  private double p50() {
    if (turnSeconds.isEmpty()) {
      return 0;
    }
    List<Double> sorted = new ArrayList<>(turnSeconds);
    sorted.sort(Double::compare);
    return sorted.get((sorted.size() - 1) / 2);
  }

  private double dispatchWait(Instant now) {
    if (settings.spacing().isOff() || !now.isBefore(nextSendAt)) {
      return 0;
    }
    return Duration.between(now, nextSendAt).toMillis() / 1000.0;
  }

  private String deadDetail() {
    return slots.stream().filter(s -> !s.live()).map(s -> "seat " + s.index + ": " + s.deathCause)
        .reduce((a, b) -> a + "; " + b).orElse("all seats alive");
  }

  private synchronized int positionOf(Job job) {
    int position = 1;
    for (Iterator<Job> it = queue.iterator(); it.hasNext(); position++) {
      if (it.next() == job) {
        return position;
      }
    }
    return 0;
  }

  private static java.util.concurrent.ThreadFactory daemonThread(String name) {
    return runnable -> {
      Thread thread = new Thread(runnable, name);
      thread.setDaemon(true);
      return thread;
    };
  }

  /** One seat, its thread, and its rebuild-once budget. */
  private final class Slot {
    final int index;
    final ExecutorService thread;
    private volatile BrowserSeat seat;
    volatile SeatProbe lastProbe;
    volatile String deathCause;
    boolean busy;
    Job current;
    private boolean rebuilt;

    Slot(int index, ExecutorService thread) {
      this.index = index;
      this.thread = thread;
    }

    boolean live() {
      return deathCause == null;
    }

    Optional<BrowserSeat> seat() {
      return Optional.ofNullable(seat);
    }

    void startUp() {
      try {
        seat = factory.create(index);
        lastProbe = seat.probe();
      } catch (SeatException | RuntimeException e) {
        LOG.log(Level.WARNING, "seat " + index + " did not start: " + e.getMessage(), e);
        deathCause = "did not start: " + e.getMessage();
      }
    }

    /** Runs one turn; a broken connection is rebuilt once, and a turn not yet sent is retried once. */
    Answer runTurn(TurnRequest request, TurnProgress progress) {
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

    /** Runs a non-turn job; a broken browser is rebuilt (once in the seat's life) for the next turn. */
    void runSeatWork(SeatJob<?> work) {
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
        lastProbe = seat.probe();
        LOG.warning("seat " + index + " rebuilt after: " + cause.failure().detail());
        return true;
      } catch (SeatException | RuntimeException e) {
        deathCause = "rebuild failed: " + e.getMessage();
        return false;
      }
    }

    void stopAndClose() {
      BrowserSeat current = seat;
      if (current != null) {
        current.stop();
      }
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

  /** A queued or running turn, shared by every caller that sent the same messages. */
  private static final class Job implements TurnHandle {
    final Dispatcher owner;
    final TurnRequest request;
    final String digest;
    final CompletableFuture<Answer> future = new CompletableFuture<>();
    int listeners = 1;
    SeatJob<?> seatWork; // a non-turn job (runBetweenTurns); null for a turn
    LiveTurn live; // how far the turn has come; null for seat work and decided-at-submit handles
    boolean running;
    Instant startedAt;
    DispatchTime.Cancellable timeout = () -> { };

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
      return future.completeExceptionally(new TurnFailed(failure));
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
        fail(cancelled);
        for (Slot slot : owner.slots) {
          if (slot.current == this) {
            timeout.cancel();
            owner.stopUntilReturned(slot, this);
          }
        }
      }
    }
  }
}

package dev.solweb.provider.dispatch;

import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.seat.BrowserSeat;
import dev.solweb.provider.seat.PageCounters;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.SeatReply;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What keeps one account's use of the page looking like one careful person's: the Send gap
 * ({@link SendGate}), the record of every Send ({@link SendLedger}) and the owner's budget
 * ({@link SendBudget}), and the pause the page itself asked for ({@link AccountPause}). One per daemon (one daemon per profile, one profile per account), shared
 * by every seat. docs/account-safety.md says why each default is what it is.
 */
public final class AccountPacing {
  /**
   * What the owner set: the Send gap ({@code SOLWEBD_SEND_GAP_MS}, default 2 s) and the budget
   * ({@code SOLWEBD_BUDGET}, none by default).
   */
  public record Settings(Duration sendGap, SendBudget budget) {
    /** No gap and no budget: tests that do not exercise pacing. */
    public static final Settings UNPACED = new Settings(Duration.ZERO, SendBudget.NONE);

    /**
     * From the environment. The default gap guards an account: a seat with a ChatGPT page behind it
     * ({@code pageSeat}) gets it; a scripted seat (tests, the demo, the benchmarks) has no account to
     * guard and gets none unless the variable asks for one.
     *
     * @throws IllegalArgumentException naming the bad variable and its form
     */
    public static Settings fromEnv(Map<String, String> env, boolean pageSeat) {
      Duration gap = SendGate.parseGap(env.get(SendGate.ENV), pageSeat ? SendGate.DEFAULT_GAP : Duration.ZERO);
      return new Settings(gap, SendBudget.parse(env.get(SendBudget.ENV)));
    }
  }

  private final SendGate gate;
  private final SendLedger ledger;
  private final SendBudget budget;
  private final Clock clock;
  private final AtomicReference<PageCounters> counters = new AtomicReference<>();
  private final AtomicReference<AccountPause> pause = new AtomicReference<>();

  public AccountPacing(SendGate gate, SendLedger ledger, SendBudget budget, Clock clock) {
    this.gate = gate;
    this.ledger = ledger;
    this.budget = budget;
    this.clock = clock;
  }

  /** No gap, no budget, an in-memory record: for tests that do not exercise pacing. */
  public static AccountPacing unpaced(Clock clock) {
    return new AccountPacing(SendGate.unpaced(), SendLedger.inMemory(), SendBudget.NONE, clock);
  }

  public SendGate gate() {
    return gate;
  }

  public SendLedger ledger() {
    return ledger;
  }

  public SendBudget budget() {
    return budget;
  }

  /**
   * Why one more Send of {@code effort} at {@code now} would break the owner's budget
   * ({@code capped}), with {@code pending} turns of that effort already on a seat; or empty.
   */
  public Optional<ProviderFailure> refusal(Effort effort, int pending, Instant now) {
    Optional<ProviderFailure> paused = paused(now);
    return paused.isPresent() ? paused : budget.refusal(effort, ledger, pending, now);
  }

  /** Why nothing may be sent at {@code now}: the account's pause ({@link AccountPause}), while it holds. */
  public Optional<ProviderFailure> paused(Instant now) {
    AccountPause p = pause.get();
    return p == null || !p.holds(now) ? Optional.empty() : Optional.of(p.failure(now));
  }

  /** The account's pause as it stands (also an ended one, until the next block replaces it or a person clears it). */
  public Optional<AccountPause> pause() {
    return Optional.ofNullable(pause.get());
  }

  /** Pauses the account when {@code failure} carries the page's word on the whole account (rows 52, 53). */
  void noteBlock(SeatException failure) {
    failure.accountBlock().ifPresent(block -> pause.set(AccountPause.of(block, clock.instant())));
  }

  /** A person cleared the pause on the operator page; returns whether there was one that held. */
  public boolean clearPause(Instant now) {
    AccountPause was = pause.getAndSet(null);
    return was != null && was.holds(now);
  }

  /** The page's own counters as a seat last read them (its plan, what it says is left). */
  public Optional<PageCounters> counters() {
    return Optional.ofNullable(counters.get());
  }

  /** Keeps what {@code seat} read on its last send or ask, when it read anything. On the seat's thread. */
  void observe(BrowserSeat seat) {
    seat.counters().ifPresent(counters::set);
  }

  /**
   * Runs a seat call that may Send, under a permit of the gate taken first (the caller has set
   * the seat's {@code onSent} to {@link SendGate.Permit#sent}): the permit's end opens the gap
   * for the next Send, counted from now unless the seat says nothing reached the page; a Send
   * that happened, or may have, is recorded with the model that answered.
   */
  SeatReply paced(SendGate.Permit permit, Effort effort, BrowserSeat seat, SeatCall call) throws SeatException {
    try {
      Optional<ProviderFailure> paused = paused(clock.instant());
      if (paused.isPresent()) {
        throw SeatException.failed(paused.get(), false); // a turn queued before the block: it types nothing
      }
      SeatReply reply = call.run();
      permit.release(true);
      ledger.record(clock.instant(), effort, reply.modelSlug());
      return reply;
    } catch (SeatException e) {
      permit.release(e.afterSend());
      if (e.afterSend()) {
        ledger.record(clock.instant(), effort, null);
      }
      throw e;
    } catch (RuntimeException e) {
      permit.release(true);
      ledger.record(clock.instant(), effort, null);
      throw e;
    } finally {
      observe(seat);
    }
  }

  /**
   * As {@link #paced} for a page action the page may not offer (a regenerate): empty means nothing
   * reached the page, so the permit ends without a gap and nothing is recorded.
   */
  Optional<SeatReply> pacedIfOffered(SendGate.Permit permit, Effort effort, BrowserSeat seat, OfferedCall call)
      throws SeatException {
    SeatException notOffered = SeatException.failed(
        ProviderFailure.of(ProviderFailure.Kind.UNAVAILABLE, "not offered; nothing was sent"), false);
    try {
      return Optional.of(paced(permit, effort, seat, () -> call.run().orElseThrow(() -> notOffered)));
    } catch (SeatException e) {
      if (e != notOffered) {
        throw e;
      }
      return Optional.empty();
    }
  }

  /** A seat call that may find its control missing (empty). */
  @FunctionalInterface
  interface OfferedCall {
    Optional<SeatReply> run() throws SeatException;
  }

  /** A seat call that may throw {@link SeatException}. */
  @FunctionalInterface
  interface SeatCall {
    SeatReply run() throws SeatException;
  }
}

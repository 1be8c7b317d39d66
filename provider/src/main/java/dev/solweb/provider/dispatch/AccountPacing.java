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
 * ({@link SendBudget}). One per daemon (one daemon per profile, one profile per account), shared
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
    return budget.refusal(effort, ledger, pending, now);
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

  /** A seat call that may throw {@link SeatException}. */
  @FunctionalInterface
  interface SeatCall {
    SeatReply run() throws SeatException;
  }
}

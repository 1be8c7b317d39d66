package dev.solweb.provider.dispatch;

import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.seat.BrowserSeat;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.SeatProbe;
import dev.solweb.provider.translate.Answer;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * What a queued turn does once the dispatcher gives it a seat. The dispatcher only schedules;
 * the runner plans with translate, types through the seat and records the outcome.
 */
public interface TurnRunner {

  /** An answer that needs no seat (the answer memory), decided when the request arrives. */
  Optional<Answer> answerAtSubmit(TurnRequest request);

  /**
   * A typed failure to answer {@code request} with at once, typed into nothing (a runaway loop),
   * decided when it arrives, after the answer memory; empty to queue it. Asked once per request
   * that does not attach to a turn in flight.
   */
  default Optional<ProviderFailure> refusalAtSubmit(TurnRequest request) {
    return Optional.empty();
  }

  /**
   * Why the finished {@code request} was typed whole into a fresh conversation instead of
   * continuing one (a {@link dev.solweb.provider.translate.ReplayCause} wire name), or empty when
   * it was not; asked once, when it leaves its seat, for the operator page's turn list.
   */
  default Optional<String> replayed(TurnRequest request) {
    return Optional.empty();
  }

  /**
   * Runs {@code request} on {@code seat}, on the seat's thread.
   *
   * @throws SeatException when the seat fails; the dispatcher decides on rebuilds and retries (a
   *     turn is retried only when {@link SeatException#afterSend()} is false)
   * @throws dev.solweb.provider.failure.TurnFailed for a typed failure of this turn
   */
  Answer run(BrowserSeat seat, TurnRequest request, Consumer<SeatProbe> onProbe) throws SeatException;
}

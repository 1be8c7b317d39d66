package dev.solweb.provider.dispatch;

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
   * Runs {@code request} on {@code seat}, on the seat's thread.
   *
   * @throws SeatException when the seat fails; the dispatcher decides on rebuilds and retries (a
   *     turn is retried only when {@link SeatException#afterSend()} is false)
   * @throws dev.solweb.provider.failure.TurnFailed for a typed failure of this turn
   */
  Answer run(BrowserSeat seat, TurnRequest request, Consumer<SeatProbe> onProbe) throws SeatException;
}

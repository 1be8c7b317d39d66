package dev.solweb.provider.dispatch;

import dev.solweb.provider.failure.TurnFailed;
import dev.solweb.provider.seat.BrowserSeat;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.SeatProbe;
import dev.solweb.provider.seat.SeatReply;
import dev.solweb.provider.translate.Answer;
import dev.solweb.provider.translate.ContextBudget;
import dev.solweb.provider.translate.ConversationPlace;
import java.time.Clock;
import java.util.function.Consumer;

/**
 * A one-shot ask on one seat ({@code POST /v1/ask}, and ask-gpt's direct path): probe, a new
 * conversation, the effort re-asserted and read back, attachments uploaded, Send, images saved.
 * No preamble and no tool protocol: the prompt is typed as given, and the answer is the reply's
 * prose followed by its code blocks, fenced again.
 */
public final class OneShotTurn {

  private OneShotTurn() {}

  /**
   * @throws SeatException when the seat fails (the dispatcher decides on rebuilds)
   * @throws TurnFailed when the page is not ready or the effort does not read back
   */
  public static Answer run(BrowserSeat seat, TurnRequest.Ask ask, Clock clock, Consumer<SeatProbe> onProbe)
      throws SeatException {
    return run(seat, ask, clock, onProbe, ConversationPlace.HISTORY, AccountPacing.unpaced(clock));
  }

  /**
   * As above, in the daemon's {@code place} (SOLWEBD_PROJECT, SOLWEBD_TEMPORARY), refused there
   * before Send; the uploads and the Send wait for the account's Send gap.
   */
  public static Answer run(BrowserSeat seat, TurnRequest.Ask ask, Clock clock, Consumer<SeatProbe> onProbe,
      ConversationPlace place, AccountPacing pacing) throws SeatException {
    SeatProbe probe = seat.probe();
    onProbe.accept(probe);
    SeatTurn.requireReady(probe, clock);
    seat.openNew(place);
    SeatTurn.assertEffort(seat, ask.effort());
    SendGate.Permit permit = pacing.gate().acquire();
    seat.onSent(sent -> permit.sent());
    SeatReply reply;
    try {
      reply = pacing.paced(permit, ask.effort(), seat, () -> seat.ask(ask.prompt(), ask.attachments(), ask.outputDir()));
    } finally {
      seat.onSent(null);
      permit.release(false); // a no-op once the ask ended it
    }
    String text = answerText(reply);
    long input = ContextBudget.estimateTokens(ask.prompt());
    long output = ContextBudget.estimateTokens(text);
    return Answer.text(text, new Answer.Usage(input, output), reply.images());
  }

  /** Prose, then each code block fenced (the DOM gives them apart; ask-gpt prints one text). */
  static String answerText(SeatReply reply) {
    StringBuilder text = new StringBuilder(reply.prose().strip());
    for (String block : reply.codeBlocks()) {
      if (!text.isEmpty()) {
        text.append("\n\n");
      }
      text.append("```\n").append(block.endsWith("\n") ? block : block + "\n").append("```");
    }
    return text.toString();
  }
}

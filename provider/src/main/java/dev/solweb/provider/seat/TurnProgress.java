package dev.solweb.provider.seat;

/**
 * Where a seat reports how far a send has come, for {@code /healthz} and the clients' progress
 * lines. It carries stages and a character count only, never text: nothing of an answer leaves
 * before it is complete (the one-delta rule).
 *
 * <p>Called on the seat's thread while {@link BrowserSeat#send} or {@link BrowserSeat#ask} runs,
 * stages in order (a turn may repeat them when its reply needs a correction send). An
 * implementation must be cheap and must not block the seat for long.
 */
@FunctionalInterface
public interface TurnProgress {

  /** How far one send has come, as the seat sees it. */
  enum Stage {
    /** Putting the message into the composer; nothing sent yet. */
    TYPING,
    /** Send was clicked; nothing of the answer seen yet. */
    SENT,
    /** The page (its stream, else its DOM) shows the model thinking. */
    THINKING,
    /**
     * The server reviews the answer (a safety review, REAL-PAGE row 19) while the model goes on:
     * a phase, not an end.
     */
    REVIEWING,
    /** Answer text is arriving. */
    WRITING,
    /** The seat judged the answer complete. */
    COMPLETE
  }

  /**
   * @param charsReceived characters of answer text seen so far (0 before {@link Stage#WRITING})
   */
  void report(Stage stage, int charsReceived);

  /** Reports nowhere: what a seat uses until it is given a listener. */
  TurnProgress NONE = (stage, charsReceived) -> { };
}

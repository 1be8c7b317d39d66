package dev.solweb.provider.seat.playwright;

import dev.solweb.provider.seat.TurnProgress;
import dev.solweb.provider.seat.TurnProgress.Stage;

/**
 * Turns what the seat sees in one send into {@link TurnProgress} reports, in order and only when
 * something changed: typing and sent from the seat's own steps, then per poll thinking (the
 * stream's markers, else the DOM's thinking label; again when it comes back mid-answer), a safety
 * review while it lasts (the stream's {@code safety_review_update}, else the page's status line),
 * and writing with the characters received (the stream's answer text, else the DOM's), then complete.
 */
final class ProgressFeed {
  private TurnProgress listener = TurnProgress.NONE;
  private Stage last;
  private int chars;

  void listener(TurnProgress to) {
    listener = to == null ? TurnProgress.NONE : to;
  }

  void typing() {
    emit(Stage.TYPING, 0);
  }

  void sent() {
    emit(Stage.SENT, 0);
  }

  /**
   * One poll after Send.
   *
   * @param thinkingNow the model thinks now (the stream's markers, else the DOM's thinking label)
   * @param thought the model thought at some point of this turn: reported once right after Send
   *     even when the thinking ended between two polls, since the page showed it before the answer
   * @param streamChars answer characters the page's stream carried so far (0 without a stream)
   * @param domText the answer turn's text as the DOM shows it, or null
   */
  void poll(boolean thinkingNow, boolean thought, int streamChars, String domText) {
    poll(thinkingNow, thought, false, streamChars, domText);
  }

  /** As {@link #poll(boolean, boolean, int, String)}; {@code reviewing}: a safety review is on (a phase, not an end). */
  void poll(boolean thinkingNow, boolean thought, boolean reviewing, int streamChars, String domText) {
    if (reviewing) {
      if (last != Stage.REVIEWING) {
        emit(Stage.REVIEWING, chars);
      }
      return;
    }
    if ((thinkingNow || (thought && last == Stage.SENT)) && last != Stage.THINKING) {
      // Thinking may come back mid-answer: the count received so far stays what it was.
      emit(Stage.THINKING, chars);
    }
    if (thinkingNow) {
      return;
    }
    int received = streamChars > 0 ? streamChars : domText == null ? 0 : domText.length();
    if (received > 0 && (last != Stage.WRITING || received != chars)) {
      emit(Stage.WRITING, received);
    }
  }

  void complete(int answerChars) {
    emit(Stage.COMPLETE, answerChars);
  }

  private void emit(Stage stage, int count) {
    last = stage;
    chars = count;
    listener.report(stage, count);
  }
}

package dev.solweb.provider.seat.playwright.traffic;

/**
 * Decides, on each poll after Send, whether the turn is over and whose reading of the answer
 * counts: the page's stream or the DOM. The stream's rule wins whenever the stream can judge
 * (../shared/CHATGPT-STREAM.md "Reading an answer"); the DOM rule decides alone when no stream was
 * seen, when the stream handed the turn to a channel the seat does not follow, when the stream
 * ended holding no text (an image turn), or when the stream died without its terminal frames
 * (that last one is a disagreement worth counting) after finishing its answer message. A stream
 * that died while its answer was still {@code in_progress} vetoes the DOM: the answer is known to
 * be cut, whatever the page shows. A DOM that looks finished while the stream is still live is a
 * false pause: wait.
 */
public final class AnswerArbiter {

  /** The poll's verdict. */
  public enum Decision { WAIT, STREAM, DOM, DOM_OVER_DEAD_STREAM, CUT }

  /**
   * What one poll saw.
   *
   * @param streamSeen a turn body (or a followed handoff) was observed since Send
   * @param streamComplete the stream's completion rule holds
   * @param streamLive a body or a followed socket of the turn is still open
   * @param handoffUnfollowed the stream handed off and nothing the seat sees carried the answer on
   * @param answerless a terminal frame arrived and the stream held no answer text
   * @param answerUnfinished the stream's answer message exists and never reached {@code finished_successfully}
   * @param domComplete the DOM rule holds
   */
  record Poll(boolean streamSeen, boolean streamComplete, boolean streamLive, boolean handoffUnfollowed,
      boolean answerless, boolean answerUnfinished, boolean domComplete) {}

  private AnswerArbiter() {}

  static Decision decide(Poll p) {
    if (p.streamSeen() && p.streamComplete()) {
      return Decision.STREAM;
    }
    if (!p.domComplete()) {
      return Decision.WAIT;
    }
    if (!p.streamSeen() || p.handoffUnfollowed() || p.answerless()) {
      return Decision.DOM;
    }
    if (p.streamLive()) {
      return Decision.WAIT;
    }
    return p.answerUnfinished() ? Decision.CUT : Decision.DOM_OVER_DEAD_STREAM;
  }
}

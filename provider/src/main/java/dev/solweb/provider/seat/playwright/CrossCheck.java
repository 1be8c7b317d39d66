package dev.solweb.provider.seat.playwright;

import dev.solweb.provider.seat.AnswerStats;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.playwright.page.ChatGptPage;
import dev.solweb.provider.seat.playwright.page.PageWait;
import java.time.Duration;
import java.util.List;
import java.util.logging.Logger;

/**
 * A stream answer to compare with the DOM's reading of the same message, once the DOM has drawn
 * it (at once when it already had, else at the seat's next probe). A difference, or a DOM that
 * never showed it, is logged and counted: the stream's answer stood, since it was complete.
 */
record CrossCheck(String messageId, String domTargetId, List<String> streamBlocks) {

  private static final Logger LOG = Logger.getLogger(CrossCheck.class.getName());

  /**
   * How long the DOM may still take to draw the answer when the check runs: the stream ends before
   * the page renders it, and a probe can come right after the turn (on two loaded cores the page was
   * seen to lag by over a second, which had counted as a disagreement).
   */
  static final Duration DOM_GRACE = Duration.ofSeconds(3);

  void run(ChatGptPage chat, PageWait wait) throws SeatException {
    if (!chat.onSite()) {
      return;
    }
    String id = wait.until(DOM_GRACE, () -> messageId != null && chat.hasMessage(messageId) ? messageId
        : domTargetId != null && chat.hasMessage(domTargetId) ? domTargetId : null, () -> null);
    if (id == null) {
      disagree("the DOM never showed the streamed answer " + messageId + " within " + DOM_GRACE.toSeconds() + " s");
      return;
    }
    List<String> dom = chat.codeBlocks(id, streamBlocks::equals).blocks();
    if (!dom.equals(streamBlocks)) {
      disagree("the DOM's code blocks of " + id + " differ from the stream's (" + dom.size() + " vs "
          + streamBlocks.size() + " blocks); the stream's stood");
    }
  }

  /** Counts and logs one disagreement between the stream and the DOM. */
  static void disagree(String what) {
    AnswerStats.GLOBAL.disagreed();
    LOG.warning("stream and DOM disagree: " + what);
  }
}

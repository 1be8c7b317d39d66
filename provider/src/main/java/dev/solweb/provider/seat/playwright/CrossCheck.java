package dev.solweb.provider.seat.playwright;

import dev.solweb.provider.seat.AnswerStats;
import dev.solweb.provider.seat.playwright.page.ChatGptPage;
import java.util.List;
import java.util.logging.Logger;

/**
 * A stream answer to compare with the DOM's reading of the same message, once the DOM has drawn
 * it (at once when it already had, else at the seat's next probe). A difference, or a DOM that
 * never showed it, is logged and counted: the stream's answer stood, since it was complete.
 */
record CrossCheck(String messageId, String domTargetId, List<String> streamBlocks) {

  private static final Logger LOG = Logger.getLogger(CrossCheck.class.getName());

  void run(ChatGptPage chat) {
    if (!chat.onSite()) {
      return;
    }
    String id = messageId != null && chat.hasMessage(messageId) ? messageId : domTargetId;
    if (id == null || !chat.hasMessage(id)) {
      disagree("the DOM never showed the streamed answer " + messageId);
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

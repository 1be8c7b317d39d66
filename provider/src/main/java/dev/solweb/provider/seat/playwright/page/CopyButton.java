package dev.solweb.provider.seat.playwright.page;

import com.microsoft.playwright.Page;
import com.microsoft.playwright.PlaywrightException;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The answer's Copy, clicked as a person would (oracle, REAL-PAGE row 5): hover the turn (its
 * action bar only takes the pointer on hover), scroll the button into view, a full trusted click;
 * then the page's clipboard write, intercepted ({@link PageScripts#INIT}), must hold still over
 * three reads and 250 ms. What it copied is the proof that the button was Copy: a click that
 * copies nothing leaves the caller to the DOM. Confined to the seat's thread, like the page.
 */
final class CopyButton {

  private final Page page;
  private final ChatGptPage chat;

  CopyButton(Page page, ChatGptPage chat) {
    this.page = page;
    this.chat = chat;
  }

  /**
   * Clicks the Copy of message {@code messageId}'s turn and returns what it copied, at once when
   * it is {@code enough}, else once it held still; null when nothing was copied within 2 s.
   */
  String copy(String messageId, Predicate<String> enough) {
    Map<?, ?> aim = aim(messageId, false);
    if (aim == null) {
      return null;
    }
    page.evaluate(PageScripts.ARM_COPY);
    try {
      press(messageId, aim);
      long firstBy = System.nanoTime() + 2_000_000_000L;
      long lastBy = System.nanoTime() + 10_000_000_000L;
      String last = null;
      int same = 0;
      long sameSince = 0;
      while (true) {
        String now = (String) page.evaluate(PageScripts.COPIED);
        long t = System.nanoTime();
        if (now == null) {
          if (t > firstBy) {
            return null;
          }
        } else if (enough.test(now)) {
          return now;
        } else if (now.equals(last)) {
          same++;
          if (same >= 3 && t - sameSince >= 250_000_000L) {
            return now;
          }
        } else {
          last = now;
          same = 1;
          sameSince = t;
        }
        if (t > lastBy) {
          return last;
        }
        page.waitForTimeout(50);
      }
    } catch (PlaywrightException e) {
      return null; // the DOM is the fallback
    } finally {
      page.evaluate(PageScripts.DISARM_COPY);
    }
  }

  /**
   * Hovers the Copy's place (its turn takes the hover, and the bar the pointer), then aims again,
   * since the turn may have remounted meanwhile, and clicks where the pointer now reaches the
   * button; a button the pointer still does not reach is focused and pressed with Enter.
   */
  private void press(String messageId, Map<?, ?> first) {
    page.mouse().move(((Number) first.get("x")).doubleValue(), ((Number) first.get("y")).doubleValue());
    Map<?, ?> aim = aim(messageId, false);
    if (aim == null) {
      throw new PlaywrightException("the answer's Copy left the page");
    }
    if (Boolean.TRUE.equals(aim.get("reached"))) {
      page.mouse().click(((Number) aim.get("x")).doubleValue(), ((Number) aim.get("y")).doubleValue());
      return;
    }
    Map<?, ?> focused = aim(messageId, true);
    if (focused == null || !Boolean.TRUE.equals(focused.get("focused"))) {
      throw new PlaywrightException("the answer's Copy takes neither the pointer nor the focus");
    }
    page.keyboard().press("Enter");
  }

  private Map<?, ?> aim(String messageId, boolean focus) {
    return (Map<?, ?>) chat.evaluate(AnswerScripts.COPY_AIM, List.of(messageId, Controls.script(), focus));
  }
}

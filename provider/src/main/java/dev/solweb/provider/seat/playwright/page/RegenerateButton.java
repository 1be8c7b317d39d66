package dev.solweb.provider.seat.playwright.page;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.PlaywrightException;
import java.util.List;
import java.util.Map;

/**
 * The last answer's Regenerate (REAL-PAGE row 35), clicked as a person would: hover the answer's
 * turn (its action bar takes the pointer on hover), scroll the button into view, a trusted click;
 * a button the pointer cannot reach (covered, off the hit area) is focused and pressed with the
 * keyboard instead. Whether it regenerated is for the page's request to say
 * ({@code PageTurn#regenerate}), never for this click. Confined to the seat's thread.
 */
final class RegenerateButton {

  private final Page page;
  private final ChatGptPage chat;

  RegenerateButton(Page page, ChatGptPage chat) {
    this.page = page;
    this.chat = chat;
  }

  /** Clicks it; false when no strategy found it in the last answer's turn, or neither pointer nor keyboard reached it. */
  @SuppressWarnings("unchecked")
  boolean click() {
    Map<String, Object> target = (Map<String, Object>) chat.evaluate(AnswerScripts.REGENERATE_TARGET,
        List.of(Controls.script()));
    if (target == null) {
      return false;
    }
    Map<String, Object> at = (Map<String, Object>) target.get("turn");
    Locator turn = page.locator((String) at.get("css")).nth(((Number) at.get("index")).intValue());
    Locator button = Controls.Found.of(target.get("button")).locator(page);
    try {
      button.scrollIntoViewIfNeeded(new Locator.ScrollIntoViewIfNeededOptions().setTimeout(5_000));
      turn.hover(new Locator.HoverOptions().setTimeout(5_000));
      button.click(new Locator.ClickOptions().setTimeout(5_000));
      return true;
    } catch (PlaywrightException covered) {
      try {
        button.focus(new Locator.FocusOptions().setTimeout(5_000));
        page.keyboard().press("Enter");
        return true;
      } catch (PlaywrightException unreachable) {
        return false;
      }
    }
  }
}

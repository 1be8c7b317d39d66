package dev.solweb.provider.seat.playwright.page;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.seat.SeatException;
import java.util.List;
import java.util.Map;

/**
 * The Chat/Work switch (REAL-PAGE rows 21, 27): a browser left in Work shows another picker, so the
 * effort step switches to Chat first and reads the switch back.
 */
final class WorkMode {

  private final Page page;
  private final ChatGptPage chat;

  WorkMode(Page page, ChatGptPage chat) {
    this.page = page;
    this.chat = chat;
  }

  /** The Chat/Work switch as the page shows it: whether Work is on, and the Chat button. */
  record Mode(boolean work, Controls.Found chat, boolean chatPressed) { }

  @SuppressWarnings("unchecked")
  Mode mode() {
    Map<String, Object> m = (Map<String, Object>) chat.evaluate(MenuScripts.MODE, List.of(Labels.CHAT_MODE, Labels.WORK_MODE));
    return new Mode(Boolean.TRUE.equals(m.get("work")), Controls.Found.of(m.get("chat")), Boolean.TRUE.equals(m.get("chatPressed")));
  }

  /**
   * A browser left in Work mode shows another picker (rows 21, 27): Chat is pressed first, and
   * read back; a page that stays in Work is a typed {@code unavailable} that says so.
   */
  void leave(Effort wanted) throws SeatException {
    Mode m = mode();
    if (!m.work()) {
      return;
    }
    if (m.chat() == null) {
      throw EffortPicker.refused(wanted, "the page is in Work mode (its Work button is pressed) and shows no Chat button to switch back");
    }
    m.chat().locator(page).click(new Locator.ClickOptions().setTimeout(5_000));
    long deadline = System.nanoTime() + EffortPicker.STEP_NANOS;
    while (mode().work() && System.nanoTime() < deadline) {
      page.waitForTimeout(30);
    }
    if (mode().work()) {
      throw EffortPicker.refused(wanted, "the page is in Work mode and stayed there after Chat was pressed");
    }
  }
}

package dev.solweb.provider.seat.playwright.page;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.PlaywrightException;
import java.util.List;
import java.util.Map;

/**
 * Acting on a control the way a person could (REAL-PAGE rows 57, 60, 65): the control is found
 * and aimed at in ONE page script, never held across reads (a turn that remounts leaves an index or
 * a handle pointing at another node or at none), then a trusted mouse click at its centre, where
 * the pointer reaches it; a control something covers is focused and pressed with the keyboard
 * instead. Candidates no person could use (hidden, of zero size: row 57's twin editor) are never
 * found ({@link Controls}). Confined to the seat's thread, like the page.
 */
final class PersonInput {

  private final Page page;
  private final ChatGptPage chat;

  PersonInput(Page page, ChatGptPage chat) {
    this.page = page;
    this.chat = chat;
  }

  /** How a control was pressed: the strategy that found it, and whether the keyboard did it. */
  record Pressed(String via, boolean keyboard) {}

  /**
   * Presses the control {@code strategies} find now: a mouse click at its centre, or, covered, focus
   * and {@code key}. A control found disabled is clicked the checking way (Playwright waits up to 5 s
   * for it to be enabled). Null when no strategy finds it.
   *
   * @throws PlaywrightException when the control is covered and cannot take the focus either
   */
  @SuppressWarnings("unchecked")
  Pressed press(List<Controls.Strategy> strategies, String key) {
    Map<String, Object> aim = (Map<String, Object>) chat.evaluate(PageScripts.AIM,
        List.of(strategies.stream().map(Controls.Strategy::toScript).toList()));
    if (aim == null) {
      return null;
    }
    String via = (String) aim.get("via");
    if (!Boolean.TRUE.equals(aim.get("enabled"))) {
      new Controls.Found(via, (String) aim.get("css"), ((Number) aim.get("index")).intValue()).locator(page)
          .click(new Locator.ClickOptions().setTimeout(5_000));
      return new Pressed(via, false);
    }
    if (aim.get("x") instanceof Number x && aim.get("y") instanceof Number y) {
      page.mouse().click(x.doubleValue(), y.doubleValue());
      return new Pressed(via, false);
    }
    if (!Boolean.TRUE.equals(aim.get("focused"))) {
      throw new PlaywrightException("the " + via + " control is covered and takes no focus: neither pointer nor keyboard reaches it");
    }
    page.keyboard().press(key);
    return new Pressed(via, true);
  }

  /** Puts the caret at the end of the composer a person sees: a click into it (or, covered, the focus), then Control+End. */
  boolean focusComposerAtEnd() {
    Map<?, ?> aim = (Map<?, ?>) chat.evaluate(PageScripts.AIM,
        List.of(Controls.COMPOSER.stream().map(Controls.Strategy::toScript).toList()));
    if (aim == null) {
      return false;
    }
    if (aim.get("x") instanceof Number x && aim.get("y") instanceof Number y) {
      page.mouse().click(x.doubleValue(), y.doubleValue());
    } else if (!Boolean.TRUE.equals(aim.get("focused"))) {
      throw new PlaywrightException("the composer is covered and takes no focus");
    }
    page.keyboard().press("Control+End");
    return true;
  }
}

package dev.solweb.provider.seat.playwright.page;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;

/**
 * Chooses a menu row the way a person can reach it (REAL-PAGE row 65): a click where the pointer at
 * the row's centre lands on the row, else the keyboard (the row focused, then Enter), because a
 * popover over the menu takes the click and Playwright would wait for it to leave.
 */
final class MenuReach {

  /** Whether the element at the row's centre is the row or inside it. */
  private static final String REACHED = """
      (r) => { const b = r.getBoundingClientRect();
        if (b.width <= 0 || b.height <= 0) return false;
        const hit = document.elementFromPoint(b.x + b.width / 2, b.y + b.height / 2);
        return !!hit && (hit === r || r.contains(hit)); }
      """;

  private MenuReach() {}

  /** Clicks {@code row}, or focuses it and presses Enter when the pointer cannot reach it; returns how. */
  static String choose(Page page, Locator row) {
    row.scrollIntoViewIfNeeded(new Locator.ScrollIntoViewIfNeededOptions().setTimeout(5_000));
    if (Boolean.TRUE.equals(row.evaluate(REACHED))) {
      row.click(new Locator.ClickOptions().setTimeout(5_000));
      return "pointer";
    }
    row.focus(new Locator.FocusOptions().setTimeout(5_000));
    page.keyboard().press("Enter");
    return "keyboard";
  }
}

package dev.solweb.provider.seat.playwright.page;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The submenu openers of the pill's menu, and which one leads to the efforts (REAL-PAGE row 1 (b):
 * August's Advanced -> Effort): marked by the page, else named so, else each untried one in turn.
 */
final class MenuOpeners {

  /** Submenu openers that lead to the efforts (August 2026: Advanced -> Effort). */
  private static final Pattern EFFORT_OPENER_TEXT = Pattern.compile(
      "^(?:advanced|effort|thinking effort|дополнительно|усилие|уровень размышлений)", Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);

  /** A submenu opener by its index among the open menus' openers, and what tells it apart across descents. */
  record Opener(int index, String key) { }

  private MenuOpeners() {}

  /** The first opener not expanded and not yet looked behind (at this depth), or null. */
  @SuppressWarnings("unchecked")
  static Opener untried(ChatGptPage chat, int depth, Set<String> lookedBehind) {
    Map<String, Object> m = (Map<String, Object>) chat.evaluate(MenuScripts.MENU, EffortPicker.menuSelectors());
    for (Map<String, Object> o : (List<Map<String, Object>>) m.get("openers")) {
      String key = depth + ":" + o.get("text");
      if (!Boolean.TRUE.equals(o.get("expanded")) && !lookedBehind.contains(key)) {
        return new Opener(((Number) o.get("index")).intValue(), key);
      }
    }
    return null;
  }

  /** The submenu opener that leads to efforts: marked by the page, else named Advanced/Effort; -1 if none. */
  @SuppressWarnings("unchecked")
  static int effortOpener(ChatGptPage chat) {
    Map<String, Object> m = (Map<String, Object>) chat.evaluate(MenuScripts.MENU, EffortPicker.menuSelectors());
    List<Map<String, Object>> openers = (List<Map<String, Object>>) m.get("openers");
    for (boolean byMark : new boolean[] {true, false}) {
      for (Map<String, Object> o : openers) {
        if (Boolean.TRUE.equals(o.get("expanded"))) {
          continue;
        }
        boolean hit = byMark ? Boolean.TRUE.equals(o.get("effort")) : EFFORT_OPENER_TEXT.matcher((String) o.get("text")).find();
        if (hit) {
          return ((Number) o.get("index")).intValue();
        }
      }
    }
    return -1;
  }
}

package dev.solweb.provider.seat.playwright.page;

import dev.solweb.provider.model.Effort;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Effort rows read by their place when their words are in a language the seat has no table for.
 * The ladder Instant / Medium / High / Extra High / Pro holds in every language and every menu
 * shape (REAL-PAGE row 1; row 40's flat menu puts the same five after the models), and a few of
 * its words stay untranslated ("Pro" everywhere, "Instant" in ru and de). So five adjacent radio
 * rows in which every readable word sits at its own rung, and no readable effort word lies outside
 * them, are the ladder. The place only proposes: the seat's choice is then proven by the page's
 * own {@code /prepare} (or, on a page that sends none, by the menu's checked row read back).
 */
final class LadderRun {

  /** One radio row as the menu script reads it: its label and the run of adjacent radios it sits in. */
  record Row(String label, int run) { }

  private static final int RUNGS = Effort.values().length;

  private LadderRun() {}

  /**
   * The efforts of {@code rows} by index, when a window of five adjacent rows is the ladder and at
   * least one of its rows carries no readable word (otherwise the labels already decided); empty
   * when none fits. At most one can: a readable word fixes where its window starts, and every
   * readable word must lie inside it.
   */
  static Optional<Map<Integer, Effort>> find(List<Row> rows) {
    for (int start = 0; start + RUNGS <= rows.size(); start++) {
      if (fits(rows, start)) {
        Map<Integer, Effort> found = new HashMap<>();
        for (int rung = 0; rung < RUNGS; rung++) {
          found.put(start + rung, Effort.values()[rung]);
        }
        return Optional.of(found);
      }
    }
    return Optional.empty();
  }

  private static boolean fits(List<Row> rows, int start) {
    int anchors = 0;
    int unread = 0;
    for (int i = 0; i < rows.size(); i++) {
      Optional<Effort> word = EffortLabels.effort(rows.get(i).label());
      boolean inside = i >= start && i < start + RUNGS;
      if (!inside) {
        if (word.isPresent()) {
          return false; // an effort word outside the window: the ladder is elsewhere
        }
        continue;
      }
      if (rows.get(i).run() != rows.get(start).run()) {
        return false; // a separator, a menuitem or another group between: not one ladder
      }
      if (word.isEmpty()) {
        unread++;
      } else if (word.get().ordinal() == i - start) {
        anchors++;
      } else {
        return false; // a readable word on the wrong rung
      }
    }
    return anchors > 0 && unread > 0;
  }
}

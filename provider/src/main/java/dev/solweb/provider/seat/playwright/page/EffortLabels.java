package dev.solweb.provider.seat.playwright.page;

import dev.solweb.provider.model.Effort;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The effort ladder (Instant / Medium / High / Extra High / Pro) in the page's languages. A label
 * outside this table is unknown: the seat never guesses an effort from it.
 *
 * <p>Sources: English from every peer of REAL-PAGE row 1. Russian "Instant" (the page leaves it
 * untranslated), "Средний" and "Высокий" from the July 2026 capture
 * (realdom/chatgpt-bridge/intelligence-picker-ru.html); "Очень высокий" (Extra High) and "Pro" are
 * this project's reading of how the page translates its other labels. October's picker (REAL-PAGE
 * rows 21 and 26, live 10-08) confirms "Очень высокий" and calls the 4-of-5 tier "Very High" in
 * English; "Extra High" stays for the older pages.
 */
public final class EffortLabels {

  private static final Map<String, Effort> BY_LABEL = Map.ofEntries(
      Map.entry("instant", Effort.INSTANT),
      Map.entry("medium", Effort.MEDIUM),
      Map.entry("high", Effort.HIGH),
      Map.entry("extra high", Effort.XHIGH),
      Map.entry("very high", Effort.XHIGH),
      Map.entry("pro", Effort.PRO),
      Map.entry("средний", Effort.MEDIUM),
      Map.entry("высокий", Effort.HIGH),
      Map.entry("очень высокий", Effort.XHIGH));

  private static final Map<String, List<String>> LADDER = Map.of(
      "en", List.of("Instant", "Medium", "High", "Extra High", "Pro"),
      "ru", List.of("Instant", "Средний", "Высокий", "Очень высокий", "Pro"));

  private EffortLabels() {}

  /** The effort a label names, case and spacing ignored; empty when the label is not on the ladder. */
  public static Optional<Effort> effort(String label) {
    if (label == null) {
      return Optional.empty();
    }
    String key = label.replace('\u00a0', ' ').strip().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
    return Optional.ofNullable(BY_LABEL.get(key));
  }

  /** The label the page shows for {@code effort} in {@code locale} (en or ru); fakesol renders these. */
  static String label(Effort effort, String locale) {
    return LADDER.getOrDefault(locale, LADDER.get("en")).get(effort.ordinal());
  }
}

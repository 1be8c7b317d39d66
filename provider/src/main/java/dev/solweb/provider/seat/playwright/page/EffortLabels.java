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

  /**
   * The effort the last words of a label name, where the label leads with the model (row 61's pill
   * "6 6 High", "6.2 Sol Instant"); empty when no tail of it is an effort.
   */
  public static Optional<Effort> trailing(String label) {
    if (label == null) {
      return Optional.empty();
    }
    String[] words = label.replace('\u00a0', ' ').strip().split("\\s+");
    for (int i = 1; i < words.length; i++) {
      Optional<Effort> e = effort(String.join(" ", java.util.Arrays.copyOfRange(words, i, words.length)));
      if (e.isPresent()) {
        return e;
      }
    }
    return Optional.empty();
  }

  /**
   * The pill's language-free {@code data-selected-reasoning-effort} (REAL-PAGE rows 26, 40: "high"
   * seen). The other words are this project's reading of the same vocabulary (the request's
   * {@code reasoning_effort}-style words, and row 25's {@code thinking_effort} words); anything
   * else is unknown, and the label decides.
   */
  private static final Map<String, Effort> BY_ATTRIBUTE = Map.of(
      "medium", Effort.MEDIUM, "high", Effort.HIGH, "xhigh", Effort.XHIGH, "extra_high", Effort.XHIGH,
      "very_high", Effort.XHIGH, "standard", Effort.MEDIUM, "extended", Effort.HIGH, "max", Effort.XHIGH);

  /** Whether the seat has a label table for the page language {@code lang} ({@code en-US}: en). */
  static boolean hasTable(String lang) {
    String primary = lang == null ? "" : lang.strip().toLowerCase(Locale.ROOT).split("[-_]")[0];
    return LADDER.containsKey(primary);
  }

  /** The effort a pill's {@code data-selected-reasoning-effort} value names, or empty. */
  public static Optional<Effort> fromAttribute(String value) {
    if (value == null) {
      return Optional.empty();
    }
    return Optional.ofNullable(BY_ATTRIBUTE.get(value.strip().toLowerCase(Locale.ROOT).replace('-', '_')));
  }

  /**
   * The effort a slider's value names, scaled to its own range (row 40): five steps are the whole
   * ladder (row 26: 0..4); four are Instant to Extra High, Pro being a separate row (0..3).
   * Any other range is unknown.
   */
  public static Optional<Effort> onSlider(Number now, Number min, Number max) {
    if (now == null || min == null || max == null) {
      return Optional.empty();
    }
    int steps = max.intValue() - min.intValue() + 1;
    int at = now.intValue() - min.intValue();
    if ((steps != 5 && steps != 4) || at < 0 || at >= steps) {
      return Optional.empty();
    }
    return Optional.of(Effort.values()[at]);
  }

  /** The slider value of {@code effort} on a slider of range {@code min..max}, or empty when it has no step for it. */
  static Optional<Integer> sliderValue(Effort effort, int min, int max) {
    int steps = max - min + 1;
    if ((steps != 5 && steps != 4) || effort.ordinal() >= steps) {
      return Optional.empty();
    }
    return Optional.of(min + effort.ordinal());
  }

  /** The label the page shows for {@code effort} in {@code locale} (en or ru); fakesol renders these. */
  static String label(Effort effort, String locale) {
    return LADDER.getOrDefault(locale, LADDER.get("en")).get(effort.ordinal());
  }
}

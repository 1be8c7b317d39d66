package dev.solweb.provider.seat.playwright.traffic;

import dev.solweb.provider.model.Effort;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the page's traffic says about effort: the ONE table from the {@code model} and
 * {@code thinking_effort} the page's own requests carry ({@code /prepare}, {@code /f/conversation})
 * to the {@link Effort} ladder, and the tier rule for the model slug that answered.
 *
 * <p>The table, from the outbound bodies measured live on 2026-10-07/08 (../shared/REAL-PAGE.md
 * row 25; GPT-6 has the same efforts as GPT-5.6):
 *
 * <pre>
 *   model                       thinking_effort   effort
 *   gpt-5-6, gpt-6 (no variant) (none)            instant
 *   gpt-5-6-thinking, ...       standard          medium
 *   gpt-5-6-thinking, ...       extended          high
 *   gpt-5-6-thinking, ...       max               xhigh ("Very High")
 *   gpt-6-pro, ... (-pro)       (none)            pro
 * </pre>
 *
 * Anything else (another model family such as Work's {@code gpt-6-astra-wm}, a
 * {@code thinking_effort} outside the three, an effort on an instant or pro model, no model) is
 * unknown: the seat refuses it by name instead of guessing.
 */
public final class WireEffort {

  /** A GPT model slug: {@code gpt-<major>[-<minor>][-thinking|-pro]}. */
  private static final Pattern MODEL = Pattern.compile("^gpt-\\d+(?:-\\d+)?(?:-(thinking|pro))?$");
  private static final Map<String, Effort> THINKING = Map.of(
      "standard", Effort.MEDIUM, "extended", Effort.HIGH, "max", Effort.XHIGH);

  private WireEffort() {}

  /** The effort a request's {@code model} and {@code thinking_effort} name, or empty when the table does not know them. */
  public static Optional<Effort> effort(String model, String thinkingEffort) {
    if (model == null) {
      return Optional.empty();
    }
    Matcher m = MODEL.matcher(model.toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      return Optional.empty();
    }
    String variant = m.group(1);
    if (variant == null) {
      return thinkingEffort == null ? Optional.of(Effort.INSTANT) : Optional.empty();
    }
    if (variant.equals("pro")) {
      return thinkingEffort == null ? Optional.of(Effort.PRO) : Optional.empty();
    }
    return thinkingEffort == null ? Optional.empty()
        : Optional.ofNullable(THINKING.get(thinkingEffort.toLowerCase(Locale.ROOT)));
  }

  /** The effort {@code request} names, or empty (see {@link #effort(String, String)}). */
  public static Optional<Effort> effort(ObservedRequest request) {
    return effort(request.model(), request.thinkingEffort());
  }

  /**
   * Whether the model that answered is below the tier the effort asks for. ChatGPT's slugs drift,
   * so only unmistakable signs count: a mini/nano model, an instant model for a thinking effort,
   * a non-pro model for Pro. An absent slug is unknown, never a guess.
   */
  public static boolean isDowngrade(Effort effort, String slug) {
    if (slug == null || slug.isBlank()) {
      return false;
    }
    String s = slug.toLowerCase(Locale.ROOT);
    if (s.contains("mini") || s.contains("nano")) {
      return true;
    }
    if (effort == Effort.PRO) {
      return !s.contains("pro");
    }
    return effort != Effort.INSTANT && s.contains("instant");
  }
}

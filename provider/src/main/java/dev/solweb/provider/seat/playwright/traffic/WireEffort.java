package dev.solweb.provider.seat.playwright.traffic;

import dev.solweb.provider.model.Effort;
import java.util.List;
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
 * A slug of that shape keeps the table exactly. A slug spelled another way (the November launch,
 * REAL-PAGE rows 61, 62: {@code gpt-6-2-sol-thinking}, {@code sol-6.2}, ...) is never refused for
 * its spelling: its {@code thinking_effort} names the effort, and with none its variant does (a
 * {@code pro} word is Pro, anything else Instant). Which MODEL it is, is the model proof's question
 * ({@code ModelProof}), not this table's. Still unknown, refused by name: a {@code thinking_effort}
 * outside the three, a thinking effort on a slug marked instant or pro, a slug with no version
 * digit ({@code auto}), a mini/nano slug, Work's models ({@code -wm}, row 25), no model.
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
    String slug = model.toLowerCase(Locale.ROOT);
    Matcher m = MODEL.matcher(slug);
    if (!m.matches()) {
      return anySpelling(slug, thinkingEffort);
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

  /** A slug outside row 25's shape: its thinking_effort, else its variant word (see the class comment). */
  private static Optional<Effort> anySpelling(String slug, String thinkingEffort) {
    List<String> words = List.of(slug.split("[^a-z0-9.]+"));
    if (!slug.matches(".*\\d.*") || words.contains("wm") || words.contains("mini") || words.contains("nano")) {
      return Optional.empty();
    }
    boolean pro = words.contains("pro");
    boolean instant = words.contains("instant");
    if (thinkingEffort != null) {
      return pro || instant ? Optional.empty() : Optional.ofNullable(THINKING.get(thinkingEffort.toLowerCase(Locale.ROOT)));
    }
    if (words.contains("thinking") || words.contains("reasoning")) {
      return Optional.empty(); // a thinking model that names no effort
    }
    return Optional.of(pro ? Effort.PRO : Effort.INSTANT);
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

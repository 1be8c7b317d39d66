package dev.solweb.provider.seat.playwright.traffic;

import dev.solweb.provider.model.Effort;
import java.util.Locale;

/**
 * What the page's traffic says about effort: the model slugs and efforts its requests and
 * answers name, against the {@link Effort} ladder.
 */
public final class WireEffort {

  private WireEffort() {}

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

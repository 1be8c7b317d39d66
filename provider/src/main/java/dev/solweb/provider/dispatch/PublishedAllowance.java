package dev.solweb.provider.dispatch;

import java.util.List;
import java.util.Locale;

/**
 * The allowances OpenAI's help pages published for each plan, as secondary pages quoted them in
 * 2026 (../shared/REAL-PAGE.md row 54). Published, not measured: caps "can be dynamic", and there
 * are no public numbers for the newest models. The Limits panel shows them beside what solweb
 * sent, never as what is left.
 */
public final class PublishedAllowance {
  public static final String SOURCE = "published (OpenAI help pages as quoted in 2026, REAL-PAGE row 54), not measured;"
      + " caps can be dynamic";

  /** One published line: {@code messages} per {@code window} of {@code what}; messages null where only a ratio is published. */
  public record Line(String what, Integer messages, String window, String note) {}

  private PublishedAllowance() {}

  /** The lines for {@code plan} ({@code account.planType}); empty for an unknown or absent plan. */
  public static List<Line> of(String plan) {
    if (plan == null) {
      return List.of();
    }
    return switch (plan.toLowerCase(Locale.ROOT)) {
      case "free" -> List.of(new Line("messages", 10, "5h", null));
      case "plus", "go" -> List.of(new Line("main model", 160, "3h", "windows roll from the first message"),
          new Line("Thinking, chosen by hand", 3000, "7d", null));
      case "prolite" -> List.of(new Line("all models", null, null, "about 5x Plus (the $100 tier)"));
      case "pro" -> List.of(new Line("all models", null, null, "about 5x (the $100 tier) or 20x (the $200 tier) Plus"));
      default -> List.of();
    };
  }
}

package dev.solweb.provider.dispatch;

import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.model.Effort;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The owner's own ceiling on Sends ({@code SOLWEBD_BUDGET}, e.g. {@code high=120/3h,pro=20/7d}):
 * at most {@code limit} Sends of an effort in any rolling {@code window}. A turn over it is
 * refused before anything is typed, {@code capped} with {@code resume_at} when the oldest Send
 * in the window leaves it. It counts what solweb sent ({@link SendLedger}); the page's own
 * counters are another matter (docs/account-safety.md).
 */
public record SendBudget(List<Rule> rules) {
  public static final String ENV = "SOLWEBD_BUDGET";
  public static final SendBudget NONE = new SendBudget(List.of());
  private static final Pattern RULE = Pattern.compile("([a-z]+)=(\\d+)/(\\d+)(m|h|d)");

  /** At most {@code limit} Sends of {@code effort} in any {@code window}. */
  public record Rule(Effort effort, int limit, Duration window) {
    /** As the owner wrote it: {@code high=120/3h}. */
    public String spec() {
      long minutes = window.toMinutes();
      String w = minutes % (24 * 60) == 0 ? minutes / (24 * 60) + "d" : minutes % 60 == 0 ? minutes / 60 + "h" : minutes + "m";
      return effort.suffix() + "=" + limit + "/" + w;
    }
  }

  public SendBudget {
    rules = List.copyOf(rules);
  }

  /**
   * Parses {@code effort=N/<window>} entries separated by commas; the window is whole minutes
   * ({@code m}), hours ({@code h}) or days ({@code d}). Blank is no budget.
   *
   * @throws IllegalArgumentException naming the bad entry and the expected form
   */
  public static SendBudget parse(String spec) {
    if (spec == null || spec.isBlank()) {
      return NONE;
    }
    List<Rule> rules = new ArrayList<>();
    for (String part : spec.split(",")) {
      String entry = part.strip();
      Matcher m = RULE.matcher(entry);
      if (!m.matches()) {
        throw new IllegalArgumentException(ENV + ": \"" + entry + "\" is not effort=N/window (e.g. high=120/3h,pro=20/7d;"
            + " effort one of instant, medium, high, xhigh, pro; window in m, h or d)");
      }
      Effort effort = Effort.fromSuffix(m.group(1)).orElseThrow(() -> new IllegalArgumentException(ENV + ": \"" + entry
          + "\" names no effort; use instant, medium, high, xhigh or pro"));
      int limit;
      long amount;
      try {
        limit = Integer.parseInt(m.group(2));
        amount = Long.parseLong(m.group(3));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(ENV + ": \"" + entry + "\" has a number too large");
      }
      if (limit < 1 || amount < 1) {
        throw new IllegalArgumentException(ENV + ": \"" + entry + "\" must allow at least 1 Send in a window of at least 1");
      }
      Duration window = switch (m.group(4)) {
        case "m" -> Duration.ofMinutes(amount);
        case "h" -> Duration.ofHours(amount);
        default -> Duration.ofDays(amount);
      };
      if (rules.stream().anyMatch(r -> r.effort() == effort && r.window().equals(window))) {
        throw new IllegalArgumentException(ENV + ": \"" + entry + "\" repeats a window already set for " + effort.suffix());
      }
      rules.add(new Rule(effort, limit, window));
    }
    return new SendBudget(rules);
  }

  /** The longest window a rule counts over (zero without rules). */
  public Duration longestWindow() {
    return rules.stream().map(Rule::window).max(Duration::compareTo).orElse(Duration.ZERO);
  }

  /**
   * Why one more Send of {@code effort} at {@code now} is over the budget, given the Sends
   * recorded and {@code pending} more already on their way: {@code capped} until enough of the
   * window's Sends leave it; empty when it fits.
   */
  public Optional<ProviderFailure> refusal(Effort effort, SendLedger ledger, int pending, Instant now) {
    for (Rule rule : rules) {
      if (rule.effort() != effort) {
        continue;
      }
      List<Instant> inWindow = ledger.times(effort, now.minus(rule.window()));
      int used = inWindow.size() + pending;
      if (used < rule.limit()) {
        continue;
      }
      // One more fits once used - limit + 1 of the recorded Sends have left the window.
      int leave = Math.min(inWindow.size() - 1, used - rule.limit());
      Instant resume = leave < 0 ? now.plus(rule.window()) : inWindow.get(leave).plus(rule.window());
      return Optional.of(ProviderFailure.capped("the owner's budget " + rule.spec() + " (" + ENV + ") is used: "
          + used + " Sends of " + effort.suffix() + " in the last " + rule.spec().substring(rule.spec().indexOf('/') + 1)
          + "; nothing was typed", resume, now));
    }
    return Optional.empty();
  }
}

package dev.solweb.provider.dispatch;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.seat.PageCounters;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The {@code limits} object of {@code /healthz} (and the operator page's Limits panel): the
 * page's own counters exactly as read ({@code limits_progress}, {@code model_limits},
 * {@code blocked_features}, the plan), the Sends solweb made in the last 3 h and 7 days per
 * effort and model, the owner's budget and how much of it is used, the Send gap, and the
 * allowance published for the plan, marked as published.
 */
public final class LimitsReport {
  /** The windows the Sends are counted over, as the page's own caps roll (row 54). */
  static final Map<String, Duration> WINDOWS = Map.of("3h", Duration.ofHours(3), "7d", Duration.ofDays(7));

  private LimitsReport() {}

  public static void toJson(AccountPacing pacing, Instant now, ObjectNode into) {
    PageCounters read = pacing.counters().orElse(null);
    into.put("plan", read == null ? null : read.plan());
    into.put("read_at", read == null ? null : read.readAt().toString());
    counters(into.putArray("limits_progress"), read == null ? List.of() : read.limitsProgress(), "feature_name");
    counters(into.putArray("model_limits"), read == null ? List.of() : read.modelLimits(), "model_slug");
    ArrayNode blocked = into.putArray("blocked_features");
    if (read != null) {
      read.blockedFeatures().forEach(blocked::add);
    }
    into.put("default_model_slug", read == null ? null : read.defaultModelSlug());
    ObjectNode sends = into.putObject("sends");
    for (String window : List.of("3h", "7d")) {
      ObjectNode byEffort = sends.putObject(window);
      pacing.ledger().counts(now.minus(WINDOWS.get(window))).forEach((effort, models) -> {
        ObjectNode m = byEffort.putObject(effort);
        models.forEach(m::put);
      });
    }
    ArrayNode budget = into.putArray("budget");
    for (SendBudget.Rule rule : pacing.budget().rules()) {
      budget.addObject().put("rule", rule.spec()).put("effort", rule.effort().suffix()).put("limit", rule.limit())
          .put("window_s", rule.window().toSeconds())
          .put("used", pacing.ledger().times(rule.effort(), now.minus(rule.window())).size());
    }
    into.put("send_gap_ms", pacing.gate().gap().toMillis());
    ObjectNode published = into.putObject("published");
    published.put("source", PublishedAllowance.SOURCE);
    ArrayNode lines = published.putArray("allowances");
    for (PublishedAllowance.Line line : PublishedAllowance.of(read == null ? null : read.plan())) {
      lines.addObject().put("what", line.what()).put("messages", line.messages()).put("window", line.window())
          .put("note", line.note());
    }
  }

  private static void counters(ArrayNode into, List<PageCounters.Counter> counters, String nameField) {
    for (PageCounters.Counter c : counters) {
      into.addObject().put(nameField, c.name()).put("remaining", c.remaining()).put("reset_after", c.resetAfter());
    }
  }
}

package dev.solweb.provider.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.model.Effort;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The owner's budget ({@code SOLWEBD_BUDGET}) over the record of Sends ({@link SendLedger}). */
class SendBudgetTest {
  private static final Instant T0 = Instant.parse("2026-12-04T12:00:00Z");

  @Test
  void parsesEffortsAndWindows() {
    SendBudget budget = SendBudget.parse("high=120/3h, pro=20/7d,instant=5/30m");
    assertThat(budget.rules()).containsExactly(
        new SendBudget.Rule(Effort.HIGH, 120, Duration.ofHours(3)),
        new SendBudget.Rule(Effort.PRO, 20, Duration.ofDays(7)),
        new SendBudget.Rule(Effort.INSTANT, 5, Duration.ofMinutes(30)));
    assertThat(budget.rules()).extracting(SendBudget.Rule::spec).containsExactly("high=120/3h", "pro=20/7d", "instant=5/30m");
    assertThat(budget.longestWindow()).isEqualTo(Duration.ofDays(7));
    assertThat(SendBudget.parse("  ")).isEqualTo(SendBudget.NONE);
  }

  @Test
  void badSyntaxNamesTheEntryAndTheForm() {
    assertThatThrownBy(() -> SendBudget.parse("high=120/3h,pro:20/7d"))
        .hasMessageContaining("SOLWEBD_BUDGET: \"pro:20/7d\" is not effort=N/window");
    assertThatThrownBy(() -> SendBudget.parse("turbo=1/1h")).hasMessageContaining("\"turbo=1/1h\" names no effort");
    assertThatThrownBy(() -> SendBudget.parse("high=0/1h")).hasMessageContaining("at least 1 Send");
    assertThatThrownBy(() -> SendBudget.parse("high=3/1w")).hasMessageContaining("window in m, h or d");
    assertThatThrownBy(() -> SendBudget.parse("high=3/3h,high=4/3h")).hasMessageContaining("repeats a window");
  }

  @Test
  void theSendOverTheBudgetIsCappedUntilTheOldestSendOfTheWindowLeavesIt() {
    SendLedger ledger = SendLedger.inMemory();
    SendBudget budget = SendBudget.parse("high=2/3h");
    ledger.record(T0, Effort.HIGH, "gpt-5-thinking");
    ledger.record(T0.plusSeconds(600), Effort.HIGH, "gpt-5-thinking");
    ledger.record(T0.plusSeconds(700), Effort.PRO, "gpt-5-pro");
    Instant now = T0.plusSeconds(3600);

    ProviderFailure refused = budget.refusal(Effort.HIGH, ledger, 0, now).orElseThrow();
    assertThat(refused.kind()).isEqualTo(ProviderFailure.Kind.CAPPED);
    assertThat(refused.resumeAt()).isEqualTo(T0.plus(Duration.ofHours(3)).toString());
    assertThat(refused.retryAfterSeconds()).isEqualTo(2 * 3600L);
    assertThat(refused.detail()).contains("high=2/3h").contains("2 Sends of high").contains("nothing was typed");
    assertThat(budget.refusal(Effort.PRO, ledger, 0, now)).as("another effort is not touched").isEmpty();
    assertThat(budget.refusal(Effort.HIGH, ledger, 0, T0.plus(Duration.ofHours(3)))).as("the oldest left").isEmpty();
    assertThat(SendBudget.parse("high=3/3h").refusal(Effort.HIGH, ledger, 1, now).orElseThrow().resumeAt())
        .as("a turn already on a seat counts").isEqualTo(T0.plus(Duration.ofHours(3)).toString());
  }

  @Test
  void theDurableRecordSurvivesARestartKeepsNoTextAndDropsWhatLeftTheWindow(@TempDir Path home) throws Exception {
    Path file = home.resolve(SendLedger.FILE);
    SendLedger first = SendLedger.durable(file, Duration.ZERO, T0);
    first.record(T0, Effort.HIGH, "gpt-5-thinking");
    first.record(T0.plus(Duration.ofDays(6)), Effort.PRO, null);
    assertThat(Files.getPosixFilePermissions(file)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
    assertThat(Files.readString(file)).isEqualTo("2026-12-04T12:00:00Z high gpt-5-thinking\n2026-12-10T12:00:00Z pro -\n");

    SendLedger again = SendLedger.durable(file, Duration.ZERO, T0.plus(Duration.ofDays(8)));
    assertThat(again.counts(Instant.EPOCH)).isEqualTo(java.util.Map.of("pro", java.util.Map.of("unknown", 1)));
    assertThat(Files.readString(file)).isEqualTo("2026-12-10T12:00:00Z pro -\n");
  }
}

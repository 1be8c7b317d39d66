package dev.solweb.provider.seat.playwright.page;

import static org.assertj.core.api.Assertions.assertThat;

import dev.solweb.provider.model.Effort;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Effort rows read by their place on the ladder, and every menu where the place must not decide. */
class LadderRunTest {

  private static List<LadderRun.Row> run(int run, String... labels) {
    List<LadderRun.Row> rows = new ArrayList<>();
    for (String label : labels) {
      rows.add(new LadderRun.Row(label, run));
    }
    return rows;
  }

  @Test
  void fiveRowsInAnUnknownLanguageWithProOnTheLastRungAreTheLadder() {
    assertThat(LadderRun.find(run(0, "Instantané", "Moyen", "Élevé", "Très élevé", "Pro"))).contains(Map.of(
        0, Effort.INSTANT, 1, Effort.MEDIUM, 2, Effort.HIGH, 3, Effort.XHIGH, 4, Effort.PRO));
  }

  @Test
  void rowFortiesFlatMenuFindsTheTiersAfterTheModels() {
    List<LadderRun.Row> rows = run(0, "GPT-5.6 Sol", "GPT-5.5", "GPT-5.4", "o3", "Instant", "Mittel", "Hoch", "Extra hoch", "Pro");
    assertThat(LadderRun.find(rows)).hasValueSatisfying(found -> {
      assertThat(found).hasSize(5).containsEntry(4, Effort.INSTANT).containsEntry(6, Effort.HIGH).containsEntry(8, Effort.PRO);
      assertThat(found).doesNotContainKeys(0, 1, 2, 3);
    });
  }

  @Test
  void aReadableWordOnTheWrongRungRefusesTheWindow() {
    // "High" where Medium's rung is: the page is not the ladder this reading assumes.
    assertThat(LadderRun.find(run(0, "Instant", "High", "Hoch", "Extra hoch", "Pro"))).isEmpty();
  }

  @Test
  void rowsSplitBySeparatorsAreNotOneLadder() {
    // slider3's menu: four model radios, a separator and the slider's menuitem, then Pro on its own.
    List<LadderRun.Row> rows = new ArrayList<>(run(0, "GPT-5.6 Sol", "GPT-5.5", "GPT-5.4", "o3"));
    rows.add(new LadderRun.Row("Pro", 1));
    assertThat(LadderRun.find(rows)).isEmpty();
  }

  @Test
  void noReadableWordAtAllIsNoLadder() {
    assertThat(LadderRun.find(run(0, "즉시", "중간", "높음", "매우 높음", "프로"))).isEmpty();
  }

  @Test
  void everyRowReadableLeavesTheDecisionToTheWords() {
    assertThat(LadderRun.find(run(0, "Instant", "Medium", "High", "Extra High", "Pro"))).isEmpty();
  }

  @Test
  void anEffortWordOutsideTheWindowRefusesIt() {
    assertThat(LadderRun.find(run(0, "Instant", "Mittel", "Hoch", "Extra hoch", "Pro", "Medium"))).isEmpty();
  }

  @Test
  void oneReadableWordFixesWhereTheLadderStarts() {
    assertThat(LadderRun.find(run(0, "a", "b", "Instant", "c", "d", "e", "f"))).hasValueSatisfying(
        found -> assertThat(found).containsOnlyKeys(2, 3, 4, 5, 6).containsEntry(2, Effort.INSTANT).containsEntry(6, Effort.PRO));
    // Too few rows after the anchor for a ladder: no window.
    assertThat(LadderRun.find(run(0, "a", "b", "c", "Instant", "d", "e", "f"))).isEmpty();
    // Two "Pro" rows: each window leaves one outside.
    assertThat(LadderRun.find(run(0, "a", "b", "c", "d", "Pro", "e", "f", "g", "h", "Pro"))).isEmpty();
  }
}

package dev.solweb.provider.seat.playwright.page;

import static org.assertj.core.api.Assertions.assertThat;

import dev.solweb.provider.model.Effort;
import dev.solweb.provider.seat.playwright.PlaywrightOptions;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The model rows read from their names, and the rule that picks one (REAL-PAGE rows 26, 59, 61, 62, 64). */
class ModelRowsTest {

  /** Rows as the menu shows them: name, whole text, checked first among them by {@code checked}. */
  private static List<ModelRows.Row> rows(String checked, String... namesAndTexts) {
    List<ModelRows.Row> out = new ArrayList<>();
    for (int i = 0; i < namesAndTexts.length; i += 2) {
      String name = namesAndTexts[i];
      ModelRows.parse(i / 2, name, namesAndTexts[i + 1], true, name.equals(checked)).ifPresent(out::add);
    }
    return out;
  }

  private static final String NOTICE = "Retiring on Dec 15. Your chats will move to GPT-6.2 Sol.";

  /** model-families: three families, Latest and 6, Instant rows, a retiring 5.6 Sol. */
  private static List<ModelRows.Row> november() {
    return rows("6", "Latest", "Latest", "6", "6", "GPT-6.2 Sol", "GPT-6.2 Sol", "GPT-6.2 Sol Instant", "GPT-6.2 Sol Instant",
        "GPT-6.2 Astra", "GPT-6.2 Astra", "GPT-6.2 Astra Instant", "GPT-6.2 Astra Instant",
        "GPT-5.6 Sol", "GPT-5.6 Sol" + NOTICE);
  }

  @Test
  void aRowNameGivesVersionFamilyAndVariantAndANoticeMarksItRetiring() {
    ModelRows.Row sol = ModelRows.parse(0, "GPT-6.2 Sol Instant", "GPT-6.2 Sol Instant", true, false).orElseThrow();
    assertThat(sol.version()).isEqualTo("6.2");
    assertThat(sol.family()).isEqualTo("Sol");
    assertThat(sol.instant()).isTrue();
    assertThat(sol.retiring()).isFalse();
    ModelRows.Row bare = ModelRows.parse(1, "6", "6", true, true).orElseThrow();
    assertThat(bare.hasFamily()).isFalse();
    assertThat(bare.version()).isEqualTo("6");
    assertThat(ModelRows.parse(2, "GPT-5.6 Sol", "GPT-5.6 Sol" + NOTICE, true, false).orElseThrow().retiring()).isTrue();
    assertThat(ModelRows.parse(3, "Latest", "Latest", true, false)).as("Latest names no model").isEmpty();
    assertThat(ModelRows.parse(4, "o3", "o3", true, false)).isEmpty();
  }

  @Test
  void theNewestSolThatIsNotRetiringRunsEveryThinkingEffortAndItsInstantRowRunsInstant() {
    for (Effort e : List.of(Effort.MEDIUM, Effort.HIGH, Effort.XHIGH, Effort.PRO)) {
      ModelRows.Choice c = ModelRows.pick(november(), ModelRows.Wanted.SOL, e).orElseThrow();
      assertThat(c.row().name()).as(e.label()).isEqualTo("GPT-6.2 Sol");
      assertThat(c.kept()).isFalse();
    }
    assertThat(ModelRows.pick(november(), ModelRows.Wanted.SOL, Effort.INSTANT).orElseThrow().row().name())
        .isEqualTo("GPT-6.2 Sol Instant");
  }

  @Test
  void octobersBareCheckedRowIsKeptAndSaysSo() {
    List<ModelRows.Row> october = rows("GPT-6", "GPT-6", "GPT-6", "GPT-5.6 Sol", "GPT-5.6 Sol",
        "GPT-5.5", "GPT-5.5Available until Oct 14");
    ModelRows.Choice c = ModelRows.pick(october, ModelRows.Wanted.SOL, Effort.HIGH).orElseThrow();
    assertThat(c.kept()).isTrue();
    assertThat(c.row().name()).isEqualTo("GPT-6");
    assertThat(c.why()).contains("GPT-6", "kept");
    List<ModelRows.Row> noFamily = rows("GPT-6", "GPT-6", "GPT-6", "GPT-5.5", "GPT-5.5");
    assertThat(ModelRows.pick(noFamily, ModelRows.Wanted.SOL, Effort.HIGH).orElseThrow().kept()).isTrue();
    assertThat(ModelRows.pick(List.of(), ModelRows.Wanted.SOL, Effort.HIGH).orElseThrow().why()).contains("no model rows");
  }

  @Test
  void anotherFamilyOrOneRowBySolwebdModel() {
    assertThat(ModelRows.pick(november(), ModelRows.Wanted.parse("Astra"), Effort.HIGH).orElseThrow().row().name())
        .isEqualTo("GPT-6.2 Astra");
    assertThat(ModelRows.pick(november(), ModelRows.Wanted.parse("gpt-5.6 sol"), Effort.HIGH).orElseThrow().row().name())
        .isEqualTo("GPT-5.6 Sol");
    assertThat(ModelRows.Wanted.parse(" ")).isEqualTo(ModelRows.Wanted.SOL);
  }

  @Test
  void theSeatsOptionsCarryTheSettingToThePick() {
    PlaywrightOptions base = new PlaywrightOptions(null, true, null, null, Path.of("/tmp/solweb-options-test"));
    assertThat(base.model()).as("no setting: the newest Sol").isNull();
    assertThat(ModelRows.pick(november(), ModelRows.Wanted.parse(base.model()), Effort.HIGH).orElseThrow().row().name())
        .isEqualTo("GPT-6.2 Sol");
    PlaywrightOptions astra = base.withModel(" Astra ").withHeadless(false).withChatUrl(URI.create("http://127.0.0.1:9/"));
    assertThat(astra.model()).as("kept through every other change").isEqualTo("Astra");
    assertThat(ModelRows.pick(november(), ModelRows.Wanted.parse(astra.model()), Effort.HIGH).orElseThrow().row().name())
        .isEqualTo("GPT-6.2 Astra");
    assertThat(base.withModel("  ").model()).isNull();
  }

  @Test
  void noRowOfTheFamilyIsNothingToPick() {
    assertThat(ModelRows.pick(november(), ModelRows.Wanted.parse("Terra"), Effort.HIGH)).isEmpty();
    List<ModelRows.Row> retiringOnly = rows("GPT-6.2 Astra", "GPT-6.2 Astra", "GPT-6.2 Astra",
        "GPT-5.6 Sol", "GPT-5.6 Sol" + NOTICE);
    assertThat(ModelRows.pick(retiringOnly, ModelRows.Wanted.SOL, Effort.HIGH)).as("only a retiring Sol").isEmpty();
    assertThat(ModelRows.pick(november(), ModelRows.Wanted.parse("GPT-7 Sol"), Effort.HIGH)).isEmpty();
  }

  @Test
  void versionsCompareNumberByNumber() {
    assertThat(ModelRows.compareVersions("6.2", "6")).isPositive();
    assertThat(ModelRows.compareVersions("6.10", "6.2")).isPositive();
    assertThat(ModelRows.compareVersions("5.6", "6")).isNegative();
    assertThat(ModelRows.compareVersions("6", "6.0")).isZero();
  }
}

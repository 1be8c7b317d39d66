package dev.solweb.provider.seat.playwright;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.solweb.provider.seat.playwright.PageReport.Banner;
import dev.solweb.provider.seat.playwright.PageReport.Check;
import dev.solweb.provider.seat.playwright.PageReport.EffortOption;
import dev.solweb.provider.seat.playwright.PageReport.LastReply;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The doctor report without a browser: its JSON contract, its state word and its checks. */
class PageReportTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<EffortOption> FIVE = List.of(new EffortOption("Instant", "instant", false),
      new EffortOption("Medium", "medium", true), new EffortOption("High", "high", false),
      new EffortOption("Extra High", "xhigh", false), new EffortOption("Pro", "pro", false));
  private static final LastReply REPLY = new LastReply("m-2", "gpt-5-thinking", true,
      "Here:\n\n```json\n{\"a\": 1}\n```", List.of("{\"a\": 1}"), "copy");

  private static PageInspector.Observed ready() {
    return new PageInspector.Observed("https://chat.invalid/c/abc-12345678", true, false, false, true,
        true, true, true, false, false, false, 2, REPLY, List.of("{\"a\": 1}"), "Medium", true, true, "menu", FIVE,
        "2026-07", List.of());
  }

  private static Map<String, Check> byName(PageReport report) {
    return report.checks().stream().collect(java.util.stream.Collectors.toMap(Check::name, c -> c));
  }

  @Test
  void aReadyPagePassesEveryCheck() {
    PageReport report = PageInspector.report(ready());

    assertThat(report.state()).isEqualTo("ready");
    assertThat(report.checks()).allSatisfy(c -> assertThat(c.ok()).as(c.name() + ": " + c.detail()).isTrue());
    assertThat(report.checks()).extracting(Check::name).containsExactly("page", "challenge", "signed_in", "composer",
        "send_button", "idle", "banners", "effort_pill", "effort_menu", "dom_variant", "last_reply", "code_blocks");
    assertThat(report.ok()).isTrue();
    assertThat(report.effort().effort()).isEqualTo("medium");
  }

  @Test
  void theJsonNamesItsFieldsAsDocumentedAndReadsBack() throws Exception {
    PageReport report = PageInspector.report(ready());

    JsonNode json = JSON.readTree(report.toJson());

    assertThat(json.fieldNames()).toIterable().containsExactly("ok", "url", "state", "signed_in", "dom_variant",
        "composer", "send", "stop", "turns", "last_reply", "effort", "banners", "checks");
    assertThat(json.path("composer").fieldNames()).toIterable().containsExactly("found", "editable");
    assertThat(json.path("send").fieldNames()).toIterable().containsExactly("found", "enabled");
    assertThat(json.path("stop").fieldNames()).toIterable().containsExactly("found");
    assertThat(json.path("last_reply").fieldNames()).toIterable()
        .containsExactly("message_id", "model_slug", "complete", "markdown", "code_blocks", "source");
    assertThat(json.path("effort").fieldNames()).toIterable().containsExactly("label", "effort", "picker", "options");
    assertThat(json.path("effort").path("options").get(1).toString())
        .isEqualTo("{\"label\":\"Medium\",\"effort\":\"medium\",\"checked\":true}");
    assertThat(json.path("checks").get(0).fieldNames()).toIterable().containsExactly("name", "ok", "detail");
    assertThat(PageReport.fromJson(report.toJson())).isEqualTo(report);
  }

  @Test
  void noReplyIsAnExplicitNull() throws Exception {
    PageInspector.Observed o = ready();
    PageReport report = PageInspector.report(new PageInspector.Observed(o.url(), true, false, false, true, true, true,
        true, false, false, false, 0, null, null, "Medium", false, false, "unknown", List.of(), "2026-07", List.of()));

    JsonNode json = JSON.readTree(report.toJson());

    assertThat(json.has("last_reply")).isTrue();
    assertThat(json.get("last_reply").isNull()).isTrue();
    assertThat(report.checks()).extracting(Check::name).doesNotContain("last_reply", "code_blocks", "effort_menu");
    assertThat(report.ok()).isTrue();
  }

  @Test
  void aLoginWallIsLoggedOutAndFailsSignedIn() {
    PageReport report = PageInspector.report(new PageInspector.Observed("https://chat.invalid/", true, false, true, null,
        false, false, true, false, false, false, 0, null, null, null, false, false, "unknown", List.of(), "unknown", List.of()));

    assertThat(report.state()).isEqualTo("logged_out");
    Map<String, Check> checks = byName(report);
    assertThat(checks.get("signed_in").ok()).isFalse();
    assertThat(checks.get("signed_in").detail()).isEqualTo("the login wall shows");
    assertThat(checks.get("composer").ok()).isFalse();
    assertThat(checks.get("effort_pill").detail()).startsWith("no effort pill");
    assertThat(report.ok()).isFalse();
  }

  @Test
  void aPillTheSeatCannotMapFailsAndNamesTheLabel() {
    PageInspector.Observed o = ready();
    PageReport report = PageInspector.report(new PageInspector.Observed(o.url(), true, false, false, true, true, true,
        true, false, false, false, 0, null, null, "Высокий", true, true, "menu",
        List.of(new EffortOption("Instant5.5", null, false), new EffortOption("Высокий", null, true)), "2026-07", List.of()));

    Map<String, Check> checks = byName(report);
    assertThat(checks.get("effort_pill").ok()).isFalse();
    assertThat(checks.get("effort_pill").detail()).isEqualTo("\"Высокий\" maps to no effort");
    assertThat(checks.get("effort_menu").ok()).isFalse();
    assertThat(checks.get("effort_menu").detail()).contains("0 of 2 rows", "\"Instant5.5\"", "\"Высокий\" (checked)");
    assertThat(report.effort().effort()).isNull();
  }

  @Test
  void codeBlocksReadTwiceFromTheDomFailAgainstCopy() {
    PageInspector.Observed o = ready();
    PageReport report = PageInspector.report(new PageInspector.Observed(o.url(), true, false, false, true, true, true,
        true, false, false, false, 2, REPLY, List.of("{\"a\": 1}", "{\"a\": 1}"), "Medium", false, false, "unknown", List.of(),
        "2026-07", List.of()));

    Check blocks = byName(report).get("code_blocks");
    assertThat(blocks.ok()).isFalse();
    assertThat(blocks.detail()).isEqualTo("Copy gives 1 block(s), the DOM 2");
  }

  @Test
  void stateNamesTheMostBlockingThingFirst() {
    PageInspector.Observed o = ready();
    List<Banner> cap = List.of(new Banner("You've reached our limit of messages per 3 hours.", "cap", null));
    PageReport capped = PageInspector.report(new PageInspector.Observed(o.url(), true, false, false, true, true, true,
        true, false, false, true, 2, null, null, "Medium", false, false, "unknown", List.of(), "2026-07", cap));
    PageReport busy = PageInspector.report(new PageInspector.Observed(o.url(), true, false, false, true, true, true,
        true, false, false, true, 2, null, null, "Medium", false, false, "unknown", List.of(), "2026-07", List.of()));
    PageReport challenged = PageInspector.report(new PageInspector.Observed(o.url(), true, true, true, null, false, false,
        true, false, false, false, 0, null, null, null, false, false, "unknown", List.of(), "unknown", cap));

    assertThat(capped.state()).isEqualTo("capped");
    assertThat(byName(capped).get("banners").detail()).startsWith("cap: You've reached our limit");
    assertThat(busy.state()).isEqualTo("busy");
    assertThat(byName(busy).get("idle").ok()).isFalse();
    assertThat(challenged.state()).isEqualTo("challenged");
  }

  @Test
  void aSendButtonIsOnlyRequiredOnceTheComposerHoldsText() {
    PageInspector.Observed o = ready();
    PageReport empty = PageInspector.report(new PageInspector.Observed(o.url(), true, false, false, true, true, true,
        true, false, false, false, 0, null, null, "Medium", false, false, "unknown", List.of(), "2026-07", List.of()));
    PageReport draft = PageInspector.report(new PageInspector.Observed(o.url(), true, false, false, true, true, true,
        false, false, false, false, 0, null, null, "Medium", false, false, "unknown", List.of(), "2026-07", List.of()));

    assertThat(byName(empty).get("send_button").ok()).isTrue();
    assertThat(byName(draft).get("send_button").ok()).isFalse();
  }

  @Test
  void aPillThatOpensNoMenuFailsTheMenuCheck() {
    PageInspector.Observed o = ready();
    PageReport report = PageInspector.report(new PageInspector.Observed(o.url(), true, false, false, true, true, true,
        true, false, false, false, 0, null, null, "Medium", true, false, "unknown", List.of(), "2026-07", List.of()));

    Check menu = byName(report).get("effort_menu");
    assertThat(menu.ok()).isFalse();
    assertThat(menu.detail()).startsWith("the pill opened no menu");
  }

  @Test
  void onlyKnownVariantsAndPickersAreAccepted() {
    assertThatThrownBy(() -> new PageReport.EffortReport("x", null, "dropdown", List.of()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("picker must be one of");
    assertThatThrownBy(() -> PageReport.fromJson("{\"dom_variant\": \"2025-01\", \"banners\": [], \"checks\": []}"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("dom_variant must be one of");
  }

  @Test
  void thePickerAndVariantComeFromTheMenuRowsFirst() {
    Map<String, Object> slider = Map.of("role", "slider");
    Map<String, Object> opener = Map.of("role", "menuitem", "opener", true, "effortAction", true);
    Map<String, Object> radio = Map.of("role", "menuitemradio");
    Map<String, Object> radioWithAction = Map.of("role", "menuitemradio", "effortAction", true);

    assertThat(PageInspector.picker(List.of(radio, slider))).isEqualTo("slider");
    assertThat(PageInspector.picker(List.of(opener, radio))).isEqualTo("advanced-submenu");
    assertThat(PageInspector.picker(List.of(radio))).isEqualTo("menu");
    assertThat(PageInspector.picker(List.of())).isEqualTo("unknown");
    assertThat(PageInspector.variant("slider", List.of(slider), true, false)).isEqualTo("2026-09");
    assertThat(PageInspector.variant("advanced-submenu", List.of(opener), false, true)).isEqualTo("2026-08");
    assertThat(PageInspector.variant("menu", List.of(radio), false, false)).isEqualTo("2026-07");
    assertThat(PageInspector.variant("menu", List.of(radioWithAction), true, false)).isEqualTo("2026-03");
    assertThat(PageInspector.variant("unknown", List.of(), false, false)).isEqualTo("unknown");
  }
}

package dev.solweb.provider.seat.playwright.inspect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.solweb.provider.seat.playwright.page.EffortPicker.PickerKind;
import dev.solweb.provider.seat.playwright.inspect.PageReport.Banner;
import dev.solweb.provider.seat.playwright.inspect.PageReport.Check;
import dev.solweb.provider.seat.playwright.inspect.PageReport.EffortOption;
import dev.solweb.provider.seat.playwright.inspect.PageReport.LastReply;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The doctor report without a browser: its JSON contract, its state word and its checks. */
class PageReportTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<EffortOption> FIVE = List.of(new EffortOption("Instant", "instant", false, false),
      new EffortOption("Medium", "medium", true, false), new EffortOption("High", "high", false, false),
      new EffortOption("Extra High", "xhigh", false, false), new EffortOption("Pro", "pro", false, false));
  private static final LastReply REPLY = new LastReply("m-2", "gpt-5-thinking", true,
      "Here:\n\n```json\n{\"a\": 1}\n```", List.of("{\"a\": 1}"), "copy", "author-role");

  /** What a ready page shows; each test changes the facts it is about. */
  private static final class Page {
    String url = "https://chat.invalid/c/abc-12345678";
    boolean onSite = true;
    boolean challenge;
    boolean loginWall;
    Boolean signedIn = true;
    boolean composerFound = true;
    boolean composerEditable = true;
    boolean composerEmpty = true;
    boolean sendFound;
    boolean sendEnabled;
    boolean stopFound;
    boolean working;
    int turns = 2;
    LastReply reply = REPLY;
    List<String> domBlocks = List.of("{\"a\": 1}");
    String pill = "Medium";
    boolean menuTried = true;
    boolean menuOpened = true;
    String menuProblem;
    String picker = "menu";
    String checkedEffort = "medium";
    String mode;
    PageInspector.Vias via = new PageInspector.Vias("id", null, null);
    List<EffortOption> options = FIVE;
    String variant = "2026-07";
    String closest = "2026-07";
    String pillAttribute;
    List<Banner> banners = List.of();

    PageReport report() {
      return PageInspector.report(new PageInspector.Observed(url, onSite, challenge, loginWall, signedIn, composerFound,
          composerEditable, composerEmpty, sendFound, sendEnabled, stopFound, working, via, turns, reply, domBlocks, pill,
          pillAttribute, checkedEffort, menuTried, menuOpened, menuProblem, picker, options, mode, variant, closest, banners));
    }

    Page noReply() {
      turns = 0;
      reply = null;
      domBlocks = null;
      return this;
    }

    Page menuNotOpened() {
      menuTried = false;
      menuOpened = false;
      picker = "unknown";
      options = List.of();
      return this;
    }
  }

  private static Map<String, Check> byName(PageReport report) {
    return report.checks().stream().collect(Collectors.toMap(Check::name, c -> c));
  }

  @Test
  void aReadyPagePassesEveryCheck() {
    PageReport report = new Page().report();

    assertThat(report.state()).isEqualTo("ready");
    assertThat(report.checks()).allSatisfy(c -> assertThat(c.ok()).as(c.name() + ": " + c.detail()).isTrue());
    assertThat(report.checks()).extracting(Check::name).containsExactly("page", "challenge", "signed_in", "composer",
        "send_button", "idle", "banners", "effort_pill", "effort_menu", "dom_variant", "last_reply", "code_blocks");
    assertThat(report.ok()).isTrue();
    assertThat(report.effort().effort()).isEqualTo("medium");
  }

  @Test
  void theJsonNamesItsFieldsAsDocumentedAndReadsBack() throws Exception {
    PageReport report = new Page().report();

    JsonNode json = JSON.readTree(report.toJson());

    assertThat(json.fieldNames()).toIterable().containsExactly("ok", "url", "state", "signed_in", "dom_variant",
        "composer", "send", "stop", "turns", "last_reply", "effort", "banners", "checks");
    assertThat(json.path("composer").fieldNames()).toIterable().containsExactly("found", "editable", "via");
    assertThat(json.path("send").fieldNames()).toIterable().containsExactly("found", "enabled", "via");
    assertThat(json.path("stop").fieldNames()).toIterable().containsExactly("found", "via");
    assertThat(json.path("last_reply").fieldNames()).toIterable()
        .containsExactly("message_id", "model_slug", "complete", "markdown", "code_blocks", "source", "via");
    assertThat(json.path("effort").fieldNames()).toIterable().containsExactly("label", "effort", "picker", "options", "mode");
    assertThat(json.path("effort").path("options").get(1).toString())
        .isEqualTo("{\"label\":\"Medium\",\"effort\":\"medium\",\"checked\":true,\"disabled\":false}");
    assertThat(json.path("checks").get(0).fieldNames()).toIterable().containsExactly("name", "ok", "detail");
    assertThat(PageReport.fromJson(report.toJson())).isEqualTo(report);
  }

  @Test
  void noReplyIsAnExplicitNull() throws Exception {
    PageReport report = new Page().noReply().menuNotOpened().report();

    JsonNode json = JSON.readTree(report.toJson());

    assertThat(json.has("last_reply")).isTrue();
    assertThat(json.get("last_reply").isNull()).isTrue();
    assertThat(report.checks()).extracting(Check::name).doesNotContain("last_reply", "code_blocks", "effort_menu");
    assertThat(report.ok()).isTrue();
  }

  @Test
  void aLoginWallIsLoggedOutAndFailsSignedIn() {
    Page page = new Page().noReply().menuNotOpened();
    page.loginWall = true;
    page.signedIn = null;
    page.composerFound = false;
    page.composerEditable = false;
    page.pill = null;
    page.variant = "unknown";

    PageReport report = page.report();

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
    Page page = new Page().noReply();
    page.pill = "Thinking effort";
    page.options = List.of(new EffortOption("Instant", "instant", false, false), new EffortOption("Sehr hoch", null, true, false));
    page.checkedEffort = null; // the checked row names no effort either

    PageReport report = page.report();

    Map<String, Check> checks = byName(report);
    assertThat(checks.get("effort_pill").ok()).isFalse();
    assertThat(checks.get("effort_pill").detail()).isEqualTo("\"Thinking effort\" maps to no effort");
    assertThat(checks.get("effort_menu").ok()).isTrue();
    assertThat(checks.get("effort_menu").detail()).contains("1 of 2 rows", "\"Sehr hoch\" (checked)");
    assertThat(report.effort().effort()).isNull();
  }

  @Test
  void russianLabelsMapThroughTheSeatsLadder() {
    Page page = new Page().noReply();
    page.pill = "Высокий";

    assertThat(page.report().effort().effort()).isEqualTo("high");
  }

  @Test
  void anEffortControlThatDoesNotOpenFailsTheMenuCheckWithTheReason() {
    Page page = new Page().noReply().menuNotOpened();
    page.menuTried = true;
    page.menuProblem = "the effort menu did not open";

    Check menu = byName(page.report()).get("effort_menu");

    assertThat(menu.ok()).isFalse();
    assertThat(menu.detail()).isEqualTo("the effort control did not open: the effort menu did not open");
  }

  @Test
  void codeBlocksReadTwiceFromTheDomFailAgainstCopy() {
    Page page = new Page();
    page.domBlocks = List.of("{\"a\": 1}", "{\"a\": 1}");

    Check blocks = byName(page.report()).get("code_blocks");

    assertThat(blocks.ok()).isFalse();
    assertThat(blocks.detail()).isEqualTo("Copy gives 1 block(s), the DOM 2");
  }

  @Test
  void stateNamesTheMostBlockingThingFirst() {
    Page capped = new Page().noReply();
    capped.banners = List.of(new Banner("You've reached our limit of messages per 3 hours.", "cap", null));
    capped.stopFound = true;
    Page busy = new Page().noReply();
    busy.working = true;
    Page feature = new Page().noReply();
    feature.banners = List.of(new Banner("Files, images, and data analysis are unavailable until 3:42 PM", "feature_cap", null));
    Page challenged = new Page().noReply();
    challenged.challenge = true;
    challenged.loginWall = true;

    assertThat(capped.report().state()).isEqualTo("capped");
    assertThat(byName(capped.report()).get("banners").detail()).startsWith("cap: You've reached our limit");
    assertThat(busy.report().state()).isEqualTo("busy");
    assertThat(byName(busy.report()).get("idle").detail()).startsWith("the page shows live work");
    assertThat(feature.report().state()).isEqualTo("ready");
    assertThat(byName(feature.report()).get("banners").ok()).isTrue();
    assertThat(byName(feature.report()).get("banners").detail()).endsWith("(a feature cap: asks with files fail)");
    assertThat(challenged.report().state()).isEqualTo("challenged");
  }

  @Test
  void aSendButtonIsOnlyRequiredOnceTheComposerHoldsText() {
    Page empty = new Page().noReply();
    Page draft = new Page().noReply();
    draft.composerEmpty = false;

    assertThat(byName(empty.report()).get("send_button").ok()).isTrue();
    assertThat(byName(draft.report()).get("send_button").ok()).isFalse();
  }

  @Test
  void onlyKnownVariantsAndPickersAreAccepted() {
    assertThatThrownBy(() -> new PageReport.EffortReport("x", null, "dropdown", List.of(), null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("picker must be one of");
    assertThatThrownBy(() -> PageReport.fromJson("{\"dom_variant\": \"2025-01\", \"banners\": [], \"checks\": []}"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("dom_variant must be one of");
    for (PickerKind kind : PickerKind.values()) {
      assertThat(PageReport.PICKERS).contains(kind.wire());
    }
  }

  @Test
  void theVariantComesFromOctobersMarksThenTheTurnKeyThreadThenThePickerThePillAndTheCodeBlocks() {
    PageInspector.Shapes none = new PageInspector.Shapes(false, false, false, false, false, false, false);
    assertThat(PageInspector.variant(PickerKind.SLIDER, shapes(true, false, false))).isEqualTo("2026-09");
    assertThat(PageInspector.variant(PickerKind.UNKNOWN, shapes(false, false, true))).isEqualTo("2026-09");
    assertThat(PageInspector.variant(PickerKind.ADVANCED_SUBMENU, shapes(false, true, false))).isEqualTo("2026-08");
    assertThat(PageInspector.variant(PickerKind.MENU, shapes(true, false, false))).isEqualTo("2026-03");
    assertThat(PageInspector.variant(PickerKind.MENU, none)).isEqualTo("2026-07");
    assertThat(PageInspector.variant(PickerKind.UNKNOWN, shapes(false, true, false))).isEqualTo("2026-07");
    assertThat(PageInspector.variant(PickerKind.UNKNOWN, none)).isEqualTo("unknown");
    // The turn-key thread (REAL-PAGE row 13) keeps September's slider; October shows itself by its renderer,
    // its wrapper, its id-less composer or its Power slider (rows 14, 15, 26).
    assertThat(PageInspector.variant(PickerKind.SLIDER, new PageInspector.Shapes(false, true, true, true, false, false, false)))
        .isEqualTo("2026-09-turnkey");
    assertThat(PageInspector.variant(PickerKind.UNKNOWN, new PageInspector.Shapes(false, false, false, true, true, false, false)))
        .isEqualTo("2026-10");
    assertThat(PageInspector.variant(PickerKind.UNKNOWN, new PageInspector.Shapes(false, false, false, true, false, true, false)))
        .isEqualTo("2026-10");
    assertThat(PageInspector.variant(PickerKind.UNKNOWN, new PageInspector.Shapes(false, false, false, false, false, false, true)))
        .isEqualTo("2026-10");
    assertThat(PageInspector.variant(PickerKind.POWER, none)).isEqualTo("2026-10");
  }

  private static PageInspector.Shapes shapes(boolean spanCode, boolean preCode, boolean toneOnlyPill) {
    return new PageInspector.Shapes(spanCode, preCode, toneOnlyPill, false, false, false, false);
  }

  @Test
  void aCheckedRowWithNoPillGivesTheEffortAndPassesThePillCheck() {
    Page page = new Page().noReply();
    page.pill = null;
    page.checkedEffort = "high";

    PageReport report = page.report();

    assertThat(report.effort().effort()).isEqualTo("high");
    assertThat(report.effort().label()).isNull();
    Check pill = byName(report).get("effort_pill");
    assertThat(pill.ok()).isTrue();
    assertThat(pill.detail()).isEqualTo("no effort pill; the open menu's checked row is high");
  }

  @Test
  void theJsonNamesWhichStrategyFoundEachControlAndTheReply() throws Exception {
    Page page = new Page();
    page.via = new PageInspector.Vias("label", "label", "testid");
    page.sendFound = true;
    page.stopFound = true;

    JsonNode json = JSON.readTree(page.report().toJson());

    assertThat(json.path("composer").toString()).isEqualTo("{\"found\":true,\"editable\":true,\"via\":\"label\"}");
    assertThat(json.path("send").path("via").asText()).isEqualTo("label");
    assertThat(json.path("stop").toString()).isEqualTo("{\"found\":true,\"via\":\"testid\"}");
    assertThat(json.path("last_reply").path("via").asText()).isEqualTo("author-role");
    assertThat(json.path("effort").path("options").get(0).toString())
        .isEqualTo("{\"label\":\"Instant\",\"effort\":\"instant\",\"checked\":false,\"disabled\":false}");
  }
}

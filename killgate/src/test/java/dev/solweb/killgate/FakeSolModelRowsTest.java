package dev.solweb.killgate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import dev.solweb.killgate.fakesol.FakeSol;
import dev.solweb.killgate.fakesol.PageMutations;
import dev.solweb.provider.platform.Json;
import dev.solweb.provider.scenario.Scenario;
import io.vertx.core.Vertx;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Timeout;

/**
 * fakesol's November model rows (REAL-PAGE.md rows 61, 62, 64: mutation {@code model-families}) and
 * the covered menu (row 65: {@code covered-menu}) on the October page, in headless Chromium with
 * Playwright's trusted input and no seat: each test asserts the page has the row's shape and that
 * {@code /control} names the model each turn request carried.
 */
@Timeout(120)
class FakeSolModelRowsTest {

  private static final String ANSWER = "{\"dom\": \"2026-10\", \"default\": [{\"prose\": \"Here it is.\"}]}";
  private static final String RADIO = "[role=menu] [role=menuitemradio]";
  @RegisterExtension
  static final FakeSolPages PAGES = new FakeSolPages();
  private FakeSol sol;
  private BrowserContext context;


  private Page open(long seed, String... mutations) {
    sol = PAGES.closeAfter(FakeSol.start(Vertx.vertx(), true, Scenario.parse(ANSWER), 0, Clock.systemUTC(),
        PageMutations.named(List.of(mutations), seed)));
    context = PAGES.newContext();
    Page page = context.newPage();
    page.navigate(sol.url().toString());
    page.locator("html[data-fakesol-loaded]").waitFor();
    return page;
  }

  private static Locator pill(Page page) {
    return page.locator("button[aria-label=\"Select ChatGPT model\"]");
  }

  private static void openMenu(Page page) {
    pill(page).click();
    page.locator(RADIO).first().waitFor();
  }

  /** The radio whose name (its first text) is exactly {@code name}. */
  private static Locator row(Page page, String name) {
    return page.locator(RADIO).filter(new Locator.FilterOptions().setHas(
        page.locator("span.truncate").getByText(name, new Locator.GetByTextOptions().setExact(true))));
  }

  private void send(Page page, String text) {
    int before = sol.sends().size();
    Locator editor = page.locator("form [contenteditable][role=textbox]");
    editor.click();
    page.keyboard().insertText(text);
    Locator send = page.locator("form button[type=\"submit\"]");
    page.waitForCondition(() -> send.count() > 0 && send.first().isEnabled());
    send.first().click();
    page.waitForCondition(() -> sol.sends().size() == before + 1, new Page.WaitForConditionOptions().setTimeout(20_000));
  }

  private JsonNode control() throws Exception {
    HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(sol.url().resolve("/control")).build(),
        HttpResponse.BodyHandlers.ofString());
    return Json.MAPPER.readTree(r.body());
  }

  private static JsonNode rowData(JsonNode control, String name) {
    for (JsonNode r : control.path("models")) {
      if (r.path("name").asText().equals(name)) {
        return r;
      }
    }
    throw new AssertionError("no model row " + name + " in " + control.path("models"));
  }

  @Test
  void row61ThreeFamiliesLatestAndSixAndTheHeaderRepeatsTheBareVersion() {
    Page page = open(7, "model-families");
    assertThat(pill(page).textContent()).isEqualTo("6 6 Medium");
    openMenu(page);
    List<String> names = page.locator(RADIO + " span.truncate").allTextContents();
    assertThat(names).contains("Latest", "6", "GPT-6.2 Sol", "GPT-6.2 Sol Instant", "GPT-6.2 Astra", "GPT-5.6 Sol");
    // Three families: Sol, Astra and the bare version "6" (no family word).
    Set<String> families = new HashSet<>();
    names.stream().filter(n -> n.matches("GPT-[0-9.]+ \\w+.*")).forEach(n -> families.add(n.split(" ")[1]));
    assertThat(families).containsExactlyInAnyOrder("Sol", "Astra");
    // Pro on "6": the header repeats the bare version and names the tier (row 61: "6 6 Pro").
    row(page, "Pro").click();
    page.waitForCondition(() -> "6 6 Pro".equals(pill(page).textContent()));
  }

  @Test
  void row56OnAPlusAccountGpt6OffersThreeTiersAndNoPro() throws Exception {
    Page page = open(7, "plus-account");
    assertThat(rowData(control(), "6").path("efforts").toString()).isEqualTo("[\"Instant\",\"Medium\",\"High\"]");
    openMenu(page);
    List<String> names = page.locator(RADIO + " span.truncate").allTextContents();
    assertThat(names).contains("6", "Instant", "Medium", "High").doesNotContain("Pro", "Extra High");
    row(page, "High").click();
    page.waitForCondition(() -> "6 6 High".equals(pill(page).textContent()));
    send(page, "three tiers");
    assertThat(control().path("turn_models").get(0).path("thinking_effort").asText()).isEqualTo("extended");
  }

  @Test
  void row62EachRowSendsItsOwnSlugAndTheInstantRowIsItsOwnChoice() throws Exception {
    Page page = open(7, "model-families");
    JsonNode rows = control().path("models");
    String sol62 = rowData(control(), "GPT-6.2 Sol").path("slug").asText();
    String instant = rowData(control(), "GPT-6.2 Sol Instant").path("slug").asText();
    assertThat(sol62).isNotBlank().doesNotMatch("gpt-\\d+(-\\d+)?(-thinking)?");
    assertThat(instant).isNotEqualTo(sol62);
    assertThat(rows.toString()).doesNotContain("Terra", "Luna");
    openMenu(page);
    row(page, "GPT-6.2 Sol").click();
    page.waitForCondition(() -> pill(page).textContent().startsWith("6.2 Sol "));
    openMenu(page);
    row(page, "High").click();
    page.waitForCondition(() -> "6.2 Sol High".equals(pill(page).textContent()));
    send(page, "one");
    openMenu(page);
    assertThat(page.locator(RADIO + " span.truncate").allTextContents()).doesNotContain("Instant");
    row(page, "GPT-6.2 Sol Instant").click();
    page.waitForCondition(() -> "6.2 Sol Instant".equals(pill(page).textContent()));
    openMenu(page);
    assertThat(page.locator("[role=menu] [role=separator]").count()).as("an Instant row shows no effort rows").isZero();
    page.keyboard().press("Escape");
    send(page, "two");
    JsonNode turns = control().path("turn_models");
    assertThat(turns).hasSize(2);
    assertThat(turns.get(0).path("model").asText()).isEqualTo(sol62);
    assertThat(turns.get(0).path("thinking_effort").asText()).isEqualTo("extended");
    assertThat(turns.get(0).path("row").asText()).isEqualTo("GPT-6.2 Sol");
    assertThat(turns.get(0).path("effort_label").asText()).isEqualTo("High");
    assertThat(turns.get(1).path("model").asText()).isEqualTo(instant);
    assertThat(turns.get(1).path("thinking_effort").isNull()).isTrue();
    assertThat(turns.get(1).path("effort_label").asText()).isEqualTo("Instant");
  }

  @Test
  void row62ExtraHighOnSolDependsOnTheAccountAndTheSlugSpellingOnTheSeed() throws Exception {
    Set<Boolean> xhigh = new HashSet<>();
    Set<String> spellings = new HashSet<>();
    for (long seed = 1; seed <= 12 && (xhigh.size() < 2 || spellings.size() < 2); seed++) {
      open(seed, "model-families");
      JsonNode sol62 = rowData(control(), "GPT-6.2 Sol");
      boolean has = false;
      for (JsonNode e : sol62.path("efforts")) {
        has |= e.asText().equals("Extra High");
      }
      xhigh.add(has);
      spellings.add(sol62.path("slug").asText()); // each seed's page is closed with the test's others
    }
    assertThat(xhigh).containsExactlyInAnyOrder(true, false);
    assertThat(spellings).hasSizeGreaterThan(1);
  }

  @Test
  void row64TheRetiringRowIsItsNamePlusALocalizedNotice() {
    Page page = open(7, "model-families");
    openMenu(page);
    Locator retiring = row(page, "GPT-5.6 Sol");
    assertThat(retiring.textContent()).startsWith("GPT-5.6 Sol").isNotEqualTo("GPT-5.6 Sol").contains("Retiring");
    assertThat(page.locator(RADIO).filter(new Locator.FilterOptions().setHasText("GPT-5.6 Sol")).count()).isEqualTo(1);
  }

  @Test
  void row65APopoverTakesThePointerAndTheKeyboardChoosesTheRow() throws Exception {
    Page page = open(7, "model-families", "covered-menu");
    openMenu(page);
    Locator target = row(page, "GPT-6.2 Astra");
    Boolean reached = (Boolean) target.evaluate("(r) => { const b = r.getBoundingClientRect();"
        + " const hit = document.elementFromPoint(b.x + b.width / 2, b.y + b.height / 2); return !!hit && r.contains(hit); }");
    assertThat(reached).as("the pointer at the row's centre lands on the popover").isFalse();
    target.focus();
    page.keyboard().press("Enter");
    page.waitForCondition(() -> pill(page).textContent().startsWith("6.2 Astra "));
    assertThat(control().path("model_row").asText()).isEqualTo("GPT-6.2 Astra");
    assertThat(page.locator("[data-fakesol-popover]").count()).as("the popover leaves with the menu").isZero();
  }

  @Test
  void aNovemberPageUnderAnotherPickerShowsNoModelRowsAndReportsNone() throws Exception {
    sol = PAGES.closeAfter(FakeSol.start(Vertx.vertx(), true, Scenario.parse(ANSWER.replace("2026-10", "2026-11")), 0,
        Clock.systemUTC(), PageMutations.named(List.of("picker-menu"), 3)));
    context = PAGES.newContext();
    Page page = context.newPage();
    page.navigate(sol.url().toString());
    page.locator("html[data-fakesol-loaded]").waitFor();
    assertThat(page.evaluate("() => FakesolModels.active()")).as("picker-menu shows no families").isEqualTo(false);
    assertThat(control().has("models")).as("so /control names no rows a turn must run on").isFalse();
  }
}

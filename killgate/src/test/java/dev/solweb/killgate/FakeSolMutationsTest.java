package dev.solweb.killgate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.ElementHandle;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import dev.solweb.killgate.fakesol.FakeSol;
import dev.solweb.killgate.fakesol.PageMutations;
import dev.solweb.provider.platform.Json;
import dev.solweb.provider.scenario.Scenario;
import io.vertx.core.Vertx;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * fakesol's page-mutation fuzzer in headless Chromium, with Playwright's trusted input and no seat:
 * every mutation in the catalogue is applied (its probe, a DOM question written beside it in
 * mutations/*.json, is true on the mutated page and false on its base page at every point of one
 * scripted visit), the seed alone decides the page, and combinations render and answer.
 */
@Timeout(180)
class FakeSolMutationsTest {

  private static final String SCENARIO = "{\"dom\": \"%s\", \"default\": [{\"prose\": \"Here it is.\","
      + " \"blocks\": [\"{\\\"tool\\\": \\\"write\\\"}\"]}, {\"prose\": \"Again.\"}, {\"prose\": \"More.\"}]}";
  @RegisterExtension
  static final FakeSolPages PAGES = new FakeSolPages();
  /** The base shapes' answers to their mutations' probes ({@link #baseAnswers}), by base shape. */
  private static final Map<String, Map<String, Boolean>> BASE_ANSWERS = new java.util.concurrent.ConcurrentHashMap<>();

  /** One mutation as its family file states it: its name, the DOM probe, the base shape it is tested on. */
  record Probed(String name, String probe, String base) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Probed> catalogue() throws Exception {
    List<Probed> out = new ArrayList<>();
    for (String family : List.of("rows", "language", "structure", "picker", "controls", "menus")) {
      try (InputStream in = FakeSol.class.getResourceAsStream("/fakesol/mutations/" + family + ".json")) {
        for (JsonNode m : Json.MAPPER.readTree(in).path("mutations")) {
          out.add(new Probed(m.path("name").asText(), m.path("probe").asText(), m.path("probeBase").asText("2026-10")));
        }
      }
    }
    assertThat(out.stream().map(Probed::name).toList()).containsExactlyElementsOf(PageMutations.catalogue().keySet());
    // -Dfakesol.mutations=a,b: only those (to re-run one family or one mutation quickly)
    List<String> only = List.of(System.getProperty("fakesol.mutations", "").split(","));
    return out.stream().filter(p -> only.equals(List.of("")) || only.contains(p.name()));
  }

  @ParameterizedTest
  @MethodSource("catalogue")
  void eachMutationIsAppliedToTheDomAndAbsentFromItsBase(Probed m) throws Exception {
    assertThat(m.probe()).as("every mutation states how to see it").isNotBlank();
    assertThat(visit(m.base(), PageMutations.named(List.of(m.name()), 11), m.probe(), true)).as("probe on the mutated page").isTrue();
    assertThat(baseAnswers(m.base()).get(m.probe())).as("probe on the base page " + m.base()).isFalse();
  }

  /**
   * Every probe of the catalogue that names {@code base}, answered on the unmutated base page: one
   * visit per base shape, shared by its mutations' tests (the visit is the same for each of them).
   */
  private Map<String, Boolean> baseAnswers(String base) throws Exception {
    Map<String, Boolean> known = BASE_ANSWERS.get(base);
    if (known == null) {
      List<String> probes = catalogue().filter(p -> p.base().equals(base)).map(Probed::probe).distinct().toList();
      known = visitAll(base, PageMutations.Plan.NONE, probes);
      BASE_ANSWERS.put(base, known);
    }
    return known;
  }

  @Test
  void theSeedAloneDecidesThePlanAndThePage() throws Exception {
    Set<List<String>> plans = new HashSet<>();
    for (long seed = 1; seed <= 200; seed++) {
      List<String> names = PageMutations.seeded(seed).names();
      assertThat(PageMutations.seeded(seed).names()).isEqualTo(names);
      assertThat(names).isNotEmpty().hasSizeLessThanOrEqualTo(3);
      plans.add(names);
    }
    assertThat(plans).as("seeds choose different plans").hasSizeGreaterThan(100);
    // The same seed serves the same page, config and all; /control says what was applied.
    String first = home(start("2026-10", PageMutations.seeded(42)));
    String again = home(start("2026-10", PageMutations.seeded(42)));
    assertThat(again).isEqualTo(first);
    assertThat(home(start("2026-10", PageMutations.seeded(43)))).isNotEqualTo(first);
    FakeSol sol = start("2026-10", PageMutations.named(List.of("rehash-classes", "extra-wrappers"), 5));
    JsonNode control = Json.MAPPER.readTree(get(sol.url().resolve("/control")));
    assertThat(control.path("seed").asLong()).isEqualTo(5);
    assertThat(control.path("mutations").findValuesAsText("name")).containsExactly("rehash-classes", "extra-wrappers");
    assertThat(control.path("mutations").get(0).path("row").asText()).isEqualTo("14");
    // In the browser: the same seed hashes the same class names and wraps as deep; another does not.
    String classes = editorClasses(sol);
    assertThat(editorClasses(start("2026-10", PageMutations.named(List.of("rehash-classes", "extra-wrappers"), 5))))
        .isEqualTo(classes);
    assertThat(editorClasses(start("2026-10", PageMutations.named(List.of("rehash-classes", "extra-wrappers"), 6))))
        .isNotEqualTo(classes);
  }

  @Test
  void anUnknownOrClashingMutationIsRefused() {
    assertThatThrownBy(() -> PageMutations.named(List.of("no-such"), 1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no page mutation named 'no-such'");
    assertThatThrownBy(() -> PageMutations.named(List.of("lang-de", "lang-ja"), 1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("exclude each other");
  }

  @Test
  @Timeout(400)
  void combinationsRenderAndAnswer() {
    List<List<String>> combos = List.of(
        List.of("lang-ja", "drop-testids", "extra-wrappers"),
        List.of("rehash-classes", "action-bar-outside", "slot-assistant-3", "unit-key-content"),
        List.of("modal-once", "enter-newline", "code-editors", "picker-flat", "hidden-surfaces"),
        List.of("formless-send", "twin-editor", "turns-remount", "lang-zh"));
    List<String> bases = List.of("2026-07", "2026-10", "2026-09-en", "2026-08");
    for (int i = 0; i < combos.size(); i++) {
      // The answer is drawn live and again from history after a reload, on the mutated page.
      String answered = "Array.from(document.querySelectorAll('code, [role=textbox]')).some((e) => e.textContent.includes('\"tool\"')"
          + " && e.checkVisibility())";
      assertThat(visit(bases.get(i), PageMutations.named(combos.get(i), 3), answered, false))
          .as(bases.get(i) + " " + combos.get(i)).isTrue();
    }
  }

  // ---- One scripted visit --------------------------------------------------------------------

  private FakeSol start(String dom, PageMutations.Plan plan) {
    FakeSol sol = PAGES.closeAfter(FakeSol.start(Vertx.vertx(), true, Scenario.parse(SCENARIO.formatted(dom)), 0, Clock.systemUTC(), plan));
    return sol;
  }

  /**
   * Loads the page, runs one turn, reloads the conversation, types a draft, opens the effort menu,
   * presses Enter: whether {@code probe} held at any of those points (a {@code request:<header>}
   * probe: whether any request carried that header). Not {@code full}: whether it holds after the reload.
   */
  private boolean visit(String dom, PageMutations.Plan plan, String probe, boolean full) {
    if (full) {
      return visitAll(dom, plan, List.of(probe)).get(probe);
    }
    Visit visit = load(dom, plan, new CopyOnWriteArrayList<>());
    answer(visit);
    reload(visit);
    Page page = visit.page();
    page.waitForCondition(() -> check(page, probe), new Page.WaitForConditionOptions().setTimeout(30_000));
    return check(page, probe);
  }

  /**
   * Each probe's answer over the whole visit ({@link #visit} with {@code full}): whether it held at
   * any point. The visit ends early once every probe has held (a mutated page mostly shows its
   * mutation at the first load); a probe that never holds (the base page's) sees every point.
   */
  private Map<String, Boolean> visitAll(String dom, PageMutations.Plan plan, List<String> probes) {
    Map<String, Boolean> held = probes(probes);
    List<String> headers = new CopyOnWriteArrayList<>();
    Visit visit = load(dom, plan, headers);
    List<Consumer<Visit>> points = List.of(FakeSolMutationsTest::answer, FakeSolMutationsTest::reload,
        FakeSolMutationsTest::draft, FakeSolMutationsTest::effortMenu, FakeSolMutationsTest::enter);
    for (Consumer<Visit> point : points) {
      if (noteAll(visit, held, headers)) {
        break;
      }
      point.accept(visit);
    }
    noteAll(visit, held, headers);
    return held;
  }

  /** A page of {@code dom} through {@code plan} in a fresh context; {@code headers} collects every request header name. */
  private record Visit(FakeSol sol, Page page) {}

  private Visit load(String dom, PageMutations.Plan plan, List<String> headers) {
    FakeSol sol = start(dom, plan);
    BrowserContext context = PAGES.newContext();
    Page page = context.newPage();
    page.onRequest(r -> headers.addAll(r.headers().keySet()));
    page.navigate(sol.url().toString());
    page.locator("html[data-fakesol-loaded]").waitFor();
    return new Visit(sol, page);
  }

  /** One turn, answered: its code block shows. */
  private static void answer(Visit visit) {
    Page page = visit.page();
    dismissModal(page);
    type(page, "first");
    submit(page);
    page.waitForCondition(() -> (Boolean) page.evaluate("() => Array.from(document.querySelectorAll('code, [role=textbox]'))"
        + ".some((e) => e.textContent.includes('\"tool\"') && e.checkVisibility())"), new Page.WaitForConditionOptions().setTimeout(30_000));
    assertThat(visit.sol().sends()).hasSize(1);
  }

  /** Row 9: the address is /c/WEB:<id> at first; reload once the durable id is there. */
  private static void reload(Visit visit) {
    Page page = visit.page();
    page.waitForCondition(() -> page.url().matches(".*/c/[0-9a-f-]{36}.*"), new Page.WaitForConditionOptions().setTimeout(30_000));
    page.reload();
    page.locator("html[data-fakesol-loaded]").waitFor();
  }

  private static void draft(Visit visit) {
    Page page = visit.page();
    dismissModal(page);
    type(page, "draft");
    page.waitForCondition(() -> sendButton(page).count() > 0 && sendButton(page).first().isEnabled());
  }

  private static void effortMenu(Visit visit) {
    Page page = visit.page();
    ElementHandle pill = page.evaluateHandle("() => pillNode").asElement();
    pill.click();
    page.locator("[role=menu]").first().waitFor();
  }

  private static void enter(Visit visit) {
    Page page = visit.page();
    page.keyboard().press("Escape");
    editor(page).click();
    page.keyboard().press("End");
    page.keyboard().press("Enter");
    page.waitForCondition(() -> visit.sol().sends().size() == 2
        || (Boolean) page.evaluate("() => Array.from(document.querySelectorAll('#thread-bottom-container [contenteditable]'))"
        + ".some((e) => e.querySelectorAll(':scope > p').length === 2)"));
  }

  /** Notes each probe that holds now (a request probe: a request so far carried its header); true once all have held. */
  private static boolean noteAll(Visit visit, Map<String, Boolean> held, List<String> headers) {
    held.replaceAll((probe, before) -> before || (probe.startsWith("request:")
        ? headers.contains(probe.substring("request:".length())) : check(visit.page(), probe)));
    return !held.containsValue(false);
  }

  private static Map<String, Boolean> probes(List<String> probes) {
    Map<String, Boolean> held = new LinkedHashMap<>();
    probes.forEach(p -> held.put(p, false));
    return held;
  }

  private static boolean check(Page page, String probe) {
    return !probe.startsWith("request:") && Boolean.TRUE.equals(page.evaluate("() => " + probe));
  }

  /** The composer a person sees (row 57: never a zero-size twin), in a form or not (row 55). */
  private static Locator editor(Page page) {
    Locator e = page.locator("#thread-bottom-container [contenteditable=true][role=textbox] >> visible=true");
    e.first().waitFor();
    return e.first();
  }

  private static Locator sendButton(Page page) {
    return page.locator("form[data-chatgpt-composer] button[type=submit], #composer-submit-button[data-testid=send-button],"
        + " #composer-submit-button:not([data-testid]), #thread-bottom-container button[type=button]:text-is(\"\u2191\")");
  }

  private static void type(Page page, String text) {
    editor(page).click();
    page.keyboard().insertText(text);
  }

  private static void submit(Page page) {
    Locator send = sendButton(page);
    page.waitForCondition(() -> send.count() > 0 && send.first().isEnabled());
    send.first().click();
  }

  private static void dismissModal(Page page) {
    Locator modal = page.locator("#modal-conversation-history-rate-limit button");
    if (modal.count() > 0) {
      modal.click();
    }
  }

  private String editorClasses(FakeSol sol) {
    BrowserContext context = PAGES.closeAfter(PAGES.browser().newContext());
    Page page = context.newPage();
    page.navigate(sol.url().toString());
    page.locator("html[data-fakesol-loaded]").waitFor();
    return (String) page.evaluate("() => document.querySelector('form [contenteditable]').className + '|' +"
        + " document.querySelector('form [contenteditable]').closest('form').parentElement.className");
  }

  private static String home(FakeSol sol) throws Exception {
    return get(sol.url());
  }

  private static String get(URI url) throws Exception {
    return HttpClient.newHttpClient().send(HttpRequest.newBuilder(url).build(), HttpResponse.BodyHandlers.ofString()).body();
  }
}

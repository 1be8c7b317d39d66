package dev.solweb.killgate;

import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.Request;
import com.microsoft.playwright.options.WaitForSelectorState;
import dev.solweb.killgate.fakesol.FakeSol;
import dev.solweb.killgate.fakesol.PageMutations;
import dev.solweb.provider.scenario.Scenario;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Timeout;

/**
 * fakesol's late-September English shape {@code 2026-09-en} and the row options on other shapes, in
 * headless Chromium with Playwright's own trusted input and no seat: one test per REAL-PAGE.md row
 * 32-43, each asserting the page really has that row's shape.
 */
@Timeout(120)
class FakeSolLateRowsTest {

  private static final String ANSWER = "{\"dom\": \"2026-09-en\", \"default\": [{\"prose\": \"Here it is.\", \"stream_ms\": 600,"
      + " \"blocks\": [\"{\\\"tool\\\": \\\"write\\\"}\"]}]}";
  private static final String SEND = "form[data-chatgpt-composer] button[type=\"submit\"][aria-label=\"Send\"]";
  private static final String BAR = "[data-turn-key] > [aria-label=\"Response actions\"].shown";
  @RegisterExtension
  static final FakeSolPages PAGES = new FakeSolPages();
  private FakeSol sol;
  private BrowserContext context;


  private Page open(String scenarioJson, String... mutations) {
    sol = PAGES.closeAfter(FakeSol.start(Vertx.vertx(), true, Scenario.parse(scenarioJson), 0, Clock.systemUTC(),
        PageMutations.named(List.of(mutations), 7)));
    context = PAGES.newContext();
    Page page = context.newPage();
    page.navigate(sol.url().toString());
    composer(page);
    return page;
  }

  private static Locator composer(Page page) {
    Locator c = page.locator("form[data-chatgpt-composer] div.ProseMirror[contenteditable=\"true\"][role=\"textbox\"]");
    c.waitFor(new Locator.WaitForOptions().setTimeout(20_000));
    return c;
  }

  /** Types {@code text} and clicks the English Send; waits for the answer's bar (shown after completion). */
  private static void turn(Page page, String text) {
    composer(page).click();
    page.keyboard().insertText(text);
    Locator send = page.locator(SEND);
    send.waitFor();
    page.waitForCondition(send::isEnabled);
    send.click();
    waitDone(page);
  }

  /** The answer is complete: no Stop, and its action bar shown for good (not one of its flashes). */
  private static void waitDone(Page page) {
    page.waitForCondition(() -> page.locator("button[aria-label=\"Stop\"]").count() == 0
        && page.locator(BAR + ":not(.fakesol-flash)").count() > 0, new Page.WaitForConditionOptions().setTimeout(30_000));
  }

  /** The same answer on a fresh 2026-10 page through {@code mutation}: one turn, until {@code selector} shows. */
  private Page octoberTurnWith(String mutation, String selector) {
    context.close();
    sol.close();
    Page page = open(ANSWER.replace("2026-09-en", "2026-10"), mutation);
    page.locator("form[data-chatgpt-composer] div.ProseMirror").click();
    page.keyboard().insertText("again");
    page.locator("form button[type=\"submit\"]").click();
    waitFor(page, selector);
    return page;
  }

  private static void waitFor(Page page, String selector) {
    page.locator(selector).first().waitFor(new Locator.WaitForOptions().setTimeout(30_000));
  }

  @Test
  void row32SendAndStopAreEnglishLabelsInTheComposerFormOnlyWhileThereIsText() {
    Page page = open(ANSWER.replace("\"stream_ms\": 600", "\"stream_ms\": 1500"));
    assertThat(page.locator("button[type=\"submit\"]").count()).isZero();
    composer(page).click();
    page.keyboard().insertText("hello");
    Locator send = page.locator(SEND);
    send.waitFor();
    page.waitForCondition(send::isEnabled);
    assertThat(page.locator("[data-testid=\"send-button\"], [data-testid=\"stop-button\"]").count()).isZero();
    send.click();
    Locator stop = page.locator("button[aria-label=\"Stop\"]");
    stop.waitFor();
    assertThat(stop.count()).as("the only Stop on the page").isEqualTo(1);
    assertThat(page.locator("form[data-chatgpt-composer] button[aria-label=\"Stop\"]").count()).isEqualTo(1);
    waitDone(page);
    assertThat(sol.sends()).hasSize(1);
  }

  @Test
  void row33UnitKeysUseSlotTwoAndAHistoryLoadKeysThemFallbackTurnN() {
    Page page = open(ANSWER);
    turn(page, "first");
    String key = page.locator("[data-turn-key]").getAttribute("data-turn-key");
    assertThat(page.locator("[data-content-search-unit-key=\"" + key + ":0:user\"]").count()).isEqualTo(1);
    assertThat(page.locator("[data-content-search-unit-key=\"" + key + ":2:assistant\"]").count()).isEqualTo(1);
    assertThat(page.locator("[data-content-search-unit-key$=\":1:assistant\"]").count()).isZero();
    // Row 9: the address is /c/WEB:<id> at first; reload once the durable id is there.
    page.waitForCondition(() -> page.url().matches(".*/c/[0-9a-f-]{36}.*"), new Page.WaitForConditionOptions().setTimeout(30_000));
    page.reload();
    waitFor(page, "[data-content-search-unit-key=\"fallback-turn-0:2:assistant\"]");
    assertThat(page.locator("[data-content-search-unit-key=\"fallback-turn-0:0:user\"]").count()).isEqualTo(1);
    assertThat(page.locator("[data-turn-key]").getAttribute("data-turn-key")).isEqualTo(key);
    Page three = octoberTurnWith("slot-assistant-3", "[data-chatgpt-search-unit-key$=\":3:assistant\"]");
    assertThat(three.locator("[data-chatgpt-search-unit-key$=\":1:assistant\"]").count()).isZero();
  }

  @Test
  void row34TheUnitKeyAliasInsteadAndBesideAndTheSelectionMessageIdAfterTheStreamNamesIt() {
    Page page = open(ANSWER.replace("\"prose\"", "\"delay_ms\": 800, \"prose\""));
    composer(page).click();
    page.keyboard().insertText("name it");
    page.locator(SEND).click();
    page.locator("button[aria-label=\"Stop\"]").waitFor();
    assertThat(page.locator("[data-chatgpt-selection-message-id]").count()).as("absent right after Send").isZero();
    waitDone(page);
    assertThat(page.locator("[data-chatgpt-search-unit-key]").count()).as("the chatgpt- name is gone").isZero();
    Locator answer = page.locator("[data-content-search-unit-key$=\":assistant\"]");
    String messageId = page.locator("[data-chatgpt-selection-message-id]").getAttribute("data-chatgpt-selection-message-id");
    assertThat(answer.getAttribute("data-chatgpt-search-message-ids")).contains(messageId);
    assertThat(page.locator("[data-chatgpt-selection-message-id] [data-markdown-text-style=\"assistant-message\"]").innerText())
        .startsWith("Here it is.");
    octoberTurnWith("unit-key-both", "[data-chatgpt-search-unit-key$=\":1:assistant\"][data-content-search-unit-key$=\":1:assistant\"]");
  }

  @Test
  void row35TheActionBarIsOutsideTheAssistantUnitShownAfterCompletionAndFlashesBefore() {
    Page page = open(ANSWER.replace("\"stream_ms\": 600", "\"stream_ms\": 1500"));
    page.evaluate("() => { window.__flashes = 0; new MutationObserver((ms) => { for (const m of ms) if (m.target.matches"
        + "('[aria-label=\"Response actions\"].shown') && document.querySelector('button[aria-label=\"Stop\"]')) window.__flashes++; })"
        + ".observe(document.body, { subtree: true, attributes: true, attributeFilter: ['class'] }); }");
    turn(page, "bar");
    assertThat(page.locator("[data-content-search-unit-key$=\":assistant\"] [aria-label=\"Response actions\"]").count()).isZero();
    Locator bar = page.locator(BAR);
    assertThat(bar.locator("[data-testid]").count()).isZero();
    assertThat(bar.locator("button").evaluateAll("bs => bs.map(b => b.getAttribute('aria-label'))"))
        .isEqualTo(List.of("Copy", "Rate response", "Regenerate response", "More actions"));
    assertThat(((Number) page.evaluate("() => window.__flashes")).intValue()).as("shown while the answer was still running").isPositive();
  }

  @Test
  void row36EnterInsertsANewlineCtrlEnterSendsAndTheEditFormSitsInTheUserUnit() {
    Page page = open(ANSWER);
    Locator form = page.locator("form[data-chatgpt-composer]");
    assertThat(form.getAttribute("data-thread-find-composer")).isEqualTo("true");
    assertThat(form.getAttribute("data-composer-placement")).isEqualTo("home");
    composer(page).click();
    page.keyboard().insertText("one");
    page.keyboard().press("Enter");
    page.keyboard().insertText("two");
    assertThat(composer(page).locator("p").allTextContents()).isEqualTo(List.of("one", "two"));
    assertThat(sol.sends()).isEmpty();
    page.waitForCondition(() -> page.locator(SEND).isEnabled());
    page.keyboard().press("Control+Enter");
    waitDone(page);
    assertThat(sol.sends()).hasSize(1);
    assertThat(sol.sends().get(0).text()).isEqualTo("one\ntwo");
    Locator edit = page.locator("[data-content-search-unit-key$=\":user\"] form:not([data-chatgpt-composer])");
    assertThat(edit.locator("[data-composer-markdown][aria-label=\"Edit message\"]").count()).isEqualTo(1);
    assertThat(edit.locator("button[type=\"submit\"]").getAttribute("aria-label")).isNull();
    assertThat(edit.locator("button", new Locator.LocatorOptions().setHasText("Cancel")).count()).isEqualTo(1);
    assertThat(page.locator("#thread-bottom-container form[data-type=\"unified-composer\"]").count()).isZero();
  }

  @Test
  void row37AFinishedCodeBlockIsAnEditCodeEditor() {
    Page page = open(ANSWER);
    turn(page, "code");
    Locator editor = page.locator("[data-markdown-copy=\"code-block\"] [role=\"textbox\"][aria-label=\"Edit code\"]");
    assertThat(editor.getAttribute("data-language")).isEqualTo("json");
    assertThat(editor.innerText()).isEqualTo("{\"tool\": \"write\"}");
    assertThat(page.locator("[data-markdown-copy=\"code-block\"] pre").count()).isZero();
    assertThat(page.locator("[role=\"textbox\"][contenteditable=\"true\"]").count()).as("two textboxes, no Canvas").isGreaterThan(1);
  }

  @Test
  void row38TheSidebarHasRowsWithoutLinksOrOptionsButtons() {
    sol = PAGES.closeAfter(FakeSol.start(Scenario.parse(ANSWER), 0));
    String id = sol.history().personal("Saved plans");
    context = PAGES.closeAfter(PAGES.browser().newContext());
    Page page = context.newPage();
    page.navigate(sol.url().toString());
    Locator row = page.locator("div[role=\"listitem\"][data-pinned-content-tab-drop-key=\"chatgpt:conversation:" + id + "\"]");
    row.waitFor();
    assertThat(row.locator("div[role=\"button\"] span[data-thread-title]").innerText()).isEqualTo("Saved plans");
    assertThat(page.locator("a[href*=\"/c/\"]").count()).isZero();
    assertThat(page.locator("[data-testid=\"conversation-options-button\"], [data-testid$=\"-options\"]").count()).isZero();
    row.locator("div[role=\"button\"]").click();
    page.waitForURL("**/c/" + id);
  }

  @Test
  void row39AHiddenSurfaceOfAnotherConversationFollowsTheVisibleThread() {
    Page page = open(ANSWER, "hidden-surfaces");
    turn(page, "visible");
    Locator answers = page.locator("[data-content-search-unit-key$=\":assistant\"]");
    assertThat(answers.count()).isEqualTo(2);
    assertThat(answers.last().isVisible()).as("the newest match in the document is hidden").isFalse();
    assertThat(answers.last().textContent()).contains("another conversation");
    assertThat(answers.first().isVisible()).isTrue();
    assertThat(page.locator("[data-content-search-unit-key$=\":assistant\"]:visible").count()).isEqualTo(1);
  }

  @Test
  void row40TheSliderRunsToThreeWithProDisabledTheFlatMenuAndThePillAttribute() {
    Page page = open(ANSWER, "picker-slider3");
    Locator pill = page.locator("form[data-chatgpt-composer] button[data-selected-reasoning-effort]");
    assertThat(pill.getAttribute("data-selected-reasoning-effort")).isEqualTo("medium");
    assertThat(pill.getAttribute("data-composer-navigation-target")).isEqualTo("reasoning");
    pill.click();
    Locator slider = page.locator("[role=\"menu\"] [role=\"slider\"]");
    assertThat(slider.getAttribute("aria-valuemax")).isEqualTo("3");
    Locator pro = page.locator("[role=\"menuitemradio\"]", new Page.LocatorOptions().setHasText("Pro"));
    assertThat(pro.getAttribute("aria-disabled")).isEqualTo("true");
    context.close();
    sol.close();
    Page flat = open(ANSWER, "picker-flat");
    flat.locator("form[data-chatgpt-composer] button[data-selected-reasoning-effort]").click();
    List<String> rows = flat.locator("[role=\"menu\"] [role=\"menuitemradio\"]").allInnerTexts();
    assertThat(rows).contains("GPT-5.6 Sol", "Medium", "High", "Extra High");
    assertThat(flat.locator("[role=\"menu\"] [role=\"menu\"], [role=\"menu\"] [role=\"slider\"]").count()).isZero();
    flat.locator("[role=\"menuitemradio\"]", new Page.LocatorOptions().setHasText("High").setHasNotText("Extra")).click();
    flat.waitForCondition(() -> "high".equals(flat.locator("button[data-selected-reasoning-effort]").getAttribute(
        "data-selected-reasoning-effort")));
  }

  @Test
  void row41TheRateLimitModalTakesClicksOverTheComposerOnceUntilGotIt() {
    Page page = open(ANSWER, "modal-once");
    Locator modal = page.locator("[data-testid=\"modal-conversation-history-rate-limit\"]");
    modal.waitFor();
    assertThat(modal.getAttribute("role")).isEqualTo("dialog");
    assertThat(modal.getAttribute("id")).isEqualTo("modal-conversation-history-rate-limit");
    assertThat(modal.locator("h2").innerText()).isEqualTo("Too many requests");
    assertThat(modal.locator("button").allInnerTexts()).isEqualTo(List.of("Got it"));
    Object hit = page.evaluate("() => { const r = document.querySelector('form[data-chatgpt-composer] .ProseMirror')"
        + ".getBoundingClientRect(); const e = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);"
        + " return !!e.closest('[data-fakesol-modal-overlay]'); }");
    assertThat(hit).as("a click over the composer lands in the modal").isEqualTo(true);
    modal.locator("button").click();
    modal.waitFor(new Locator.WaitForOptions().setState(WaitForSelectorState.DETACHED));
    turn(page, "after the modal");
    page.reload();
    waitFor(page, "html[data-fakesol-loaded]");
    assertThat(page.locator("[data-testid=\"modal-conversation-history-rate-limit\"]").count()).as("once").isZero();
  }

  @Test
  void row52ABurstOfHistoryRequestsAnswers429AndBringsUpTheModalOncePerBurst() {
    Page page = open(ANSWER);
    turn(page, "a conversation to ask about");
    page.waitForCondition(() -> page.url().contains("/c/") && !page.url().contains("WEB:")); // the durable id (row 28)
    String route = "/backend-api/conversations/" + page.evaluate("() => location.pathname.split('/c/')[1]");
    sol.burstRule(3, java.time.Duration.ofSeconds(60));
    Object statuses = page.evaluate("async (route) => { const out = []; for (let i = 0; i < 5; i++)"
        + " out.push((await fetch(route)).status); return out; }", route);
    assertThat(statuses).as(route + ": a burst; the rule answers past its third request").isEqualTo(List.of(200, 200, 200, 429, 429));
    Locator modal = page.locator("[data-testid=\"modal-conversation-history-rate-limit\"]");
    modal.waitFor();
    assertThat(modal.locator("button").allInnerTexts()).isEqualTo(List.of("Got it"));
    assertThat(sol.modals()).as("one burst, one modal").isEqualTo(1);
  }

  @Test
  void row42CitationPillsInTheAnswerAndAnImagePreviewBeforeTheUserUnit() {
    Page page = open(ANSWER, "image-preview");
    turn(page, "cite");
    Locator pill = page.locator("[data-chatgpt-selection-message-id] a[data-testid=\"chatgpt-citation\"]");
    assertThat(pill.count()).isEqualTo(1);
    assertThat(page.locator("[data-testid=\"webpage-citation-pill\"]").count()).isZero();
    Object before = page.evaluate("() => { const ex = document.querySelector('[data-turn-key]');"
        + " const preview = ex.querySelector('div[role=button][aria-haspopup][aria-expanded]');"
        + " const user = ex.querySelector('[data-content-search-unit-key$=\":user\"]');"
        + " return !!preview && !!(preview.compareDocumentPosition(user) & Node.DOCUMENT_POSITION_FOLLOWING); }");
    assertThat(before).isEqualTo(true);
  }

  @Test
  void row43OneTurnTraceIdIsSharedByPrepareAndSend() {
    Page page = open(ANSWER);
    List<Request> requests = new CopyOnWriteArrayList<>();
    page.onRequest(r -> {
      if (r.url().contains("/backend-api/f/conversation")) {
        requests.add(r);
      }
    });
    turn(page, "traced");
    Request send = requests.stream().filter(r -> r.url().endsWith("/backend-api/f/conversation")).findFirst().orElseThrow();
    Request prepare = requests.subList(0, requests.indexOf(send)).stream().filter(r -> r.url().endsWith("/prepare"))
        .reduce((a, b) -> b).orElseThrow();
    String trace = send.headers().get("x-oai-turn-trace-id");
    assertThat(trace).isNotBlank();
    assertThat(prepare.headers().get("x-oai-turn-trace-id")).isEqualTo(trace);
    assertThat(prepare.headers().get("x-oai-is-client-observation")).isEqualTo("v1.r.p." + trace);
    assertThat(send.headers().get("x-oai-is-client-observation")).isEqualTo("v1.s.p." + trace);
  }
}

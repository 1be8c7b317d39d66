package dev.solweb.killgate;

import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.options.WaitForSelectorState;
import dev.solweb.killgate.fakesol.FakeSol;
import dev.solweb.provider.scenario.Scenario;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * fakesol's late-2026 shapes in headless Chromium, driven with Playwright's own trusted input and
 * no seat: each behaviour the page imitates, checked against the REAL-PAGE.md row it comes from
 * (13-16 and 19-29), so a seat test on these shapes meets what the rows describe. Screenshots go
 * to target/fakesol-shapes/.
 */
@Timeout(120)
class FakeSolShapesTest {

  private static final Path SHOTS = Path.of("target", "fakesol-shapes");
  /** The answer's action bar once shown (the user's bar shows from the start). */
  private static final String ANSWER_BAR = "[data-chatgpt-search-unit-key$=\":1:assistant\"] .turn-action-controls.shown";
  @RegisterExtension
  static final FakeSolPages PAGES = new FakeSolPages();
  private FakeSol sol;
  private BrowserContext context;

  @BeforeAll
  static void shots() throws Exception {
    Files.createDirectories(SHOTS);
  }

  private Page open(String scenarioJson) {
    sol = PAGES.closeAfter(FakeSol.start(Scenario.parse(scenarioJson), 0));
    context = PAGES.newContext();
    return tab();
  }

  private Page tab() {
    Page page = context.newPage();
    page.navigate(sol.url().toString());
    return page;
  }

  private static Locator composer(Page page) {
    Locator c = page.locator("div.ProseMirror[contenteditable=\"true\"][role=\"textbox\"]");
    c.waitFor(new Locator.WaitForOptions().setTimeout(20_000));
    return c;
  }

  private static void type(Page page, String text) {
    composer(page).click();
    page.keyboard().insertText(text);
  }

  private static void waitFor(Page page, String selector) {
    page.locator(selector).first().waitFor(new Locator.WaitForOptions().setTimeout(30_000));
  }

  private static void waitGone(Page page, String selector) {
    page.locator(selector).first().waitFor(new Locator.WaitForOptions().setState(WaitForSelectorState.DETACHED).setTimeout(30_000));
  }

  private static Object js(Page page, String script) {
    return page.evaluate(script);
  }

  private static void shot(Page page, String name) {
    page.screenshot(new Page.ScreenshotOptions().setPath(SHOTS.resolve(name + ".png")).setFullPage(true));
  }

  @Test
  void theOctoberComposerHasNoIdNoTestIdsAndSendOnlyWhileItHoldsText() {
    sol = PAGES.closeAfter(FakeSol.start(Scenario.parse("{\"dom\": \"2026-10\", \"default\": [{\"prose\": \"Answer.\", \"stream_ms\": 600}]}"), 0));
    context = PAGES.closeAfter(PAGES.browser().newContext());
    // What the composer's place held, in order, from the first paint on.
    context.addInitScript("document.addEventListener('DOMContentLoaded', () => { window.__composer = [];"
        + " new MutationObserver(() => { const b = document.querySelector('#thread-bottom-container');"
        + " const now = b.querySelector('[contenteditable]') ? 'editor' : b.querySelector('textarea') ? 'textarea' : 'none';"
        + " if (window.__composer[window.__composer.length - 1] !== now) window.__composer.push(now);"
        // Read in the same mutation that paints Stop: a check after waitFor races the answer's first node on a busy machine.
        + " if (window.__answersAtStop === undefined && document.querySelector('button[aria-label=\"Stop answering\"]'))"
        + " window.__answersAtStop = document.querySelectorAll('[data-dil-message-id]').length; })"
        + ".observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-label'] }); });");
    Page page = tab();
    Locator editor = composer(page);
    // Row 27: just after navigation an unhydrated bare textarea stands where the editor will be.
    assertThat(js(page, "() => window.__composer.filter(c => c !== 'none')")).isEqualTo(List.of("textarea", "editor"));
    assertThat(editor.getAttribute("data-composer-markdown")).isNotNull();
    assertThat(editor.getAttribute("aria-label")).isEqualTo("Ask ChatGPT");
    assertThat(page.locator("#prompt-textarea, textarea").count()).isZero();
    assertThat(page.locator("[data-testid=\"send-button\"], [data-testid=\"stop-button\"], [data-testid=\"composer-plus-btn\"]")
        .count()).isZero();
    assertThat(page.locator("p[data-empty-paragraph][data-placeholder]").count()).isEqualTo(1);
    // Row 16/27: while empty the slot holds the voice button, not Send.
    assertThat(page.locator("button[type=\"submit\"]").count()).isZero();
    assertThat(page.locator("button[aria-label=\"Start voice mode\"]").count()).isEqualTo(1);
    assertThat(page.locator("button[aria-label=\"Dictate\"]").count()).isEqualTo(1);

    type(page, "hello");
    Locator send = page.locator("form button[type=\"submit\"][aria-label=\"Send prompt\"]");
    send.waitFor();
    page.waitForCondition(send::isEnabled);
    assertThat(page.locator("p[data-empty-paragraph]").count()).isZero();
    send.click();
    // Row 29: Stop shows before any answer node; the exchange holds only the user unit.
    waitFor(page, "button[type=\"button\"][aria-label=\"Stop answering\"]");
    assertThat(js(page, "() => window.__answersAtStop")).isEqualTo(0);
    assertThat(page.locator("[data-turn-key] [data-chatgpt-search-unit-key$=\":0:user\"]").count()).isEqualTo(1);
    shot(page, "october-streaming");
    waitGone(page, "button[aria-label=\"Stop answering\"]");
    assertThat(sol.sends()).hasSize(1);
    shot(page, "october-answered");
  }

  @Test
  void theOctoberAnswerIsDilInsideATurnKeyExchangeWrappedWithItsPrompt() {
    Page page = open("{\"dom\": \"2026-10\", \"default\": [{\"prose\": \"Here is the code.\", \"thinking_ms\": 400,"
        + " \"blocks\": [\"{\\\"tool\\\": \\\"write\\\"}\"]}]}");
    type(page, "write it");
    page.locator("form button[type=\"submit\"]").click();
    waitFor(page, ANSWER_BAR);
    // Row 13: one exchange holds both units; none of the section shape's attributes are left.
    assertThat(page.locator("section[data-testid^=\"conversation-turn-\"], [data-turn], [data-message-author-role],"
        + " [data-message-id], .markdown").count()).isZero();
    Locator exchange = page.locator("[data-turn-key]");
    assertThat(exchange.count()).isEqualTo(1);
    String key = exchange.getAttribute("data-turn-key");
    assertThat(page.locator("[data-chatgpt-search-unit-key=\"" + key + ":1:assistant\"]").count()).isEqualTo(1);
    assertThat(page.locator("h4.sr-only[data-conversation-role=\"assistant\"]").innerText()).isEqualTo("ChatGPT said:");
    assertThat(page.locator("[data-user-message-bubble] .whitespace-pre-wrap").innerText()).isEqualTo("write it");
    // Row 14: the DIL renderer, hashed classes, data-d-component blocks, the code block's header.
    Locator dil = page.locator("[data-dil-message-id]");
    assertThat(dil.getAttribute("class")).matches("DilRenderer-\\w+ DilResponseRoot-\\w+");
    assertThat(dil.locator("[data-d-component=\"text\"]").innerText()).isEqualTo("Here is the code.");
    assertThat(dil.locator("[data-markdown-copy=\"code-block\"] [data-markdown-copy=\"exclude\"]").innerText()).contains("JSON");
    assertThat(dil.locator("[data-markdown-copy=\"code-block\"] code").textContent()).isEqualTo("{\"tool\": \"write\"}");
    // Thinking is beside the answer, never in it; its summary stays after the end.
    assertThat(page.locator("[data-testid^=\"cot-v5\"]").count()).isEqualTo(1);
    assertThat(dil.innerText()).doesNotContain("Thought for");
    // The wrapper holds the WHOLE exchange: its text starts with the prompt.
    Locator wrapper = page.locator("[data-talvt-turn-state]");
    assertThat(wrapper.innerText().strip()).startsWith("You said:");
    page.waitForCondition(() -> "complete".equals(wrapper.getAttribute("data-talvt-turn-state")));
    // Row 28: the action bar has no test ids; the conversation id stands above the composer.
    assertThat(page.locator(".turn-action-controls [data-testid]").count()).isZero();
    page.waitForCondition(() -> !page.locator("[data-above-composer-conversation-id]").getAttribute(
        "data-above-composer-conversation-id").isEmpty());
    shot(page, "october-dil");
  }

  @Test
  void theOctoberWrapperReadsCompleteMidAnswerAndCanStayInProgressAfterTheEnd() {
    Page page = open("{\"dom\": \"2026-10\", \"default\": [{\"prose\": \"A long answer that streams.\", \"stream_ms\": 900,"
        + " \"turn_state_stuck\": true}]}");
    type(page, "go");
    page.evaluate("() => { window.__states = []; new MutationObserver(() => { const w = document.querySelector("
        + "'[data-talvt-turn-state]'); if (w) window.__states.push(w.getAttribute('data-talvt-turn-state')); })"
        + ".observe(document.body, { subtree: true, attributes: true, childList: true }); }");
    page.locator("form button[type=\"submit\"]").click();
    waitFor(page, ANSWER_BAR);
    page.waitForTimeout(400); // the page would have marked it complete 200 ms after the end
    @SuppressWarnings("unchecked")
    List<String> states = (List<String>) js(page, "() => window.__states");
    // Row 29: complete, then in_progress again while the answer still came; row 14: stuck after the end.
    int complete = states.indexOf("complete");
    assertThat(complete).isNotNegative();
    assertThat(states.subList(complete, states.size())).contains("in_progress");
    assertThat(page.locator("[data-talvt-turn-state]").getAttribute("data-talvt-turn-state")).isEqualTo("in_progress");
  }

  @Test
  void theTurnKeyThreadScrollsInReverseAndMountsThreeToSixExchanges() {
    StringBuilder replies = new StringBuilder();
    for (int i = 0; i < 8; i++) {
      replies.append(i == 0 ? "" : ", ").append("{\"prose\": \"answer ").append(i).append("\"}");
    }
    Page page = open("{\"dom\": \"2026-09-turnkey\", \"default\": [" + replies + "]}");
    for (int i = 0; i < 8; i++) {
      type(page, "prompt " + i);
      Locator send = page.locator("button[data-testid=\"send-button\"]");
      page.waitForCondition(send::isEnabled);
      send.click();
      final int answered = i;
      page.waitForCondition(() -> page.locator("[data-markdown-text-style=\"assistant-message\"]").last().innerText()
          .equals("answer " + answered));
      page.waitForCondition(() -> page.locator("button[data-testid=\"send-button\"]").count() == 1);
      int mounted = page.locator("[data-turn-key]").count();
      assertThat(mounted).as("after %d exchanges", i + 1).isBetween(Math.min(i + 1, 3), 6);
    }
    // Row 13: document order stays chronological; the scroller is column-reverse with scrollTop 0 at the bottom.
    List<?> keys = (List<?>) js(page, "() => Array.from(document.querySelectorAll('[data-user-message-bubble]'), b => b.innerText)");
    assertThat(keys.get(keys.size() - 1)).isEqualTo("prompt 7");
    assertThat(js(page, "() => getComputedStyle(document.querySelector('[data-app-action-timeline-scroll]')).flexDirection"))
        .isEqualTo("column-reverse");
    assertThat(((Number) js(page, "() => document.querySelector('[data-app-action-timeline-scroll]').scrollTop")).intValue()).isZero();
    assertThat(page.locator("section[data-testid^=\"conversation-turn-\"], .markdown.prose, [data-message-id]").count()).isZero();
    shot(page, "turnkey-windowed");
  }

  @Test
  void theOctoberPowerSliderMovesOnlyByArrowKeysOnItsMenuItemAndOnceNotAtAll() {
    Page page = open("{\"dom\": \"2026-10\", \"locale\": \"ru\", \"slider_drops_first_key\": true, \"default\": []}");
    composer(page);
    page.locator("button[aria-label=\"Выбрать модель ChatGPT\"]").click();
    waitFor(page, "[role=\"menu\"] [role=\"menuitemradio\"]");
    assertThat(page.locator("[role=\"menuitemradio\"]").allInnerTexts()).hasSize(3);
    assertThat(page.locator("[role=\"menuitemradio\"][aria-checked=\"true\"]").innerText()).contains("GPT-6");
    Locator power = page.locator("[role=\"menuitem\"]", new Page.LocatorOptions().setHasText("Мощность"));
    Locator slider = power.locator("[role=\"slider\"]");
    assertThat(slider.getAttribute("aria-hidden")).isEqualTo("true");
    assertThat(slider.getAttribute("aria-valuenow")).isEqualTo("1");
    assertThat(power.locator("[role=\"status\"]").innerText()).isEqualTo("Средний, 2 из 5.");
    power.focus();
    page.keyboard().press("ArrowRight"); // row 26: this one does not move it at all
    assertThat(slider.getAttribute("aria-valuenow")).isEqualTo("1");
    page.keyboard().press("ArrowRight");
    page.waitForCondition(() -> "2".equals(slider.getAttribute("aria-valuenow")));
    page.keyboard().press("ArrowRight");
    page.waitForCondition(() -> "Очень высокий, 4 из 5.".equals(power.locator("[role=\"status\"]").innerText()));
    shot(page, "october-power");
    page.keyboard().press("Escape");
    page.waitForCondition(() -> "Очень высокий".equals(page.locator("button[aria-label=\"Выбрать модель ChatGPT\"]").innerText()));
    // Row 26: the choice survives a reload and a new tab inherits it.
    Page other = tab();
    other.locator("button[aria-label=\"Выбрать модель ChatGPT\"]").waitFor();
    assertThat(other.locator("button[aria-label=\"Выбрать модель ChatGPT\"]").innerText()).isEqualTo("Очень высокий");
  }

  @Test
  void aCappedTierHoldsAndItsTooltipSaysUntilWhen() {
    Page page = open("{\"dom\": \"2026-10\", \"capped_efforts\": {\"Pro\": \"2026-08-16T00:00:00Z\"}, \"default\": []}");
    composer(page);
    page.locator("button[aria-label=\"Select ChatGPT model\"]").click();
    Locator power = page.locator("[role=\"menuitem\"]", new Page.LocatorOptions().setHasText("Power"));
    power.focus();
    for (int i = 0; i < 4; i++) {
      page.keyboard().press("ArrowRight");
    }
    page.waitForCondition(() -> page.locator("[role=\"tooltip\"]").count() == 1);
    assertThat(page.locator("[role=\"tooltip\"]").textContent()).isEqualTo("Limit reached. Try again after Aug 16, 2026.");
    assertThat(power.locator("[role=\"slider\"]").getAttribute("aria-valuenow")).isEqualTo("3");
    shot(page, "october-capped-tier");
  }

  @Test
  void aCappedMenuRowIsDisabledAndShowsItsTooltipOnHover() {
    Page page = open("{\"dom\": \"2026-07\", \"capped_efforts\": {\"Pro\": \"2026-08-16T00:00:00Z\"}, \"default\": []}");
    composer(page);
    page.locator("#composer-trailing button[aria-haspopup=\"menu\"]").click();
    Locator pro = page.locator("[role=\"menuitemradio\"]", new Page.LocatorOptions().setHasText("Pro"));
    assertThat(pro.getAttribute("aria-disabled")).isEqualTo("true");
    assertThat(page.locator("[role=\"tooltip\"]").count()).isZero();
    pro.hover();
    page.waitForCondition(() -> page.locator("[role=\"tooltip\"]").count() == 1);
    assertThat(page.locator("[role=\"tooltip\"]").textContent()).isEqualTo("Limit reached. Try again after Aug 16, 2026.");
    pro.click(new Locator.ClickOptions().setForce(true));
    assertThat(page.locator("[role=\"menuitemradio\"][aria-checked=\"true\"]").innerText()).doesNotContain("Pro");
  }

  @Test
  void aBrowserLeftInWorkModeShowsAnotherPickerUntilChatIsPressedWhichNewTabsKeep() {
    Page page = open("{\"dom\": \"2026-10\", \"mode\": \"work\", \"default\": []}");
    Locator editor = composer(page);
    Locator chat = page.locator("button[aria-pressed]", new Page.LocatorOptions().setHasText("Chat"));
    Locator work = page.locator("button[aria-pressed]", new Page.LocatorOptions().setHasText("Work"));
    assertThat(work.getAttribute("aria-pressed")).isEqualTo("true");
    assertThat(editor.getAttribute("aria-label")).isEqualTo("Work with ChatGPT");
    page.locator("button[aria-label=\"Select ChatGPT model\"]").click();
    waitFor(page, "[role=\"menu\"]");
    assertThat(page.locator("[role=\"menu\"] [role=\"menuitem\"]").count()).as("no Power item in Work").isZero();
    page.keyboard().press("Escape");
    chat.click();
    page.waitForCondition(() -> "true".equals(chat.getAttribute("aria-pressed")));
    assertThat(editor.getAttribute("aria-label")).isEqualTo("Ask ChatGPT");
    assertThat(sol.mode()).isEqualTo("chat");
    Page fresh = tab();
    composer(fresh);
    assertThat(fresh.locator("button[aria-pressed=\"true\"]").innerText()).isEqualTo("Chat");
  }

  @ParameterizedTest
  @ValueSource(strings = {"safety_review_ms", "connection_interrupted_ms"})
  void aStatusLineThatIsNotTheEndHoldsTheTextWhileStopStays(String field) {
    Page page = open("{\"dom\": \"2026-10\", \"default\": [{\"prose\": \"The whole answer, after the hold.\", \"stream_ms\": 300,"
        + " \"" + field + "\": 1200}]}");
    type(page, "go");
    page.locator("form button[type=\"submit\"]").click();
    waitFor(page, "[data-chatgpt-search-unit-key$=\":1:assistant\"] [role=\"status\"]");
    String status = page.locator("[data-chatgpt-search-unit-key$=\":1:assistant\"] [role=\"status\"]").innerText();
    assertThat(status).isIn("Our systems are performing additional processing…",
        "Connection interrupted. Waiting for the complete answer");
    assertThat(page.locator("button[aria-label=\"Stop answering\"]").count()).isEqualTo(1);
    assertThat(page.locator(".turn-action-controls.shown").count()).isEqualTo(1); // only the user's bar
    shot(page, "october-" + field);
    waitGone(page, "[data-chatgpt-search-unit-key$=\":1:assistant\"] [role=\"status\"]");
    waitFor(page, ANSWER_BAR);
    assertThat(page.locator("[data-dil-message-id]").innerText()).isEqualTo("The whole answer, after the hold.");
  }

  @Test
  void aStructuredQuestionEndsTheTurnWaitingForTheUserWithASubmitThatSaysSendInRussian() {
    Page page = open("{\"dom\": \"2026-10\", \"locale\": \"ru\", \"default\": [{\"fault\": \"structured_question\","
        + " \"prose\": \"Какой вариант выбрать?\"}]}");
    type(page, "спроси меня");
    page.locator("form button[type=\"submit\"][aria-label=\"Отправить\"]").click();
    waitFor(page, "[data-fakesol-question]");
    assertThat(page.getByText("Ожидание вашего ответа").count()).isEqualTo(1);
    // Row 29's trap: the question's Submit reads as the composer's Send does.
    assertThat(page.locator("[data-turn-key] button[type=\"submit\"]").innerText()).isEqualTo("Отправить");
    waitGone(page, "button[aria-label=\"Остановить\"]");
    assertThat(page.locator("[data-dil-message-id]").innerText()).isEqualTo("Какой вариант выбрать?");
    assertThat(sol.sends()).hasSize(1);
    shot(page, "october-structured-question");
  }

  @Test
  void aFullConversationEndsInAnAlertWhoseStartNewChatTypesTheLastPromptWithoutSendingIt() {
    Page page = open("{\"dom\": \"2026-10\", \"locale\": \"ru\", \"default\": [{\"fault\": \"conversation_full\"}]}");
    type(page, "последний вопрос");
    page.locator("form button[type=\"submit\"]").click();
    waitFor(page, "[role=\"alert\"]");
    assertThat(page.locator("[role=\"alert\"]").innerText()).contains(
        "Вы достигли максимальной длины этого обсуждения, но можете продолжить обсуждение, начав новый чат.");
    page.locator("[role=\"alert\"] button", new Page.LocatorOptions().setHasText("Начать новый чат")).click();
    page.waitForURL(sol.url().toString());
    page.waitForCondition(() -> composer(page).innerText().strip().equals("последний вопрос"));
    page.locator("form button[type=\"submit\"][aria-label=\"Отправить\"]").waitFor();
    assertThat(sol.sends()).hasSize(1);
  }

  @Test
  void aCanvasAnswerPutsAnEditableCodeMirrorBeforeTheComposerThatTakesTypedText() {
    Page page = open("{\"dom\": \"2026-10\", \"default\": [{\"prose\": \"In the canvas.\", \"blocks\": [\"print(1)\"],"
        + " \"canvas\": true}]}");
    type(page, "make code");
    page.locator("form button[type=\"submit\"]").click();
    waitFor(page, "[data-fakesol-canvas] .cm-content[contenteditable=\"true\"][role=\"textbox\"]");
    // Row 15: the first contenteditable textbox on the page is the user's code, not the composer.
    assertThat(js(page, "() => document.querySelector('div[contenteditable=\"true\"]').classList.contains('cm-content')"))
        .isEqualTo(true);
    page.locator(".cm-content").click();
    page.keyboard().insertText("# edited");
    page.waitForCondition(() -> sol.canvasEdits() > 0);
    shot(page, "october-canvas");
  }

  /** Row 23: the bare project route opens the same project, and its chat stays in it on that route. */
  @Test
  void theBareProjectRouteOpensTheProjectAndItsChatKeepsTheRoute() {
    Page page = open("{\"dom\": \"2026-10\", \"default\": [{\"prose\": \"In the project.\"}]}");
    String slug = sol.history().project("Solweb work");
    String bare = slug.substring(0, "g-p-".length() + 32);
    page.navigate(sol.url() + "g/" + bare + "/project");
    waitFor(page, "#project-home h1");
    assertThat(page.locator("#project-home h1").innerText()).isEqualTo("Solweb work");
    type(page, "in here");
    page.locator("form button[type=\"submit\"]").click();
    page.waitForCondition(() -> page.url().matches(".*/g/" + bare + "/c/[0-9a-f-]{36}$"));
    page.waitForCondition(() -> sol.history().deletes().isEmpty() && !sol.sends().isEmpty());
    assertThat(sol.sends().get(0).text()).isEqualTo("in here");
  }

  /** Row 24: a temporary chat's address bar stays at /?temporary-chat=true after the reply. */
  @Test
  void aTemporaryChatKeepsItsAddressAfterTheReply() {
    Page page = open("{\"dom\": \"2026-10\", \"default\": [{\"prose\": \"Not saved.\"}]}");
    page.navigate(sol.url() + "?temporary-chat=true");
    type(page, "temporary");
    page.locator("form button[type=\"submit\"]").click();
    waitFor(page, ANSWER_BAR);
    page.waitForTimeout(600); // after the moment an ordinary chat's address changes (400 ms)
    assertThat(page.url()).isEqualTo(sol.url() + "?temporary-chat=true");
  }

  /**
   * The 2026-11 shape is the October page plus rows 57, 60, 66 and the model rows 61, 62, 64 (the
   * families picker and its rows) and nothing else: its layout less those keys, its attributes and
   * its labels are 2026-10's.
   */
  @Test
  void theNovemberShapeIsTheOctoberPagePlusItsOwnRows() throws Exception {
    com.fasterxml.jackson.databind.JsonNode october = shape("2026-10");
    com.fasterxml.jackson.databind.node.ObjectNode november = (com.fasterxml.jackson.databind.node.ObjectNode) shape("2026-11");
    assertThat(november.path("_source").asText()).contains("57", "60", "66");
    com.fasterxml.jackson.databind.node.ObjectNode layout = (com.fasterxml.jackson.databind.node.ObjectNode) november.path("layout");
    for (String row : List.of("twinEditor", "remount", "uploadNameStamp")) {
      assertThat(layout.remove(row).asBoolean()).as(row).isTrue();
    }
    // Rows 61, 62, 64: the model families' picker and its rows (models/november.json, as the model-families mutation).
    assertThat(layout.remove("picker").asText()).isEqualTo("families");
    assertThat(november.path("models").path("catalogue").asText()).isEqualTo("november");
    com.fasterxml.jackson.databind.node.ObjectNode octoberLayout = october.path("layout").deepCopy();
    assertThat(octoberLayout.remove("picker").asText()).isEqualTo("power");
    assertThat(layout).isEqualTo(octoberLayout);
    assertThat(november.path("attrs")).isEqualTo(october.path("attrs"));
    assertThat(november.path("labels")).isEqualTo(october.path("labels"));
  }

  private static com.fasterxml.jackson.databind.JsonNode shape(String dom) throws Exception {
    try (java.io.InputStream in = FakeSol.class.getResourceAsStream("/fakesol/shapes/" + dom + ".json")) {
      return dev.solweb.provider.platform.Json.MAPPER.readTree(in);
    }
  }
}

package dev.solweb.killgate;

import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.ElementHandle;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.options.FilePayload;
import dev.solweb.killgate.fakesol.FakeSol;
import dev.solweb.killgate.fakesol.FakeSolUploads;
import dev.solweb.killgate.fakesol.PageMutations;
import dev.solweb.provider.model.Attachment;
import dev.solweb.provider.scenario.Scenario;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * fakesol's November page controls (REAL-PAGE rows 55, 57, 58, 60, 63, 66) in headless Chromium,
 * with Playwright's own trusted input and no seat: one test per row, each asserting the page has
 * that row's shape, on the 2026-11 shape or through the row's page mutation.
 */
@Timeout(120)
class FakeSolNovemberControlsTest {

  private static final String ANSWER = "{\"dom\": \"%s\", \"default\": [{\"prose\": \"Here it is.\", \"stream_ms\": 300},"
      + " {\"prose\": \"Again.\"}, {\"prose\": \"More.\"}]}";
  /** The composer a person sees: never row 57's zero-size twin; in a form or not (row 55). */
  private static final String COMPOSER = "#thread-bottom-container [contenteditable=\"true\"][role=\"textbox\"] >> visible=true";
  /** fakesol's Send, by its glyph: the tests must not depend on the seat's own strategies. */
  private static final String SEND = "#thread-bottom-container button:text-is(\"\u2191\")";
  @RegisterExtension
  static final FakeSolPages PAGES = new FakeSolPages();
  private FakeSol sol;
  private BrowserContext context;


  private Page open(String dom, String... mutations) {
    sol = PAGES.closeAfter(FakeSol.start(Vertx.vertx(), true, Scenario.parse(ANSWER.formatted(dom)), 0, Clock.systemUTC(),
        PageMutations.named(List.of(mutations), 7)));
    context = PAGES.newContext();
    Page page = context.newPage();
    page.navigate(sol.url().toString());
    page.locator("html[data-fakesol-loaded]").waitFor();
    page.locator(COMPOSER).waitFor();
    return page;
  }

  private static void type(Page page, String text) {
    page.locator(COMPOSER).click();
    page.keyboard().insertText(text);
  }

  /** Clicks the enabled Send and waits for the answer's action bar (shown once the answer is complete). */
  private void send(Page page, int sendsAfter) {
    Locator send = page.locator(SEND);
    page.waitForCondition(() -> send.count() == 1 && send.isEnabled());
    send.click();
    page.waitForCondition(() -> sol.sends().size() == sendsAfter
        && page.locator("[aria-label=\"Response actions\"].shown").count() == sendsAfter,
        new Page.WaitForConditionOptions().setTimeout(30_000));
  }

  @ParameterizedTest
  @CsvSource({"2026-10, formless-send, Send prompt", "2026-09-en, formless-send, Send", "2026-10, formless-send+lang-zh, 发送"})
  void row55SendSitsInAContainerThatIsNoFormAndIsAPlainButton(String dom, String mutations, String label) {
    Page page = open(dom, mutations.split("\\+"));
    assertThat(page.locator("form").count()).as("no form anywhere").isZero();
    type(page, "hello");
    Locator send = page.locator(SEND);
    page.waitForCondition(() -> send.count() == 1 && send.isEnabled());
    assertThat(send.getAttribute("type")).isEqualTo("button");
    assertThat(send.getAttribute("aria-label")).isEqualTo(label);
    assertThat(send.evaluate("b => b.closest('form')")).isNull();
    send.click();
    page.waitForCondition(() -> sol.sends().size() == 1, new Page.WaitForConditionOptions().setTimeout(30_000));
    assertThat(sol.sends().get(0).text()).isEqualTo("hello");
  }

  @Test
  void row57AZeroSizeTwinOfTheComposerComesFirstAndWhatIsTypedThereIsLost() {
    Page page = open("2026-11");
    Locator editors = page.locator("#thread-bottom-container [contenteditable=\"true\"][role=\"textbox\"]");
    assertThat(editors.count()).isEqualTo(2);
    Locator twin = editors.first();
    assertThat(twin.evaluate("e => !!e.closest('.LegacyExpandable')")).isEqualTo(true);
    assertThat(twin.boundingBox().width).isZero();
    assertThat(twin.boundingBox().height).isZero();
    for (String attr : List.of("class", "role", "aria-label", "aria-multiline", "data-composer-markdown", "translate")) {
      assertThat(twin.getAttribute(attr)).as(attr).isEqualTo(editors.last().getAttribute(attr));
    }
    // Bound to the twin (as a query without a size check is), the text goes nowhere: no Send, nothing sent.
    twin.evaluate("e => e.focus()");
    page.keyboard().insertText("lost");
    assertThat(twin.textContent()).isEqualTo("lost");
    assertThat(editors.last().textContent()).isEmpty();
    assertThat(page.locator(SEND).count()).isZero();
    type(page, "real");
    send(page, 1);
    assertThat(sol.sends().get(0).text()).isEqualTo("real");
  }

  @ParameterizedTest
  @CsvSource({"2026-11, ''", "2026-10, formless-send"})
  void row58NoSendShowsWhileTheComposerIsEmpty(String dom, String mutations) {
    Page page = open(dom, mutations.isBlank() ? new String[0] : mutations.split("\\+"));
    assertThat(page.locator(SEND).count()).isZero();
    assertThat(page.locator("#thread-bottom-container button[type=\"submit\"]").count()).isZero();
    type(page, "x");
    page.locator(SEND).waitFor();
    page.keyboard().press("Control+A");
    page.keyboard().press("Delete");
    page.waitForCondition(() -> page.locator(SEND).count() == 0);
    assertThat(page.locator("#thread-bottom-container button[type=\"submit\"]").count()).isZero();
    assertThat(sol.sends()).isEmpty();
  }

  @Test
  void row60TurnsAlreadySeenLeaveTheDomAndComeBackAsNewNodes() {
    Page page = open("2026-11");
    type(page, "one");
    send(page, 1);
    type(page, "two");
    send(page, 2);
    String first = page.locator("[data-turn-key]").first().getAttribute("data-turn-key");
    String selector = "[data-turn-key=\"" + first + "\"]";
    ElementHandle held = page.querySelector(selector);
    // The held node leaves the DOM; the same exchange comes back as another node.
    page.waitForCondition(() -> !(Boolean) held.evaluate("e => e.isConnected"), new Page.WaitForConditionOptions().setTimeout(30_000));
    page.waitForCondition(() -> page.querySelector(selector) != null, new Page.WaitForConditionOptions().setTimeout(30_000));
    assertThat(page.evaluate("([s, h]) => document.querySelector(s) !== h", List.of(selector, held))).isEqualTo(true);
    assertThat(page.locator(selector + " [data-dil-message-id]").innerText()).contains("Here it is.");
    // A remounted turn's Copy still copies its answer (the page's listeners come back with it).
    context.grantPermissions(List.of("clipboard-read", "clipboard-write"));
    Locator exchange = page.locator(selector);
    exchange.hover();
    exchange.locator("[aria-label=\"Response actions\"] button").first().click();
    page.waitForCondition(() -> "Here it is.".equals(page.evaluate("() => navigator.clipboard.readText()")));
  }

  @Test
  void row63TheComposerTakesHalfAMillionCharactersAndSendsThemAll() {
    Page page = open("2026-11");
    StringBuilder b = new StringBuilder();
    for (int line = 0; b.length() < 500_000; line++) {
      b.append("line ").append(line).append(" of a long prompt: \u00fcn\u00efc\u00f8d\u00e9 \u2713 {braces} `ticks`\n");
    }
    String text = b.substring(0, 500_000);
    type(page, text);
    send(page, 1);
    assertThat(sol.sends().get(0).text()).hasSize(500_000).isEqualTo(text);
  }

  @Test
  void row66AnUploadedImagesPreviewShowsItsNameWithATimestampAdded() {
    Page page = open("2026-11");
    Attachment one = UploadFiles.png("shot.png", 2_000, 1);
    Attachment two = UploadFiles.png("diagram.png", 2_000, 2);
    page.locator("#upload-photos").setInputFiles(new FilePayload[] {new FilePayload(one.name(), "image/png", one.bytes()),
        new FilePayload(two.name(), "image/png", two.bytes())});
    Locator chips = page.locator("#attachment-tray [role=\"group\"]");
    page.waitForCondition(() -> chips.count() == 2 && chips.locator("[role=\"progressbar\"]").count() == 0,
        new Page.WaitForConditionOptions().setTimeout(30_000));
    List<String> shown = ((List<?>) chips.evaluateAll("cs => cs.map(c => c.getAttribute('aria-label'))")).stream().map(String::valueOf).toList();
    assertThat(shown.get(0)).matches("shot_\\d{8}-\\d{6}\\.png");
    assertThat(shown.get(1)).matches("diagram_\\d{8}-\\d{6}\\.png");
    // The page uploaded them under their own names: the preview name is no longer the uploaded one.
    assertThat(sol.uploads().files()).extracting(FakeSolUploads.Stored::name).containsExactlyInAnyOrder("shot.png", "diagram.png");
    type(page, "what are these?");
    send(page, 1);
    assertThat(sol.uploads().turns().get(0).files()).hasSize(2);
  }
}

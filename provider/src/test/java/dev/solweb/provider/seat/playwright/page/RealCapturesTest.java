package dev.solweb.provider.seat.playwright.page;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.microsoft.playwright.Page;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.seat.playwright.inspect.PageInspector;
import dev.solweb.provider.seat.playwright.inspect.PageReport;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The seat's page reading on the REAL chatgpt.com captures in ../shared/realdom/ (never copied
 * into the repo): each file is served on loopback with /api/auth/session, every request that is
 * not to a loopback address is aborted, and ChatGptPage reads it in Chromium.
 */
class RealCapturesTest {

  private static final Path REALDOM = CapturedPages.REALDOM;
  @RegisterExtension static final CapturedPages pages = new CapturedPages();

  @BeforeAll
  static void capturesPresent() {
    assumeTrue(Files.isDirectory(REALDOM), "no realdom captures at " + REALDOM);
  }

  private static URI base() {
    return pages.base();
  }

  private static ChatGptPage open(String capture) {
    return pages.chat("capture/" + capture);
  }

  private static Page openPage(String capture) {
    return pages.open("capture/" + capture);
  }

  @Test
  void theMarch2026TurnReadsItsTurnsSlugActionBarAndItsSpanAndBrCodeBlockOnce() {
    ChatGptPage chat = open("aice/chatgpt-dom-1question-ans-pair--with-python-code-response.html");
    ChatGptPage.State s = chat.state(Set.of());
    assertThat(s.turns()).isEqualTo(2);
    assertThat(s.targetId()).isEqualTo("7768f80d-704b-480d-b5a9-04b0bb268b2e");
    assertThat(s.targetSlug()).isEqualTo("gpt-5-3");
    assertThat(s.actionBar()).isTrue();
    assertThat(s.thinking()).isFalse();
    assertThat(s.composer()).isTrue();
    assertThat(s.sendEnabled()).isFalse(); // the captured Send is disabled (empty composer)
    MarkdownFences.Split split = chat.domBlocks(s.targetId());
    assertThat(split.blocks()).containsExactly("print(\"Hello, World!\")");
    assertThat(split.prose()).contains("Hello, World!").doesNotContain("Run");
    assertThat(chat.session().email()).isEqualTo("capture@solweb.invalid");
  }

  @Test
  void theTwoTurnMarch2026PageHasFourTurnsAndNoCodeBlock() {
    ChatGptPage chat = open("aice/chatgpt-dom-2question-ans-pairs.html");
    ChatGptPage.State s = chat.state(Set.of());
    assertThat(s.turns()).isEqualTo(4);
    assertThat(s.assistantIds()).hasSize(2);
    assertThat(s.targetSlug()).isEqualTo("gpt-5-3");
    assertThat(s.actionBar()).isTrue();
    assertThat(chat.domBlocks(s.targetId()).blocks()).isEmpty();
  }

  @Test
  void theJuly2026CodeBlockWithAPreInsideThePreIsReadOnceAsTheAuthorsFixtureExpects() throws Exception {
    JsonNode fixture = new ObjectMapper().readTree(REALDOM.resolve("chatgpt-bridge/sample-code-01-final.fixture.json").toFile());
    List<String> expected = new ArrayList<>();
    fixture.path("expected").path("codeBlocks").forEach(b -> expected.add(b.path("code").asText()));
    ChatGptPage chat = open("chatgpt-bridge/sample-code-01-final.html");
    ChatGptPage.State s = chat.state(Set.of());
    assertThat(s.targetId()).isEqualTo("captured-message");
    MarkdownFences.Split split = chat.domBlocks(s.targetId());
    assertThat(split.blocks()).isEqualTo(expected).hasSize(1);
    assertThat(split.prose()).isEqualTo("Captured parser fixture.");
  }

  @Test
  void theRussianJuly2026PickerShowsThreeEffortRowsWithHighCheckedAndModelsApart() {
    ChatGptPage chat = open("chatgpt-bridge/intelligence-picker-ru.html");
    EffortPicker.EffortMenu menu = chat.readEffortMenu();
    assertThat(menu.kind()).isEqualTo(EffortPicker.PickerKind.MENU);
    assertThat(menu.options()).extracting(EffortPicker.EffortOption::label).containsExactly("Instant", "Средний", "Высокий");
    assertThat(menu.options()).extracting(EffortPicker.EffortOption::effort)
        .containsExactly(Effort.INSTANT, Effort.MEDIUM, Effort.HIGH);
    assertThat(menu.checked().effort()).isEqualTo(Effort.HIGH);
    assertThat(menu.otherRows()).contains("GPT-5.6 Sol", "GPT-5.5", "o3");
  }

  /**
   * The captures hold no header, sidebar, project or temporary-chat markup (they are thread and
   * menu fragments), so what they can prove is that the history selectors catch nothing of the
   * real turns, action bars and the open effort menu: the seat never mistakes them for a
   * conversation menu, a delete, a project or a temporary chat.
   */
  @Test
  void theHistorySelectorsCatchNothingOfTheRealTurnsActionBarsOrEffortMenu() {
    for (String capture : List.of("aice/chatgpt-dom-1question-ans-pair--with-python-code-response.html",
        "aice/chatgpt-dom-2question-ans-pairs.html", "chatgpt-bridge/sample-code-01-final.html",
        "chatgpt-bridge/intelligence-picker-ru.html")) {
      Page page = openPage(capture);
      ChatGptPage chat = new ChatGptPage(page, base());
      for (String selector : List.of(HistoryPage.HEADER_OPTIONS, HistoryPage.SIDEBAR_OPTIONS,
          "button[data-testid*=\"-options\"]", HistoryPage.DELETE_ITEM, HistoryPage.DELETE_CONFIRM, HistoryPage.PROJECT_LINK)) {
        assertThat(page.locator(selector).count()).as(selector + " on " + capture).isZero();
      }
      HistoryPage history = new HistoryPage(page, chat, base());
      assertThat(history.temporaryShown()).as(capture).isFalse();
      assertThat(history.projects()).as(capture).isEmpty();
      assertThat(chat.state(Set.of()).banner(PageVerdicts.Verdict.MISSING)).as(capture).isEmpty();
    }
  }

  /**
   * The doctor on the open Russian menu (issue 22): a menu already open is read as it is, nothing
   * clicked (it is still open after), and with no pill the checked row gives the effort.
   */
  @Test
  void theDoctorReadsTheOpenRussianMenuWithoutClickingAndTakesTheEffortFromItsCheckedRow() throws Exception {
    Page page = openPage("chatgpt-bridge/intelligence-picker-ru.html");
    ChatGptPage chat = new ChatGptPage(page, base());
    int open = page.locator(ChatGptPage.MENU_OPEN).count();

    PageReport report = new PageInspector(page, chat).inspect(null, true);

    assertThat(report.effort().picker()).isEqualTo("menu");
    assertThat(report.effort().label()).isNull();
    assertThat(report.effort().effort()).isEqualTo("high");
    assertThat(report.checks()).filteredOn(c -> c.name().equals("effort_pill"))
        .singleElement().satisfies(c -> assertThat(c.ok()).isTrue());
    assertThat(page.locator(ChatGptPage.MENU_OPEN).count()).isEqualTo(open).isPositive();
    assertThat(report.domVariant()).isEqualTo("2026-07");
  }
}

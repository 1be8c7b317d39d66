package dev.solweb.provider.seat.playwright.page;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.microsoft.playwright.Page;
import dev.solweb.provider.failure.ProviderFailure.Kind;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.playwright.inspect.PageInspector;
import dev.solweb.provider.seat.playwright.inspect.PageReport;
import dev.solweb.provider.seat.playwright.page.PageVerdicts.Verdict;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The seat's page reading and the doctor on this project's hand-written late-2026 pages
 * (src/test/resources/late2026, written from REAL-PAGE.md rows 13-16 and 26-29), in Chromium like
 * the real captures are: each control found by its strategies, and the right one; the answer read
 * without its prompt, role label or status lines; DIL code blocks exact, with their languages.
 */
class LatePagesTest {

  @RegisterExtension static final CapturedPages pages = new CapturedPages();

  @Test
  void theTurnKeyThreadReadsItsThreeExchangesAndOnlyTheAnswerBodies() {
    ChatGptPage chat = pages.chat("late/turnkey-2026-09-en.html");
    ChatGptPage.State s = chat.state(Set.of());

    assertThat(s.turns()).isEqualTo(6); // three exchanges, a user and an assistant unit each
    assertThat(s.assistantIds()).containsExactlyInAnyOrder("a7f0aa11-0001-4c11-8e22-19b2c3d4e5f6",
        "a7f0aa11-0002-4c11-8e22-19b2c3d4e5f7", "a7f0aa11-0003-4c11-8e22-19b2c3d4e5f8");
    assertThat(s.targetId()).isEqualTo("a7f0aa11-0003-4c11-8e22-19b2c3d4e5f8");
    assertThat(s.targetText()).isEqualTo("Done.");
    assertThat(s.via()).isEqualTo(new ChatGptPage.Via("id", "testid", null, "markdown-text-style"));
    assertThat(s.actionBar()).isTrue();
    assertThat(s.thinking()).isFalse();
    assertThat(s.composer()).isTrue();
    assertThat(s.sendEnabled()).isFalse();

    ChatGptPage.DomAnswer first = chat.domAnswer("a7f0aa11-0001-4c11-8e22-19b2c3d4e5f6");
    String code = "import csv\n\nwith open(\"data.csv\") as f:\n    for row in csv.reader(f):\n        print(row)";
    assertThat(first.blocks()).containsExactly(code);
    assertThat(first.languages()).containsExactly("python");
    assertThat(first.markdown()).isEqualTo("Use the csv module:\n\n```python\n" + code + "\n```\n\nEach row is a list of strings.");
    assertThat(first.prose()).doesNotContain("You said", "ChatGPT said", "How do I read", "Copy code", "Python");
  }

  @Test
  void theOctoberComposerIsTheProseMirrorNeverTheCanvasBeforeIt() {
    Page page = pages.open("late/dil-2026-10-ru.html");
    ChatGptPage chat = new ChatGptPage(page, pages.base());

    // The Canvas's .cm-content comes first in the document and is a contenteditable textbox too (row 15).
    assertThat(page.evaluate("() => document.querySelector('[contenteditable=\"true\"]').classList.contains('cm-content')"))
        .isEqualTo(true);
    assertThat(chat.state(Set.of()).via().composer()).isEqualTo("label");
    assertThat(chat.insertText("привет")).isEqualTo("привет");
    assertThat(page.locator(".cm-content .cm-line").allTextContents()).containsExactly("def total(xs):", "    return sum(xs)");
  }

  @Test
  void theOctoberDilAnswerIsReadAsMarkdownWithEveryBlockExactAndItsLanguage() {
    ChatGptPage chat = pages.chat("late/dil-2026-10-ru.html");
    ChatGptPage.State s = chat.state(Set.of());

    assertThat(s.targetId()).isEqualTo("d11a0000-1007-4f00-9c00-aa11bb22cc33");
    assertThat(s.via().reply()).isEqualTo("dil");
    // Never the prompt, the role label or the thinking summary; the wrapper's in_progress decides nothing.
    assertThat(s.targetText()).doesNotContain("Напиши функцию", "Вы сказали", "ChatGPT сказал", "Размышлял");
    assertThat(s.targetText()).startsWith("Функция суммы");
    assertThat(s.actionBar()).isTrue();
    assertThat(s.stopVisible()).isFalse();
    assertThat(s.thinking()).isFalse();
    assertThat(s.sendEnabled()).isFalse(); // October's Send exists only while the composer has text

    ChatGptPage.DomAnswer a = chat.domAnswer(s.targetId());
    String python = "def total(xs):\n    return sum(xs)\n\nprint(total([1, 2, 3]))";
    assertThat(a.blocks()).containsExactly(python, "python3 total.py");
    assertThat(a.languages()).containsExactly("python", "bash");
    assertThat(a.markdown()).isEqualTo("### Функция суммы\n\nВот функция:\n\n```python\n" + python + "\n```\n\nИ запуск:\n\n"
        + "```bash\npython3 total.py\n```\n\nВыведет 6.");
    assertThat(a.prose()).isEqualTo("Функция суммы\n\nВот функция:\n\nИ запуск:\n\nВыведет 6.");
  }

  @Test
  void aTurnJustAfterSendShowsStopByItsLabelAndNoAnswerThoughTheWrapperSaysComplete() {
    ChatGptPage chat = pages.chat("late/dil-2026-10-en-streaming.html");
    ChatGptPage.State s = chat.state(Set.of());

    assertThat(s.stopVisible()).isTrue();
    assertThat(s.via().stop()).isEqualTo("label");
    assertThat(s.targetId()).isNull();
    assertThat(s.thinking()).isTrue();
    assertThat(chat.stopLikeShown()).isTrue();
    assertThat(chat.effortPillLabel()).isEqualTo("Very High");
  }

  @Test
  void theOpenOctoberPickerReadsItsPowerSliderAndModelsWithoutAClick() throws Exception {
    Page page = pages.open("late/picker-2026-10-ru-open.html");
    ChatGptPage chat = new ChatGptPage(page, pages.base());

    EffortPicker.EffortMenu menu = chat.readEffortMenu();
    assertThat(menu.kind()).isEqualTo(EffortPicker.PickerKind.POWER);
    assertThat(menu.checked().effort()).isEqualTo(Effort.HIGH);
    assertThat(menu.checked().label()).isEqualTo("Высокий");
    assertThat(menu.otherRows()).containsExactly("GPT-6", "GPT-5.6 Sol", "GPT-5.5Доступна до 14 окт.");

    PageReport report = new PageInspector(page, chat).inspect(null, true);
    assertThat(report.effort().picker()).isEqualTo("power");
    assertThat(report.effort().effort()).isEqualTo("high");
    assertThat(report.effort().mode()).isEqualTo("chat");
    assertThat(report.domVariant()).isEqualTo("2026-10");
    assertThat(page.locator(ChatGptPage.MENU_OPEN).count()).isEqualTo(1); // still open: nothing was clicked
  }

  @Test
  void aStructuredQuestionIsAQuestionOfItsOwnTurnAndItsSubmitIsNeverSend() {
    ChatGptPage chat = pages.chat("late/question-2026-10-ru.html");
    ChatGptPage.State s = chat.state(Set.of());

    assertThat(s.banner(Verdict.QUESTION)).isPresent();
    assertThat(s.via().send()).isNull(); // the form's "Отправить" is in the thread: not Send
    // Once this turn is history (the baseline holds it), its question is no banner of a new turn.
    assertThat(chat.state(s.assistantIds()).banner(Verdict.QUESTION)).isEmpty();
  }

  @Test
  void theDoctorKnowsTheLateShapesAndSaysWhichStrategyFoundEachControl() throws Exception {
    Page turnkey = pages.open("late/turnkey-2026-09-en.html");
    PageReport september = new PageInspector(turnkey, new ChatGptPage(turnkey, pages.base())).inspect(null, false);
    assertThat(september.domVariant()).isEqualTo("2026-09-turnkey");
    assertThat(september.composer()).isEqualTo(new PageReport.Composer(true, true, "id"));
    assertThat(september.send()).isEqualTo(new PageReport.Send(true, false, "testid"));
    assertThat(september.lastReply().via()).isEqualTo("markdown-text-style");
    assertThat(september.turns()).isEqualTo(6);

    Page dil = pages.open("late/dil-2026-10-ru.html");
    PageReport october = new PageInspector(dil, new ChatGptPage(dil, pages.base())).inspect(null, false);
    assertThat(october.domVariant()).isEqualTo("2026-10");
    assertThat(october.composer()).isEqualTo(new PageReport.Composer(true, true, "label"));
    assertThat(october.send().found()).isFalse();
    assertThat(october.stop()).isEqualTo(new PageReport.Stop(false, null));
    assertThat(october.lastReply().via()).isEqualTo("dil");
    assertThat(october.lastReply().source()).isEqualTo("dom");
    assertThat(october.lastReply().markdown()).contains("```python\ndef total(xs):", "```bash\npython3 total.py\n```");
    assertThat(october.effort().label()).isEqualTo("Высокий");
    assertThat(october.effort().effort()).isEqualTo("high");
    assertThat(october.checks()).allSatisfy(c -> assertThat(c.ok()).as(c.name() + ": " + c.detail()).isTrue());
  }

  /** Rows 21, 27: a page that stays in Work mode after Chat is pressed gets no effort chosen: a typed unavailable that says so. */
  @Test
  void aPageThatStaysInWorkModeIsUnavailableBeforeAnythingIsSent() {
    ChatGptPage chat = pages.chat("late/work-2026-10-en.html");

    assertThatThrownBy(() -> chat.chooseEffort(Effort.HIGH)).isInstanceOfSatisfying(SeatException.class, e -> {
      assertThat(e.failure().kind()).isEqualTo(Kind.UNAVAILABLE);
      assertThat(e.failure().detail()).isEqualTo("cannot set effort High: the page is in Work mode and stayed there after Chat"
          + " was pressed; nothing was sent");
      assertThat(e.afterSend()).isFalse();
    });
  }
}

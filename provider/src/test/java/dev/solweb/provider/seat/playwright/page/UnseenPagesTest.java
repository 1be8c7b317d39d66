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
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The seat on pages nobody wrote a table for (REAL-PAGE rows 32-41), hand-written in
 * src/test/resources/late2026 and read in Chromium: one late-September thread in English, German
 * and Japanese (unit keys under the other attribute name, slot indices 2 and 3, a fallback-turn
 * key, the action bar outside the unit, a finished code editor, a finished thinking summary, a
 * link-less sidebar), hidden surfaces, a 0..3 slider (saved open, and live), a flat Enterprise
 * menu, the rate-limit modal and a user unit's edit form. Each control is found by what it is.
 */
class UnseenPagesTest {

  private static final String FIRST = "5e1f0a22-0001-4b7c-9d10-aa0011223344";
  private static final String SECOND = "5e1f0a22-0002-4b7c-9d10-aa0011223355";

  @RegisterExtension static final CapturedPages pages = new CapturedPages();

  @Test
  void theEnglishSeptemberPageSendsReadsAndListsWithoutTestIds() {
    Page page = pages.open("late/en-2026-09-21.html");
    ChatGptPage chat = new ChatGptPage(page, pages.base());
    ChatGptPage.State s = chat.state(Set.of());

    assertThat(s.via().send()).isEqualTo("label"); // row 32's plain "Send"
    assertThat(s.sendEnabled()).isTrue();
    assertThat(s.turns()).isEqualTo(4); // units under data-content-search-unit-key only (rows 33, 34)
    assertThat(s.assistantIds()).containsExactlyInAnyOrder(FIRST, SECOND); // slots 2 and 3, one fallback-turn key
    assertThat(s.targetId()).isEqualTo(SECOND);
    assertThat(s.targetText()).isEqualTo("Done.");
    assertThat(s.thinking()).isFalse(); // "Thought for 8s" under the status attribute is finished, not live
    assertThat(s.actionBar()).isTrue(); // the bar outside the assistant unit, in the exchange (row 35)
    assertThat(copyLabel(chat, SECOND)).isEqualTo("Copy");

    ChatGptPage.DomAnswer first = chat.domAnswer(FIRST);
    String code = "import csv\nrows = list(csv.reader(open(\"data.csv\")))";
    assertThat(first.blocks()).containsExactly(code); // the finished block is an "Edit code" editor (row 37)
    assertThat(first.languages()).containsExactly("python");
    assertThat(first.markdown()).isEqualTo("Use the csv module:\n\n```python\n" + code + "\n```\n\nEach row is a list of strings.");

    EffortPicker.Pill pill = chat.effort().pill();
    assertThat(pill.label()).isEqualTo("GPT-5.6 Thinking");
    assertThat(pill.attribute()).isEqualTo("high");
    assertThat(chat.effort().pillEffort()).contains(Effort.HIGH); // row 40: the attribute, not the label

    // Row 38: no links, rows keyed chatgpt:conversation:<uuid>.
    assertThat(chat.conversationLinks()).containsExactly(pages.base() + "c/68cff0a1-2b3c-8004-9d5e-6f7a8b9c0d1e",
        pages.base() + "c/68cfe9b2-4c5d-8004-8e6f-7a8b9c0d1e2f");
  }

  @Test
  void theSamePageInGermanIsDrivenByPlaceAlone() throws Exception {
    Page page = pages.open("late/de-2026-09-21.html");
    ChatGptPage chat = new ChatGptPage(page, pages.base());
    ChatGptPage.State s = chat.state(Set.of());

    assertThat(s.via().send()).isEqualTo("place");
    assertThat(s.sendEnabled()).isTrue();
    assertThat(chat.find(Controls.SEND).locator(page).getAttribute("aria-label")).isEqualTo("Prompt senden");
    assertThat(s.via().composer()).isEqualTo("structure");
    assertThat(s.targetId()).isEqualTo(SECOND);
    assertThat(s.targetText()).isEqualTo("Fertig.");
    assertThat(s.thinking()).isFalse(); // "8 Sekunden nachgedacht": a finished summary in a language with no table
    assertThat(copyLabel(chat, SECOND)).isEqualTo("Kopieren"); // never "Nachricht kopieren" or a code block's Copy
    EffortPicker.Pill pill = chat.effort().pill();
    assertThat(pill.via()).isEqualTo("place");
    assertThat(pill.label()).isEqualTo("Hoch");
    assertThat(chat.effort().pillEffort()).isEmpty(); // no attribute, and a label is never guessed

    PageReport report = new PageInspector(page, chat).inspect(null, false);
    assertThat(report.state()).isEqualTo("ready");
    assertThat(report.send()).isEqualTo(new PageReport.Send(true, true, "place"));
    assertThat(report.turns()).isEqualTo(4);
    assertThat(report.lastReply().messageId()).isEqualTo(SECOND);
    assertThat(report.lastReply().markdown()).isEqualTo("Fertig.");
  }

  @Test
  void theSamePageInJapaneseReadsItsCodeAndItsEffortByAttribute() {
    ChatGptPage chat = pages.chat("late/ja-2026-09-21.html");
    ChatGptPage.State s = chat.state(Set.of());

    assertThat(s.via().send()).isEqualTo("place");
    assertThat(s.sendEnabled()).isTrue();
    assertThat(s.targetText()).isEqualTo("完了。");
    assertThat(s.thinking()).isFalse();
    assertThat(copyLabel(chat, SECOND)).isEqualTo("コピーする");
    assertThat(chat.domAnswer(FIRST).blocks()).containsExactly("import csv\nrows = list(csv.reader(open(\"data.csv\")))");
    assertThat(chat.effort().pill().via()).isEqualTo("attribute");
    assertThat(chat.effort().pillEffort()).contains(Effort.MEDIUM);
  }

  @Test
  void aHiddenSurfaceOfAnEarlierConversationIsNeverRead() {
    ChatGptPage chat = pages.chat("late/hidden-2026-10-08.html");
    ChatGptPage.State s = chat.state(Set.of());
    String hidden = "dddd0000-0001-4000-8000-0000000000d1";

    assertThat(s.assistantIds()).containsExactly("bbbb0000-0001-4000-8000-0000000000b1");
    assertThat(s.targetText()).isEqualTo("Four.");
    assertThat(s.turns()).isEqualTo(2);
    assertThat(chat.hasMessage(hidden)).isFalse();
    assertThat(chat.domAnswer(hidden).markdown()).isEmpty();
  }

  @Test
  void aSavedOpenMenuWithAZeroToThreeSliderIsReadByItsRange() throws Exception {
    Page page = pages.open("late/slider-0-3-de-open.html");
    ChatGptPage chat = new ChatGptPage(page, pages.base());

    EffortPicker.EffortMenu menu = chat.readEffortMenu();
    assertThat(menu.kind()).isEqualTo(EffortPicker.PickerKind.POWER);
    assertThat(menu.checked().effort()).isEqualTo(Effort.HIGH); // 2 of 0..3, though "Hoch" is in no table
    assertThat(menu.options()).extracting(EffortPicker.EffortOption::effort).containsExactly(Effort.HIGH, Effort.PRO);
    assertThat(menu.options().get(1).disabled()).isTrue();

    PageReport report = new PageInspector(page, chat).inspect(null, false);
    assertThat(report.effort().picker()).isEqualTo("power");
    assertThat(report.effort().effort()).isEqualTo("high");
    assertThat(page.locator(ChatGptPage.MENU_OPEN).count()).isEqualTo(1); // read as it was: nothing clicked
  }

  @Test
  void anEffortIsSetOnAnUnknownLanguageByTheSliderReadBack() throws Exception {
    ChatGptPage chat = pages.chat("late/slider-0-3-de.html");

    assertThat(chat.chooseEffort(Effort.XHIGH)).isEqualTo(Effort.XHIGH);
    assertThat(chat.effortPillLabel()).isEqualTo("Sehr hoch");
    assertThat(chat.chooseEffort(Effort.INSTANT)).isEqualTo(Effort.INSTANT);
    assertThat(chat.effortPillLabel()).isEqualTo("Sofort");
    // Pro is no step of a 0..3 slider: its own row, disabled, is a typed cap; nothing was sent.
    assertThatThrownBy(() -> chat.chooseEffort(Effort.PRO)).isInstanceOfSatisfying(SeatException.class, e -> {
      assertThat(e.failure().kind()).isEqualTo(Kind.CAPPED);
      assertThat(e.afterSend()).isFalse();
    });
  }

  @Test
  void aFlatEnterpriseMenuOffersItsTiersBesideItsModels() {
    ChatGptPage chat = pages.chat("late/flat-enterprise-open.html");

    EffortPicker.EffortMenu menu = chat.readEffortMenu();
    assertThat(menu.kind()).isEqualTo(EffortPicker.PickerKind.MENU);
    assertThat(menu.options()).extracting(EffortPicker.EffortOption::effort).containsExactly(Effort.values());
    assertThat(menu.checked().effort()).isEqualTo(Effort.HIGH);
    assertThat(menu.options().get(4).disabled()).isTrue();
    assertThat(menu.otherRows()).containsExactly("GPT-5.6");
  }

  @Test
  void theRateLimitModalIsACapInAnyLanguage() throws Exception {
    Page page = pages.open("late/ratelimit-2026-09-de.html");
    ChatGptPage chat = new ChatGptPage(page, pages.base());
    ChatGptPage.State s = chat.state(Set.of());

    assertThat(s.banners().get(0).verdict()).isEqualTo(Verdict.RATE_LIMIT);
    assertThat(s.banners().get(0).text()).contains("Zu viele Anfragen");
    assertThat(s.faultShown()).isTrue();
    assertThat(new PageInspector(page, chat).inspect(null, false).state()).isEqualTo("capped");
  }

  @Test
  void aUserUnitsEditFormIsNeitherTheComposerNorItsSubmitSend() {
    Page page = pages.open("late/editform-2026-09-21.html");
    ChatGptPage chat = new ChatGptPage(page, pages.base());

    assertThat(chat.find(Controls.SEND).locator(page).getAttribute("id")).isEqualTo("main-send");
    assertThat(chat.insertText("neu")).isEqualTo("neu");
    assertThat(page.locator("[aria-label=\"Nachricht bearbeiten\"]").innerText()).isEqualTo("Alter Prompt");
    assertThat(chat.state(Set.of()).targetText()).isEqualTo("Antwort.");
  }

  @Test
  void theDoctorNamesTheStrategiesItTriedAndTheClosestShapeOfAnUnknownPage() throws Exception {
    Page page = pages.open("late/hidden-2026-10-08.html");
    // The only button comes before the editor: a typed editor's last plain button after it would be Send (row 55).
    page.setContent("<main><form><button type=\"button\">?</button><div contenteditable=\"true\">Hallo</div></form>"
        + "<div><p>Text</p></div></main>");
    PageReport report = new PageInspector(page, new ChatGptPage(page, pages.base())).inspect(null, false);

    assertThat(report.domVariant()).isEqualTo("unknown");
    assertThat(report.domClosest()).isEqualTo("2026-10");
    Map<String, PageReport.Check> checks = new java.util.HashMap<>();
    report.checks().forEach(c -> checks.put(c.name(), c));
    assertThat(checks.get("dom_variant").ok()).isTrue();
    assertThat(checks.get("dom_variant").detail()).contains("unknown", "closest 2026-10");
    assertThat(checks.get("send_button").detail()).startsWith("Send not found (tried: test id send-button, composer form"
        + " submit named [Send, Send prompt,").contains("composer form submit, ", "last plain button after the editor)");
    assertThat(checks.get("effort_pill").detail()).startsWith("effort pill not found (tried: test id")
        .contains("data-selected-reasoning-effort", "composer form menu button after the editor");
  }

  /** The aria-label of the Copy the seat would click for message {@code id}, or null. */
  @SuppressWarnings("unchecked")
  private static String copyLabel(ChatGptPage chat, String id) {
    Map<String, Object> aim = (Map<String, Object>) chat.evaluate(AnswerScripts.COPY_AIM, List.of(id, Controls.script(), true));
    if (aim == null || !Boolean.TRUE.equals(aim.get("focused"))) {
      return null;
    }
    return (String) chat.evaluate("() => document.activeElement.getAttribute('aria-label')", null);
  }
}

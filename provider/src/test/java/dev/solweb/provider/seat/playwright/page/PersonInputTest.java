package dev.solweb.provider.seat.playwright.page;

import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.Page;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The seat acts only on what a person could use (REAL-PAGE rows 55, 57, 58, 65): hand-written pages
 * in Chromium, each control's click or key recorded by the page with whether it was trusted.
 */
class PersonInputTest {

  @RegisterExtension static final CapturedPages pages = new CapturedPages();

  private static ChatGptPage page(String html) {
    Page page = pages.open("late/hidden-2026-10-08.html");
    page.setContent(html);
    return new ChatGptPage(page, pages.base());
  }

  private static Object js(ChatGptPage chat, String script) {
    return chat.evaluate(script, null);
  }

  private static final String EDITOR = "contenteditable=\"true\" class=\"ProseMirror\" role=\"textbox\" aria-label=\"Ask ChatGPT\""
      + " data-composer-markdown";

  @Test
  void aZeroSizeTwinBeforeTheComposerIsNeverTypedInto() {
    ChatGptPage chat = page("<main><form data-chatgpt-composer>"
        + "<div class=\"LegacyExpandable\"><div id=\"twin\" " + EDITOR + " style=\"width:0;height:0;padding:0;border:0;overflow:hidden\">"
        + "</div></div><div id=\"real\" " + EDITOR + " style=\"min-height:40px;border:1px solid #999\"></div>"
        + "<button type=\"submit\" aria-label=\"Send prompt\">\u2191</button></form></main>");

    assertThat(chat.insertText("hello")).isEqualTo("hello");
    assertThat(js(chat, "() => document.querySelector('#real').innerText")).isEqualTo("hello");
    assertThat(js(chat, "() => document.querySelector('#twin').textContent")).isEqualTo("");
    assertThat(chat.state(Set.of()).via().composer()).isEqualTo("label");
  }

  @Test
  void aCoveredSendIsPressedWithTheKeyboardAndNothingClicksTheCover() {
    ChatGptPage chat = page("<main><div><div " + EDITOR + ">hi</div>"
        + "<div><button type=\"button\" id=\"send\" aria-label=\"Send\" style=\"width:40px;height:30px\">\u2191</button></div></div>"
        + "<div id=\"cover\" style=\"position:fixed;inset:0\"></div></main>"
        + "<script>send.addEventListener('click', (e) => { window.__sent = e.isTrusted; });"
        + " cover.addEventListener('click', () => { window.__cover = true; });</script>");

    chat.clickSend();

    assertThat(js(chat, "() => window.__sent")).isEqualTo(true);
    assertThat(js(chat, "() => window.__cover === true")).isEqualTo(false);
  }

  /** Row 55 in a language the seat has no table for: Send is the typed editor's container's last plain button; row 58: none while empty. */
  @Test
  void sendWithoutAFormIsTheEditorsContainersLastPlainButtonOnlyOnceTheEditorHoldsText() {
    String html = "<main><div class=\"composer\"><button type=\"button\" aria-label=\"添加文件\">+</button><div " + EDITOR + ">%s</div>"
        + "<div><button type=\"button\" aria-label=\"听写\">o</button><button type=\"button\" id=\"send\" aria-label=\"送出\">"
        + "\u2191</button></div></div></main>"
        + "<script>send.addEventListener('click', (e) => { window.__sent = e.isTrusted; });</script>";
    assertThat(page(html.formatted("")).state(Set.of()).via().send()).as("no Send for an empty composer (row 58)").isNull();

    ChatGptPage chat = page(html.formatted("typed"));
    ChatGptPage.State s = chat.state(Set.of());
    assertThat(s.via().send()).isEqualTo("container");
    assertThat(s.sendEnabled()).isTrue();
    chat.clickSend();
    assertThat(js(chat, "() => window.__sent")).isEqualTo(true);
  }
}

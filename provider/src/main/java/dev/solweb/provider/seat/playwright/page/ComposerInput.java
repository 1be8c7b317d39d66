package dev.solweb.provider.seat.playwright.page;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.PlaywrightException;
import com.microsoft.playwright.options.WaitForSelectorState;
import java.util.List;

/**
 * The composer's verbs: typing into the composer a person sees, reading it back, Send, Stop and
 * the rate-limit modal over them. Every control is found and acted on in one step by
 * {@link PersonInput} (a mouse click where the pointer reaches it, else the keyboard), so neither
 * row 57's twin editor nor a turn that remounted (row 60) is ever acted on. Confined to the seat's
 * thread, like the page.
 */
final class ComposerInput {

  private static final List<Controls.Strategy> STOP_WITHOUT_SLOT = Controls.STOP.stream()
      .filter(s -> !s.via().equals(Controls.SLOT_STOP)).toList();

  private final Page page;
  private final ChatGptPage chat;
  private final PersonInput hand;

  ComposerInput(Page page, ChatGptPage chat) {
    this.page = page;
    this.chat = chat;
    this.hand = new PersonInput(page, chat);
  }

  /** Empties the composer with the keyboard, as a user would (the editor owns its DOM). */
  void clear() {
    String now = text();
    if (now != null && !now.isEmpty()) {
      focusAtEnd();
      page.keyboard().press("Control+A");
      page.keyboard().press("Delete");
    }
  }

  /**
   * Types {@code text} into the composer the way the live editor accepts it (onflip, 135 live
   * sends; oracle): a real click, the caret to the end, then CDP Input.insertText
   * ({@code keyboard.insertText}), whose beforeinput/input events are trusted. The live composer
   * ignores synthetic (untrusted) paste and input events, so none is used. Returns the composer's
   * text read back, or null when there is no composer.
   */
  String insertText(String text) {
    if (!hand.focusComposerAtEnd()) {
      return null;
    }
    page.keyboard().insertText(text);
    return text();
  }

  /**
   * The fallback when the editor ignored insertText: the real clipboard (permission granted) and
   * a real Control+V, a trusted paste. Returns the composer's text read back.
   */
  String pasteFromClipboard(String text) {
    page.evaluate("(t) => navigator.clipboard.writeText(t)", text);
    focusAtEnd();
    page.keyboard().press("Control+V");
    return text();
  }

  private void focusAtEnd() {
    if (!hand.focusComposerAtEnd()) {
      throw new PlaywrightException(Controls.notFound("composer", Controls.COMPOSER));
    }
  }

  /** The composer's text as Send would submit it: its paragraphs joined by newlines; null without a composer. */
  String text() {
    return (String) chat.evaluate(PageScripts.COMPOSER_TEXT, Controls.COMPOSER.stream().map(Controls.Strategy::toScript).toList());
  }

  /**
   * Clicks Send, found by its strategies (a test id, its label, the composer form's submit:
   * REAL-PAGE rows 11, 16, 32; where there is no form, the editor's container: row 55). A mouse
   * click at its centre, one hit test instead of Playwright's wait for the button to hold still
   * (about 50 ms a turn, bench-seat); a covered Send is pressed with Enter. Only the page's turn
   * request proves it was Send (PageTurn).
   */
  void clickSend() {
    if (hand.press(Controls.SEND, "Enter") == null) {
      throw new PlaywrightException(Controls.notFound("Send", Controls.SEND));
    }
  }

  /**
   * Row 52: dismisses the rate-limit modal with its one button ("Got it" in English; it is the
   * dialog's only button in any language); true when the modal is gone within two seconds.
   */
  boolean dismissRateLimitModal() {
    Locator modal = page.locator(ChatGptPage.RATE_LIMIT_MODAL).first();
    try {
      modal.locator("button").first().click(new Locator.ClickOptions().setTimeout(2_000));
      modal.waitFor(new Locator.WaitForOptions().setState(WaitForSelectorState.DETACHED).setTimeout(2_000));
      return true;
    } catch (PlaywrightException e) {
      return page.locator(ChatGptPage.RATE_LIMIT_MODAL).count() == 0;
    }
  }

  /**
   * Clicks Stop as its strategies find it: a known Stop, else the submit slot while it is not Send
   * (September pages); with {@code turnRunning} (the page's traffic says a turn streams) also the
   * composer's last plain button, which holds Stop only then (idle, it is the voice button).
   */
  void clickStop(boolean turnRunning) {
    hand.press(turnRunning ? Controls.STOP : STOP_WITHOUT_SLOT, "Enter");
  }

  /** Whether anything Stop-like shows: a Stop by test id or label, or the submit slot not being Send (never the voice slot). */
  boolean stopLikeShown() {
    return chat.find(STOP_WITHOUT_SLOT) != null;
  }
}

package dev.solweb.provider.seat.playwright.page;

import static dev.solweb.provider.seat.playwright.page.Places.COMPOSER_EDITOR;
import static dev.solweb.provider.seat.playwright.page.Places.NEVER_ACCOUNT;
import static dev.solweb.provider.seat.playwright.page.Places.NOT_CODEMIRROR;
import static dev.solweb.provider.seat.playwright.page.Places.NOT_IN_THREAD;
import static dev.solweb.provider.seat.playwright.page.Places.PLAIN_ACTION;
import static dev.solweb.provider.seat.playwright.page.Places.inComposerForm;

import dev.solweb.provider.seat.playwright.page.Controls.Strategy;
import java.util.List;

/**
 * The composer's controls, each an ordered list of strategies that ends in a language-free one
 * (its place in the composer form, its role, its data attributes). A test id or label comes
 * first only because it is cheaper and surer when it is there; every label strategy is already
 * confined to the right place, so a label only ranks candidates, it never picks a button
 * elsewhere. Nothing here is ever a thread control, a Canvas editor or an account control.
 */
final class ComposerControls {

  private ComposerControls() {}

  private static final String EDITABLE = "[contenteditable=\"true\"]" + NOT_CODEMIRROR + NOT_IN_THREAD;

  /**
   * The composer (rows 12, 15, 27, 36): {@code #prompt-textarea} up to September; then an id-less
   * {@code div.ProseMirror[role=textbox]} whose aria-label is its placeholder, marked
   * {@code data-composer-markdown}; then any editor in the composer form; last, where there is no
   * form (row 55), an editor outside the thread. The bare textarea an unhydrated page shows first is
   * never it, nor a user unit's edit form (it is in the thread), nor row 57's zero-size twin (no
   * person can use it: {@link Controls}).
   */
  static final List<Strategy> COMPOSER = List.of(
      Strategy.of("id", "id prompt-textarea", "#prompt-textarea" + EDITABLE),
      Strategy.named("label", "textbox named", "[role=\"textbox\"]" + EDITABLE, Labels.COMPOSER),
      Strategy.of("structure", "composer form editor", "form [data-composer-markdown]" + EDITABLE + ", form div.ProseMirror" + EDITABLE),
      Strategy.of("place", "editor in the composer form", inComposerForm(EDITABLE)),
      Strategy.of("surface", "editor outside the thread", "[data-composer-markdown]" + EDITABLE + ", div.ProseMirror" + EDITABLE
          + ", [role=\"textbox\"]" + EDITABLE));

  /**
   * A form's submit button as the browser decides it: type submit, or no type at all (HTML's
   * default; the classic composer's {@code #composer-submit-button} has none, so a page without its
   * test id and with labels in another language is found by this alone).
   */
  private static final String SUBMIT = ":is(button[type=\"submit\" i], button:not([type]))";

  /**
   * Send (rows 11, 16, 32, 36): the test id up to September; then the composer form's submit,
   * present only while the composer holds text, ranked by its label where the seat knows it, else
   * by its place alone. Where there is no form (row 55, a temporary chat), Send is where the editor
   * is: a button after the editor in its nearest container that holds one, by name, else the
   * submit-like one, else the last (the Send slot ends the composer's row on every shape seen; it
   * holds Send only while the composer has text, so these look only then). Never a
   * button in the thread (a structured question's Submit, a user unit's edit form), never a voice,
   * menu or toggle button. A click is Send only once the page's own turn request proves it (PageTurn).
   */
  static final List<Strategy> SEND = List.of(
      Strategy.of("testid", "test id send-button", "button[data-testid=\"send-button\"]"),
      Strategy.named("label", "composer form submit named", inComposerForm("button[type=\"submit\"]" + PLAIN_ACTION), Labels.SEND),
      Strategy.named("label", "composer form button named", inComposerForm("button" + PLAIN_ACTION), Labels.SEND),
      Strategy.of("place", "composer form submit", inComposerForm(SUBMIT + PLAIN_ACTION)),
      Strategy.named("label", "button named after the editor", "button" + PLAIN_ACTION + NOT_IN_THREAD, Labels.SEND).nearTypedEditor(COMPOSER),
      Strategy.of("container", "submit after the editor", SUBMIT + PLAIN_ACTION + NOT_IN_THREAD).nearTypedEditor(COMPOSER),
      Strategy.of("container", "last plain button after the editor", "button" + PLAIN_ACTION + NOT_IN_THREAD).nearTypedEditor(COMPOSER)
          .takingLast());

  /**
   * Stop (rows 3, 16, 27, 32): the test ids peers knew until August; the composer form's button
   * named Stop. The two last strategies are weak: the submit slot while it is not Send (September
   * pages), and the composer form's last plain button (the Send slot holds Stop while a turn runs,
   * and the voice button while the composer is empty and idle): they are clicked only while the
   * page's traffic says a turn runs, and prove nothing about whether one does.
   */
  static final List<Strategy> STOP = List.of(
      Strategy.of("testid", "test id stop-button", "button[data-testid=\"stop-button\"], button[data-testid=\"composer-stop-button\"]"),
      Strategy.named("label", "composer button named", inComposerForm("button" + NEVER_ACCOUNT)
          + ", #thread-bottom-container button" + NOT_IN_THREAD, Labels.STOP),
      Strategy.of(Controls.WEAK_STOP, "submit slot not Send", "#composer-submit-button:not([data-testid=\"send-button\"]):not([disabled])"),
      Strategy.of(Controls.SLOT_STOP, "last plain button of the composer form", inComposerForm("button[type=\"button\"]"
          + PLAIN_ACTION + ":not([disabled])")).takingLast(),
      Strategy.of(Controls.SLOT_STOP, "last plain button after the editor", "button[type=\"button\"]" + PLAIN_ACTION
          + ":not([disabled])" + NOT_IN_THREAD).nearEditor(COMPOSER).takingLast());

  /**
   * The effort pill (rows 1, 26, 40): its test id; its data attributes
   * ({@code data-selected-reasoning-effort}, {@code data-composer-navigation-target=reasoning}, the
   * fixture's {@code data-codex-intelligence-trigger}); "Select ChatGPT model" by its label; the
   * composer surface's menu button that is not "+"; last, the composer form's first menu button
   * after the editor ("+" comes before it).
   */
  static final List<Strategy> PILL = List.of(
      Strategy.of("testid", "test id model-switcher-dropdown-button", "[data-testid=\"model-switcher-dropdown-button\"]"),
      Strategy.of("attribute", "data-selected-reasoning-effort",
          "[data-selected-reasoning-effort]" + NOT_IN_THREAD + ", [data-composer-navigation-target=\"reasoning\"]" + NOT_IN_THREAD
              + ", button[data-codex-intelligence-trigger]" + NOT_IN_THREAD),
      Strategy.named("label", "menu button named", "button[aria-haspopup=\"menu\"]" + NOT_IN_THREAD, Labels.MODEL_PICKER),
      Strategy.of("structure", "composer surface menu button", "[data-composer-surface=\"true\"] button[aria-haspopup=\"menu\"]"
          + ":not(#composer-plus-btn):not([data-testid=\"composer-plus-btn\"])"),
      Strategy.of("place", "composer form menu button after the editor",
          inComposerForm("button[aria-haspopup=\"menu\"]" + NEVER_ACCOUNT)).following(COMPOSER_EDITOR),
      Strategy.of("container", "menu button after the editor", "button[aria-haspopup=\"menu\"]" + NEVER_ACCOUNT + NOT_IN_THREAD)
          .nearEditor(COMPOSER));
}

package dev.solweb.provider.seat.playwright.page;

import static dev.solweb.provider.seat.playwright.page.Places.ANY_UNIT;
import static dev.solweb.provider.seat.playwright.page.Places.ASSISTANT_HEADING;
import static dev.solweb.provider.seat.playwright.page.Places.ASSISTANT_UNIT;
import static dev.solweb.provider.seat.playwright.page.Places.EXCHANGE;
import static dev.solweb.provider.seat.playwright.page.Places.PLAIN_ACTION;
import static dev.solweb.provider.seat.playwright.page.Places.UNIT_IDS;
import static dev.solweb.provider.seat.playwright.page.Places.UNIT_KEYS;
import static dev.solweb.provider.seat.playwright.page.Places.USER_UNIT;

import dev.solweb.provider.seat.playwright.page.Controls.Id;
import dev.solweb.provider.seat.playwright.page.Controls.Reply;
import dev.solweb.provider.seat.playwright.page.Controls.Strategy;
import java.util.List;

/**
 * The thread's parts: the answer message (by renderer, ending in the assistant unit found by its
 * role alone), the turns, the answer's Copy and the sidebar's conversation rows. Only the VISIBLE
 * conversation is read: a hidden surface of a conversation opened earlier (REAL-PAGE row 39) is
 * skipped by the page scripts, never matched.
 */
final class ThreadControls {

  private ThreadControls() {}

  /** Where an answer's turn is, nearest first: the exchange holding prompt and answer (row 35's action bar sits in it), else the unit. */
  private static final List<String> TURN_KEYED = List.of(EXCHANGE, ASSISTANT_UNIT);

  /** The ids a unit lists, under either name; the unit key itself is the id of last resort (a unit named by nothing else). */
  private static final List<Id> UNIT_MESSAGE_IDS = List.of(
      new Id(UNIT_IDS[0], "[" + UNIT_IDS[0] + "]"), new Id(UNIT_IDS[1], "[" + UNIT_IDS[1] + "]"));

  /** What is never answer text in a unit read whole: the role heading, the thinking status, buttons, the action bar. */
  private static final String NOT_ANSWER = "h1.sr-only, h2.sr-only, h3.sr-only, h4.sr-only, " + ASSISTANT_HEADING
      + ", [data-streaming-response-status], [data-testid^=\"cot-v5\"], button, [role=\"group\"], .turn-action-controls";

  /**
   * The answer, by renderer: the author-role messages up to September (row 6), DIL (row 14), the
   * turn-key markdown body (rows 13, 34: its id on its own {@code data-chatgpt-selection-message-id}
   * wrapper, else its unit's id list under either name), and last, language-free, the assistant
   * unit by its role suffix under any alias and slot index (row 33), or by its role heading.
   */
  static final List<Reply> REPLY = List.of(
      new Reply("author-role", "[data-message-author-role=\"assistant\"][data-message-id]",
          List.of(new Id("data-message-id", null)), List.of("[data-testid^=\"conversation-turn-\"]", "section[data-turn]"), ".markdown",
          null),
      new Reply("dil", "[data-dil-message-id]", List.of(new Id("data-dil-message-id", null)), TURN_KEYED, ":scope", null),
      new Reply("markdown-text-style", "[data-markdown-text-style=\"assistant-message\"]",
          concat(List.of(new Id("data-chatgpt-selection-message-id", "[data-chatgpt-selection-message-id]")), UNIT_MESSAGE_IDS),
          TURN_KEYED, ":scope", null),
      new Reply("role", ASSISTANT_UNIT + ", " + EXCHANGE + " :has(> " + ASSISTANT_HEADING + ")",
          concat(UNIT_MESSAGE_IDS, List.of(new Id(UNIT_KEYS[0], null), new Id(UNIT_KEYS[1], null))),
          List.of(EXCHANGE), ":scope", NOT_ANSWER));

  /**
   * A section by its role alone (row 6: {@code data-turn=user|assistant} beside the test id), so a
   * page that drops its test ids still counts its turns.
   */
  private static final String ROLE_SECTION = "section[data-turn]";

  /**
   * Turns on the page: sections up to September (by test id, else by role), units under any alias after (one per message),
   * else the exchanges themselves (a page whose units carry no key).
   */
  static final String TURN_UNITS = "section[data-testid^=\"conversation-turn-\"], " + ANY_UNIT + ", " + ROLE_SECTION;
  static final String EXCHANGES = EXCHANGE;

  /** Never in an answer body or a user unit: a code block's Copy, the prompt's "Copy message". */
  private static final String OUTSIDE_BODIES = ":not(pre *):not([data-markdown-copy] *):not([data-dil-message-id] *)"
      + ":not([data-markdown-text-style] *):not(.markdown *):not([data-streaming-response-status] *)"
      + ":not([data-user-message-bubble] *):not(" + USER_UNIT.replace(", ", " *):not(") + " *)";

  /**
   * The answer's Copy in its action bar (rows 6, 28, 35), looked for inside the answer's turn only:
   * its test id, its label, October's action bar; last, language-free, the first plain button
   * after the answer (row 35: Copy leads the bar that follows the assistant unit in the exchange).
   * The copied text proves it: a click that copies nothing leaves the DOM reading.
   */
  static final List<Strategy> COPY = List.of(
      Strategy.of("testid", "test id copy-turn-action-button", "[data-testid=\"copy-turn-action-button\"]" + OUTSIDE_BODIES),
      Strategy.named("label", "button named", "button" + OUTSIDE_BODIES, Labels.COPY_RESPONSE),
      Strategy.of("structure", "first button of the action bar", ".turn-action-controls button:first-child" + OUTSIDE_BODIES),
      Strategy.of("place", "first plain button after the answer", "button" + PLAIN_ACTION + OUTSIDE_BODIES)
          .following("[data-markdown-text-style=\"assistant-message\"], [data-dil-message-id], .markdown, " + ASSISTANT_HEADING));

  /**
   * The answer's Regenerate in its action bar (row 35: "Copy", "Rate response", "Regenerate
   * response", "More actions", no test ids), looked for inside the last answer's turn only: its
   * label, then, language-free, the plain button just before the bar's menu button. The label only
   * ranks; what the click does is proven by the page's request (a turn request with action
   * {@code variant} and no new user message), never by the button.
   */
  static final List<Strategy> REGENERATE = List.of(
      Strategy.named("label", "button named", "button" + OUTSIDE_BODIES, Labels.REGENERATE),
      Strategy.of("place", "button before the action bar's menu", "button:has(+ button[aria-haspopup=\"menu\"])"
          + OUTSIDE_BODIES));

  /**
   * The sidebar's conversations (rows 22, 38): links to {@code /c/<id>} up to September; row 38's
   * rows without links, each keyed {@code data-pinned-content-tab-drop-key="chatgpt:conversation:<uuid>"}.
   */
  static final String CONVERSATION_LINK = "nav a[href*=\"/c/\"], [data-testid^=\"history-item\"] a[href*=\"/c/\"],"
      + " a[data-testid^=\"history-item\"][href*=\"/c/\"]";
  static final String CONVERSATION_ROW = "[data-pinned-content-tab-drop-key^=\"chatgpt:conversation:\"]";
  static final String CONVERSATION_ROW_KEY = "data-pinned-content-tab-drop-key";

  private static <T> List<T> concat(List<T> a, List<T> b) {
    return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
  }
}

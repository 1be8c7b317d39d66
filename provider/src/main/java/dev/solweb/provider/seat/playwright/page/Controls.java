package dev.solweb.provider.seat.playwright.page;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How the seat finds each control it drives: per control, an ordered list of strategies (a test
 * id, a role with its accessible name in each locale, then the page's structure). The first that
 * matches a visible element wins, and its name is known ({@code via}: doctor reports it). Every
 * strategy names the REAL-PAGE.md row it comes from; the names are exact (case and spacing
 * ignored), so "Stop dictation" is never Stop.
 *
 * <p>Two rules hold for every strategy: the composer is never a CodeMirror {@code .cm-content} (a
 * Canvas answer's editor: row 15) and never anything inside the thread, and no control is looked
 * for inside the thread except the answer's own action bar.
 */
public final class Controls {

  /**
   * One way to find a control.
   *
   * @param via its name in doctor's JSON, e.g. {@code testid}, {@code label}, {@code structure}
   * @param css a selector, tried with {@code document.querySelectorAll}
   * @param names the accessible names (aria-label, else text) one of which it must have; empty: any
   */
  public record Strategy(String via, String css, List<String> names) {
    public Strategy {
      names = List.copyOf(names);
    }

    Map<String, Object> toScript() {
      return Map.of("via", via, "css", css, "names", names);
    }
  }

  /** A control the page shows: the strategy that found it and the element's index among its selector's matches. */
  public record Found(String via, String css, int index) {
    /** The element, for Playwright to act on. */
    public Locator locator(Page page) {
      return page.locator(css).nth(index);
    }

    /** From the page script's answer ({@code {via, css, index}}), or null when nothing matched. */
    @SuppressWarnings("unchecked")
    static Found of(Object script) {
      if (!(script instanceof Map<?, ?> m) || m.get("via") == null) {
        return null;
      }
      Map<String, Object> f = (Map<String, Object>) m;
      return new Found((String) f.get("via"), (String) f.get("css"), ((Number) f.get("index")).intValue());
    }
  }

  /** Anything inside the thread: turn sections (row 6), turn-key exchanges (row 13), the 2026-10 wrapper (row 14). */
  static final String NOT_IN_THREAD = ":not(section[data-testid^=\"conversation-turn-\"] *):not([data-message-author-role] *)"
      + ":not([data-turn-key] *):not([data-talvt-turn-state] *):not([data-app-action-timeline-scroll] *)";
  /** Row 15: a Canvas answer's CodeMirror editor is contenteditable too. */
  static final String NOT_CODEMIRROR = ":not(.cm-content):not(.cm-editor *)";

  private static final String EDITABLE = "[contenteditable=\"true\"]" + NOT_CODEMIRROR + NOT_IN_THREAD;

  /**
   * The composer (rows 12, 15, 27): {@code #prompt-textarea} up to September; then an id-less
   * {@code div.ProseMirror[role=textbox]} whose aria-label is its placeholder (Chat or Work mode),
   * and {@code data-composer-markdown}. The bare textarea an unhydrated page shows first is never it.
   */
  public static final List<Strategy> COMPOSER = List.of(
      new Strategy("id", "#prompt-textarea" + EDITABLE, List.of()),
      new Strategy("label", "[role=\"textbox\"]" + EDITABLE, Labels.COMPOSER),
      new Strategy("structure", "form [data-composer-markdown]" + EDITABLE, List.of()),
      new Strategy("structure", "form div.ProseMirror" + EDITABLE, List.of()));

  /**
   * Send (rows 11, 16): the test id up to September; October's {@code button[type=submit]} known
   * by its label, present only while the composer holds text. Never a button in the thread (a
   * structured question's Submit reads "Отправить" too: row 29).
   */
  public static final List<Strategy> SEND = List.of(
      new Strategy("testid", "button[data-testid=\"send-button\"]", List.of()),
      new Strategy("label", "form button[type=\"submit\"]" + NOT_IN_THREAD, Labels.SEND),
      new Strategy("label", "form button" + NOT_IN_THREAD, Labels.SEND));

  /**
   * Stop (rows 3, 16, 27): the test ids peers knew until August; October's
   * {@code button[aria-label="Остановить"]} in the composer. The last, structural strategy (the
   * submit slot while it is not Send: September pages) is weak: it is clicked to stop a turn, but
   * proves nothing about whether one runs.
   */
  public static final List<Strategy> STOP = List.of(
      new Strategy("testid", "button[data-testid=\"stop-button\"], button[data-testid=\"composer-stop-button\"]", List.of()),
      new Strategy("label", "form button" + NOT_IN_THREAD + ", #thread-bottom-container button" + NOT_IN_THREAD, Labels.STOP),
      new Strategy("structure", "#composer-submit-button:not([data-testid=\"send-button\"]):not([disabled])", List.of()));

  /** The strategy name of {@link #STOP}'s weak, structural match. */
  public static final String WEAK_STOP = "structure";

  /**
   * The effort pill (rows 1, 26): October's "Select ChatGPT model" by its label; the composer
   * surface's menu button that is not "+" before (a __composer-pill class, or only data-tone).
   */
  public static final List<Strategy> PILL = List.of(
      new Strategy("testid", "[data-testid=\"model-switcher-dropdown-button\"]", List.of()),
      new Strategy("label", "button[aria-haspopup=\"menu\"]" + NOT_IN_THREAD, Labels.MODEL_PICKER),
      new Strategy("structure", "[data-composer-surface=\"true\"] button[aria-haspopup=\"menu\"]"
          + ":not(#composer-plus-btn):not([data-testid=\"composer-plus-btn\"])", List.of()));

  /**
   * The answer's Copy in its action bar (rows 6, 28), looked for inside the answer's turn only and
   * never inside the answer body (a code block's Copy).
   */
  public static final List<Strategy> COPY = List.of(
      new Strategy("testid", "[data-testid=\"copy-turn-action-button\"]", List.of()),
      new Strategy("label", "button:not(pre *):not([data-markdown-copy] *):not([data-dil-message-id] *)", Labels.COPY_RESPONSE),
      new Strategy("structure", ".turn-action-controls button:first-child", List.of()));

  /**
   * How an answer message is found (rows 6, 13, 14): its element, the attribute that holds its id
   * (on the element or on the closest {@code idOn}; a comma list takes its last id), the turn it
   * belongs to, and where its body is ({@code :scope}: the element itself).
   */
  public record Reply(String via, String message, String idAttr, String idOn, String turn, String body) {
    Map<String, Object> toScript() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("via", via);
      m.put("message", message);
      m.put("idAttr", idAttr);
      m.put("idOn", idOn);
      m.put("turn", turn);
      m.put("body", body);
      return m;
    }
  }

  private static final String ASSISTANT_UNIT = "[data-chatgpt-search-unit-key$=\":1:assistant\"]";

  /** The answer, by renderer: the author-role messages up to September, DIL (October), the turn-key markdown body. */
  public static final List<Reply> REPLY = List.of(
      new Reply("author-role", "[data-message-author-role=\"assistant\"][data-message-id]", "data-message-id", null,
          "[data-testid^=\"conversation-turn-\"]", ".markdown"),
      new Reply("dil", "[data-dil-message-id]", "data-dil-message-id", null, ASSISTANT_UNIT + ", [data-turn-key]", ":scope"),
      new Reply("markdown-text-style", "[data-markdown-text-style=\"assistant-message\"]", "data-chatgpt-search-message-ids",
          "[data-chatgpt-search-unit-key]", ASSISTANT_UNIT, ":scope"));

  /** Turns on the page: sections up to September, turn-key units after (one per message, user or assistant). */
  public static final String TURN_UNITS = "section[data-testid^=\"conversation-turn-\"], [data-chatgpt-search-unit-key]";

  private Controls() {}

  /** The strategies in words, for a failure's detail: "via: css named [..] | ...". */
  public static String describe(List<Strategy> list) {
    return String.join(" | ", list.stream().map(s -> s.via() + ": " + s.css()
        + (s.names().isEmpty() ? "" : " named " + s.names())).toList());
  }

  private static final Map<String, Object> SCRIPT = table();

  /** The strategy table as the page scripts take it (built once: every poll sends it). */
  static Map<String, Object> script() {
    return SCRIPT;
  }

  private static Map<String, Object> table() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("composer", scripts(COMPOSER));
    m.put("send", scripts(SEND));
    m.put("stop", scripts(STOP));
    m.put("pill", scripts(PILL));
    m.put("copy", scripts(COPY));
    List<Map<String, Object>> replies = new ArrayList<>();
    REPLY.forEach(r -> replies.add(r.toScript()));
    m.put("reply", replies);
    m.put("weakStop", WEAK_STOP);
    m.put("turns", TURN_UNITS);
    return java.util.Collections.unmodifiableMap(m);
  }

  private static List<Map<String, Object>> scripts(List<Strategy> strategies) {
    List<Map<String, Object>> out = new ArrayList<>();
    strategies.forEach(s -> out.add(s.toScript()));
    return out;
  }
}

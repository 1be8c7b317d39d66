package dev.solweb.provider.seat.playwright.page;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How the seat finds each control it drives: per control, an ordered list of strategies (a test
 * id, the page's data attributes, a role with its accessible name in each locale the seat knows,
 * then, always last, the control's place and role alone). The first that matches a visible
 * element a person could use wins (shown, of non-zero size, and reached by the pointer at its
 * centre; one the pointer cannot reach only when no strategy finds one it can, and it is then
 * operated with the keyboard: {@link PersonInput}), and its name is known ({@code via}: doctor
 * reports it). The lists themselves are
 * {@link ComposerControls}' and {@link ThreadControls}'; the places they share are
 * {@link Places}'. Names are exact (case and spacing ignored), so "Stop dictation" is never Stop;
 * and a named strategy is confined to the control's place, so a name only ranks candidates.
 */
public final class Controls {

  /**
   * One way to find a control.
   *
   * @param via its name in doctor's JSON, e.g. {@code testid}, {@code attribute}, {@code label}, {@code place}
   * @param says what it looks for in words, for a failure's detail ("test id send-button", "composer form submit")
   * @param css a selector, tried with {@code document.querySelectorAll}
   * @param names the accessible names (aria-label, else text) one of which it must have; empty: any
   * @param after a selector whose first match the element must follow in document order (null: anywhere)
   * @param last take the last match instead of the first
   * @param near where the element must be relative to an editor (null: anywhere)
   */
  public record Strategy(String via, String says, String css, List<String> names, String after, boolean last, Near near) {
    public Strategy {
      names = List.copyOf(names);
    }

    static Strategy of(String via, String says, String css) {
      return new Strategy(via, says, css, List.of(), null, false, null);
    }

    static Strategy named(String via, String says, String css, List<String> names) {
      return new Strategy(via, says, css, names, null, false, null);
    }

    Strategy following(String selector) {
      return new Strategy(via, says, css, names, selector, last, near);
    }

    Strategy takingLast() {
      return new Strategy(via, says, css, names, after, true, near);
    }

    /** Confined to the container of the editor {@code editor} finds, after the editor ({@link Near}). */
    Strategy nearEditor(List<Strategy> editor) {
      return new Strategy(via, says, css, names, after, last, new Near(editor, false));
    }

    /** As {@link #nearEditor}, and only while that editor holds text ({@link Near}). */
    Strategy nearTypedEditor(List<Strategy> editor) {
      return new Strategy(via, says, css, names, after, last, new Near(editor, true));
    }

    Map<String, Object> toScript() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("via", via);
      m.put("css", css);
      m.put("names", names);
      m.put("after", after);
      m.put("last", last);
      m.put("near", near == null ? null : near.editor().stream().map(Strategy::toScript).toList());
      m.put("typed", near != null && near.typed());
      return m;
    }

    /** In words: "label [Send, Send prompt]", "composer form submit". */
    String words() {
      return names.isEmpty() ? says : says + " " + names;
    }
  }

  /**
   * Where an element is relative to an editor (row 55: Send where the editor is, form or no form):
   * after the editor that {@code editor}'s strategies find, in that editor's nearest container that
   * holds any such element; with {@code typed}, only while the editor holds text (no page shows
   * Send for an empty composer: rows 27, 58; what sits in its slot then is the voice button).
   */
  public record Near(List<Strategy> editor, boolean typed) {
    public Near {
      editor = List.copyOf(editor);
    }
  }

  /**
   * A control the page shows: the strategy that found it and the element's index among its
   * selector's matches, good for one action at once (a remount moves indices: {@link PersonInput}
   * finds and acts in one step instead).
   */
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

  public static final List<Strategy> COMPOSER = ComposerControls.COMPOSER;
  public static final List<Strategy> SEND = ComposerControls.SEND;
  public static final List<Strategy> STOP = ComposerControls.STOP;
  public static final List<Strategy> PILL = ComposerControls.PILL;
  public static final List<Strategy> COPY = ThreadControls.COPY;
  public static final List<Strategy> REGENERATE = ThreadControls.REGENERATE;

  /** The strategy name of {@link #STOP}'s weak match on September pages (the submit slot not being Send). */
  public static final String WEAK_STOP = "structure";
  /** The strategy name of {@link #STOP}'s weakest match: the composer form's last plain button, clicked only while a turn runs. */
  public static final String SLOT_STOP = "slot";

  /** Where a message's id is: attribute {@code attr} on the message itself ({@code on} null) or on its closest {@code on}. */
  public record Id(String attr, String on) {
    Map<String, Object> toScript() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("attr", attr);
      m.put("on", on);
      return m;
    }
  }

  /**
   * How an answer message is found (rows 6, 13, 14, 33, 34): its element, where its id is (the
   * first of {@code ids} that holds one; a list of ids gives the k-th body its k-th id, counted
   * from the end), the turn it belongs to (the first of {@code turn} among its ancestors), where
   * its body is ({@code :scope}: the element itself) and what in the body is never answer text
   * ({@code drop}, null: nothing).
   */
  public record Reply(String via, String message, List<Id> ids, List<String> turn, String body, String drop) {
    Map<String, Object> toScript() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("via", via);
      m.put("message", message);
      m.put("ids", ids.stream().map(Id::toScript).toList());
      m.put("turn", turn);
      m.put("body", body);
      m.put("drop", drop);
      return m;
    }
  }

  public static final List<Reply> REPLY = ThreadControls.REPLY;
  public static final String TURN_UNITS = ThreadControls.TURN_UNITS;

  private Controls() {}

  /** The strategies in words, for a failure's detail: "test id send-button, composer form submit named [Send, ...], ...". */
  public static String describe(List<Strategy> list) {
    return String.join(", ", list.stream().map(Strategy::words).toList());
  }

  /** A typed failure's words for a control none of whose strategies matched: "Send not found (tried: ...)". */
  public static String notFound(String control, List<Strategy> list) {
    return control + " not found (tried: " + describe(list) + ")";
  }

  /** The answer's failure words: "answer not found (tried: author-role, dil, markdown-text-style, role)". */
  public static String answerNotFound() {
    return "answer not found (tried: " + String.join(", ", REPLY.stream().map(Reply::via).toList())
        + "; the last is the assistant unit by its role suffix or heading, visible only)";
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
    m.put("regenerate", scripts(REGENERATE));
    List<Map<String, Object>> replies = new ArrayList<>();
    REPLY.forEach(r -> replies.add(r.toScript()));
    m.put("reply", replies);
    m.put("weakStop", List.of(WEAK_STOP, SLOT_STOP));
    m.put("turns", TURN_UNITS);
    m.put("exchanges", ThreadControls.EXCHANGES);
    m.put("assistantUnit", Places.ASSISTANT_UNIT);
    m.put("userUnit", Places.USER_UNIT);
    return java.util.Collections.unmodifiableMap(m);
  }

  private static List<Map<String, Object>> scripts(List<Strategy> strategies) {
    List<Map<String, Object>> out = new ArrayList<>();
    strategies.forEach(s -> out.add(s.toScript()));
    return out;
  }
}

package dev.solweb.provider.seat.playwright.page;

/**
 * Where things are on the page, language-free: the thread and its units, the composer form and
 * what may never be clicked. Every control's strategies ({@link ComposerControls},
 * {@link ThreadControls}) are built from these, so a label only ever ranks candidates that are
 * already in the right place.
 */
final class Places {

  private Places() {}

  /**
   * The unit-key attributes a message unit carries (REAL-PAGE rows 13, 33, 34): two names for one
   * fact, values {@code <exchange uuid|fallback-turn-n>:<any slot>:<user|assistant>}. Only the
   * role suffix is stable.
   */
  static final String[] UNIT_KEYS = {"data-chatgpt-search-unit-key", "data-content-search-unit-key"};
  /** The message-id lists of a unit, by the same two names (space-, comma- or JSON-separated ids: row 34). */
  static final String[] UNIT_IDS = {"data-chatgpt-search-message-ids", "data-content-search-message-ids"};

  /** An assistant unit by any alias and any slot index. */
  static final String ASSISTANT_UNIT = unit("$=\":assistant\"");
  /** A user unit by any alias and any slot index. */
  static final String USER_UNIT = unit("$=\":user\"");
  /** Any unit, by any alias. */
  static final String ANY_UNIT = unit("");
  /** One exchange: the prompt and its answer (row 13). */
  static final String EXCHANGE = "[data-turn-key]";
  /** The assistant's role heading (row 13: {@code h4.sr-only[data-conversation-role=assistant]}). */
  static final String ASSISTANT_HEADING = "[data-conversation-role=\"assistant\"]";

  /** Anything inside the thread: turn sections (row 6), exchanges and units by any alias (rows 13, 34), the wrapper (row 14). */
  static final String NOT_IN_THREAD = ":not(section[data-testid^=\"conversation-turn-\"] *):not([data-message-author-role] *)"
      + ":not([data-turn-key] *):not([data-talvt-turn-state] *):not([data-app-action-timeline-scroll] *)"
      + ":not([data-chatgpt-search-unit-key] *):not([data-content-search-unit-key] *)";
  /** Row 15: a Canvas answer's CodeMirror editor is contenteditable too. */
  static final String NOT_CODEMIRROR = ":not(.cm-content):not(.cm-editor *)";

  /**
   * The composer's form (rows 27, 36): marked {@code data-chatgpt-composer} in October, else the
   * form that holds an editor; never one in the thread (a user unit's edit form, row 36).
   */
  static final String[] COMPOSER_FORMS = {"form[data-chatgpt-composer]" + NOT_IN_THREAD,
      "form:has([contenteditable=\"true\"])" + NOT_IN_THREAD};

  /** The composer's editor, in any of its forms (the place a pill or Send follows in the form). */
  static final String COMPOSER_EDITOR = "#prompt-textarea" + NOT_IN_THREAD + ", form [data-composer-markdown]" + NOT_IN_THREAD
      + ", form div.ProseMirror" + NOT_IN_THREAD;

  /**
   * What no strategy may ever click because it could change the account or start another mode:
   * voice and dictation, share, delete, upgrade, links. Told by attributes (test ids, hrefs,
   * toggles), not by label, so an unknown language changes nothing.
   */
  static final String NEVER_ACCOUNT = ":not([data-testid*=\"voice\"]):not([data-testid*=\"speech\"]):not([data-testid*=\"dictat\"])"
      + ":not([data-testid*=\"share\"]):not([data-testid*=\"delete\"]):not([data-testid*=\"upgrade\"]):not([href])"
      + ":not([aria-pressed]):not([role=\"switch\"])";
  /** A plain action button: safe, and no menu opener (a pill, the "+" menu). */
  static final String PLAIN_ACTION = NEVER_ACCOUNT + ":not([aria-haspopup]):not([aria-expanded])";

  /** {@code css} under each composer form, joined as one selector list. */
  static String inComposerForm(String css) {
    StringBuilder sb = new StringBuilder();
    for (String form : COMPOSER_FORMS) {
      sb.append(sb.length() == 0 ? "" : ", ").append(form).append(' ').append(css);
    }
    return sb.toString();
  }

  private static String unit(String match) {
    return "[" + UNIT_KEYS[0] + match + "], [" + UNIT_KEYS[1] + match + "]";
  }
}

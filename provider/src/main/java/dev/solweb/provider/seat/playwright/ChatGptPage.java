package dev.solweb.provider.seat.playwright;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.PlaywrightException;
import com.microsoft.playwright.options.LoadState;
import com.microsoft.playwright.options.WaitForSelectorState;
import dev.solweb.provider.model.Effort;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The ONE place that knows what the ChatGPT page looks like: every selector, every banner text,
 * every URL rule (see ../shared/CHATGPT-DOM.md for where each comes from). It offers verbs and
 * observations; deciding what they mean for a turn is {@link PlaywrightSeat}'s job. The live UI
 * drifts, so selectors prefer data-testid, ids, aria and roles over layout classes.
 *
 * <p>Confined to the seat's thread, like the {@link Page} it wraps.
 */
final class ChatGptPage {

  // ---- Selectors -------------------------------------------------------------------------

  static final String COMPOSER = "#prompt-textarea";
  /** The composer's file upload input (CHATGPT-DOM.md "Other": input#upload-files[type=file][multiple]). */
  static final String UPLOAD_FILES = "input#upload-files[type=\"file\"]";
  /** An image the assistant generated, inside its message (alt text as the live page sets it). */
  static final String GENERATED_IMAGE = "img[alt=\"Generated image\"], img[alt^=\"Generated image\"]";
  static final String SEND_BUTTON = "button[data-testid=\"send-button\"]";
  /** Stop shares #composer-submit-button with Send; the aria fallback is scoped to the form. */
  static final String STOP_BUTTON = "button[data-testid=\"stop-button\"], button[data-testid=\"composer-stop-button\"]";
  static final String ASSISTANT_MESSAGE = "[data-message-author-role=\"assistant\"][data-message-id]";
  static final String TURN = "[data-testid^=\"conversation-turn-\"]";
  static final String COPY_TURN = "[data-testid=\"copy-turn-action-button\"]";
  static final String LOGIN_BUTTON = "[data-testid=\"login-button\"]";
  static final String EFFORT_PILL =
      "[data-composer-surface=\"true\"] button.__composer-pill[aria-haspopup=\"menu\"]";
  static final String EFFORT_LABEL = "#thinking-effort-selection-label";
  static final String MENU_OPEN = "[data-radix-menu-content][data-state=\"open\"][role=\"menu\"]";
  static final String EFFORT_ITEM = "[data-model-picker-thinking-effort-action=\"true\"], [role=\"menuitemradio\"]";

  // ---- Texts -----------------------------------------------------------------------------

  private static final Pattern TOO_LONG = Pattern.compile("message you submitted was too long", Pattern.CASE_INSENSITIVE);
  private static final Pattern CAP_DOWNGRADE = Pattern.compile(
      "responses will use another model|hit the .{0,40}plan limit", Pattern.CASE_INSENSITIVE);
  private static final Pattern CAP = Pattern.compile(
      "reached (?:our|the current|your) (?:limit|usage cap)|limit of messages|usage cap"
          + "|too many requests|sending too many requests|too quickly|temporarily limited access"
          + "|limit resets|plan limit",
      Pattern.CASE_INSENSITIVE);
  private static final Pattern ERROR = Pattern.compile(
      "something went wrong|error generating a response|network error occurred|message delivery timed out"
          + "|connection interrupted|thinking failed|stream cache expired|resume stream unavailable"
          + "|error in message stream|analysis errored|maximum conversation length",
      Pattern.CASE_INSENSITIVE);
  private static final Pattern MISSING = Pattern.compile(
      "unable to load conversation|conversation not found|conversation you requested does not exist",
      Pattern.CASE_INSENSITIVE);
  /** Transient status lines a turn shows while it works; they are not answer text. */
  private static final Pattern STATUS_LINE = Pattern.compile(
      "^(?:thinking|reasoning|thought for .*|pro thinking|answer now|думаю|размышляю|réflexion|denkt nach)\\s*…?\\.{0,3}$",
      Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE | Pattern.MULTILINE);
  /** A durable conversation path: /c/<id>, also inside a custom GPT or project (/g/<slug>/c/<id>). */
  private static final Pattern DURABLE_PATH = Pattern.compile("^(/g/[A-Za-z0-9_-]+)?/c/([0-9A-Za-z][0-9A-Za-z-]{7,})$");

  // ---- Page scripts ----------------------------------------------------------------------

  /**
   * Installed in every document: while armed, the page's own clipboard writes (its Copy buttons)
   * land in a variable instead of the OS clipboard, so the copy button yields the raw markdown.
   */
  static final String INIT_SCRIPT = """
      (() => {
        const cb = navigator.clipboard;
        if (!cb || cb.__solweb) return;
        const writeText = cb.writeText ? cb.writeText.bind(cb) : null;
        const write = cb.write ? cb.write.bind(cb) : null;
        cb.writeText = function (t) {
          if (window.__solwebArmed) { window.__solwebCopied = String(t); return Promise.resolve(); }
          return writeText(t);
        };
        cb.write = async function (items) {
          if (window.__solwebArmed) {
            for (const it of items) {
              if (it.types.includes('text/plain')) {
                window.__solwebCopied = await (await it.getType('text/plain')).text();
                return;
              }
            }
            return;
          }
          return write(items);
        };
        cb.__solweb = true;
      })();
      """;

  private static final String SNAPSHOT = """
      ([baseline, sel]) => {
        const visible = (el) => !!el && !!(el.offsetWidth || el.offsetHeight || el.getClientRects().length);
        const composer = document.querySelector(sel.composer);
        const stopEl = document.querySelector(sel.stop)
          || Array.from(document.querySelectorAll('form button[aria-label^="Stop"]')).find(b => !/dictat|voice|read aloud|listen/i.test(b.getAttribute('aria-label') || ''));
        const send = document.querySelector(sel.send);
        const base = new Set(baseline);
        const all = Array.from(document.querySelectorAll(sel.assistant));
        const fresh = all.filter(m => !base.has(m.getAttribute('data-message-id')));
        const out = {
          url: location.href, title: document.title, settled: !!window.__solwebSettled,
          composer: visible(composer), stop: visible(stopEl),
          sendEnabled: visible(send) && !send.disabled && send.getAttribute('aria-disabled') !== 'true',
          login: visible(document.querySelector(sel.login)),
          // "Verify you are human" only counts on a short page without a composer: reading a long
          // conversation's whole text every poll would cost more than the poll.
          challenge: /just a moment|attention required/i.test(document.title)
            || !!document.querySelector('#challenge-form, iframe[src*="challenges.cloudflare.com"]')
            || (!composer && !!document.body && document.body.textContent.length < 5000
                && /verify you are human/i.test(document.body.textContent)),
          turns: document.querySelectorAll(sel.turn).length,
          assistantIds: all.map(m => m.getAttribute('data-message-id')),
          targetId: null, targetText: null, targetSlug: null, actionBar: false, banners: [],
        };
        if (fresh.length) {
          const last = fresh[fresh.length - 1];
          const turn = last.closest(sel.turn) || last.parentElement;
          const msgs = Array.from(turn.querySelectorAll(sel.assistant));
          out.targetId = last.getAttribute('data-message-id');
          out.targetSlug = last.getAttribute('data-message-model-slug');
          out.targetText = msgs.map(m => { const md = m.querySelector('.markdown'); return md ? md.innerText : ''; }).join('\\n');
          out.actionBar = visible(turn.querySelector(sel.copyTurn));
        }
        const bannerSel = '[role="alert"],[role="status"],[aria-live],[data-testid*="toast"],[data-testid*="banner"],'
          + '[data-testid*="error"],div.toast-root,div[class*="text-error"],.text-token-text-error';
        const seen = new Set();
        for (const el of document.querySelectorAll(bannerSel)) {
          if (!visible(el)) continue;
          const t = (el.innerText || '').trim();
          if (t && t.length < 2000 && !seen.has(t)) { seen.add(t); out.banners.push(t); }
        }
        return out;
      }
      """;

  private static final String PASTE = """
      (text) => {
        const el = document.querySelector('#prompt-textarea');
        if (!el) return null;
        el.focus();
        const range = document.createRange();
        range.selectNodeContents(el);
        range.collapse(false);
        const sel = window.getSelection();
        sel.removeAllRanges();
        sel.addRange(range);
        const dt = new DataTransfer();
        dt.setData('text/plain', text);
        el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
        const ps = el.querySelectorAll(':scope > p');
        return ps.length ? Array.from(ps, p => p.textContent).join('\\n') : el.innerText;
      }
      """;

  /** ProseMirror holds one <p> per line; its text is what Send submits. */
  private static final String COMPOSER_TEXT = """
      () => {
        const el = document.querySelector('#prompt-textarea');
        if (!el) return null;
        const ps = el.querySelectorAll(':scope > p');
        if (ps.length) return Array.from(ps, p => p.textContent).join('\\n');
        return el.innerText;
      }
      """;

  private static final String DOM_BLOCKS = """
      ([id, turnSel]) => {
        const msg = document.querySelector('[data-message-id="' + CSS.escape(id) + '"]');
        if (!msg) return null;
        const turn = msg.closest(turnSel) || msg;
        const blocks = [];
        for (const pre of turn.querySelectorAll('.markdown pre')) {
          const cm = pre.querySelector('.cm-content');
          if (cm) {
            const lines = cm.querySelectorAll('.cm-line');
            blocks.push(lines.length ? Array.from(lines, l => l.textContent).join('\\n') : cm.innerText);
          } else {
            const code = pre.querySelector('code');
            blocks.push((code || pre).textContent.replace(/\\n$/, ''));
          }
        }
        const prose = Array.from(turn.querySelectorAll('.markdown')).map(md => {
          const clone = md.cloneNode(true);
          clone.querySelectorAll('pre').forEach(p => p.remove());
          return clone.innerText;
        }).join('\\n').trim();
        return { blocks, prose };
      }
      """;

  private static final String SESSION = """
      async () => {
        try {
          const r = await fetch('/api/auth/session', { credentials: 'include' });
          if (!r.ok) return { known: false };
          const j = await r.json();
          return { known: true, email: (j && j.user && (j.user.email || j.user.name)) || null };
        } catch (e) { return { known: false }; }
      }
      """;

  private static final Map<String, String> SELECTORS = Map.of(
      "composer", COMPOSER, "stop", STOP_BUTTON, "send", SEND_BUTTON, "assistant", ASSISTANT_MESSAGE,
      "turn", TURN, "copyTurn", COPY_TURN, "login", LOGIN_BUTTON);

  private final Page page;
  private final URI chatUrl;

  ChatGptPage(Page page, URI chatUrl) {
    this.page = page;
    this.chatUrl = chatUrl;
  }

  // ---- Observations ----------------------------------------------------------------------

  /** What the page shows, with the answer turn taken as the newest assistant message not in {@code baseline}. */
  record State(
      String url,
      boolean settled,
      String title,
      boolean composer,
      boolean stopVisible,
      boolean sendEnabled,
      boolean loginWall,
      boolean challenge,
      int turns,
      Set<String> assistantIds,
      String targetId,
      String targetText,
      String targetSlug,
      boolean actionBar,
      List<String> banners) {

    /** Whether a banner shows a cap, an error or a refusal (which a reload clears once it is stale). */
    boolean faultShown() {
      return banners.stream().map(ChatGptPage::classify).anyMatch(k -> k != Banner.OTHER);
    }

    /** The first banner of the given kind, if any. */
    Optional<String> banner(Banner kind) {
      return banners.stream().filter(t -> classify(t) == kind).findFirst();
    }
  }

  /** What a banner or toast means. */
  enum Banner { CAP_DOWNGRADE, CAP, TOO_LONG, ERROR, MISSING, OTHER }

  static Banner classify(String text) {
    if (TOO_LONG.matcher(text).find()) {
      return Banner.TOO_LONG;
    }
    if (CAP_DOWNGRADE.matcher(text).find()) {
      return Banner.CAP_DOWNGRADE;
    }
    if (CAP.matcher(text).find()) {
      return Banner.CAP;
    }
    if (MISSING.matcher(text).find()) {
      return Banner.MISSING;
    }
    if (ERROR.matcher(text).find()) {
      return Banner.ERROR;
    }
    return Banner.OTHER;
  }

  @SuppressWarnings("unchecked")
  State state(Collection<String> baseline) {
    Map<String, Object> m = (Map<String, Object>) evaluate(SNAPSHOT, List.of(List.copyOf(baseline), SELECTORS));
    String text = (String) m.get("targetText");
    return new State(
        (String) m.get("url"),
        bool(m.get("settled")),
        (String) m.get("title"),
        bool(m.get("composer")),
        bool(m.get("stop")),
        bool(m.get("sendEnabled")),
        bool(m.get("login")),
        bool(m.get("challenge")),
        ((Number) m.get("turns")).intValue(),
        new HashSet<>((List<String>) m.get("assistantIds")),
        (String) m.get("targetId"),
        text == null ? null : withoutStatusLines(text),
        (String) m.get("targetSlug"),
        bool(m.get("actionBar")),
        new ArrayList<>((List<String>) m.get("banners")));
  }

  private static boolean bool(Object o) {
    return Boolean.TRUE.equals(o);
  }

  static String withoutStatusLines(String text) {
    return STATUS_LINE.matcher(text).replaceAll("").strip();
  }

  /** Marks this document as observed settled; a navigation starts a new, unmarked one. */
  void markSettled() {
    evaluate("() => { window.__solwebSettled = true; }", null);
  }

  /** The logged-in account from the page's own session endpoint (never its token). */
  @SuppressWarnings("unchecked")
  Session session() {
    Map<String, Object> m = (Map<String, Object>) page.evaluate(SESSION);
    return new Session(bool(m.get("known")), (String) m.get("email"));
  }

  /** known false: the session endpoint did not answer; email null with known true: a guest. */
  record Session(boolean known, String email) {}

  // ---- Navigation and URLs ---------------------------------------------------------------

  void openHome() {
    page.navigate(chatUrl.toString());
  }

  void open(String conversationUrl) {
    page.navigate(conversationUrl);
  }

  void reload() {
    page.reload();
  }

  /** The page's own location (page.url() only updates when Playwright dispatches events). */
  String url() {
    return (String) evaluate("() => location.href", null);
  }

  boolean onSite() {
    URI now = URI.create(page.url());
    return sameOrigin(now, chatUrl);
  }

  /**
   * The durable conversation URL the page is on (scheme, host, path; no query or hash), or empty
   * while it shows a home page or a transient {@code /c/WEB:<id>} creation URL.
   */
  Optional<String> durableUrl(String url) {
    URI uri;
    try {
      uri = URI.create(url);
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    if (!sameOrigin(uri, chatUrl) || uri.getRawPath() == null) {
      return Optional.empty();
    }
    Matcher m = DURABLE_PATH.matcher(uri.getRawPath());
    if (!m.matches()) {
      return Optional.empty();
    }
    return Optional.of(uri.getScheme() + "://" + uri.getRawAuthority() + uri.getRawPath());
  }

  /**
   * The durable URL of conversation {@code id} as the stream named it: the site's {@code /c/<id>}
   * (the address bar may never show it: REAL-PAGE.md row 9), or empty for an id that is not one.
   */
  Optional<String> conversationUrl(String id) {
    if (id == null || !id.matches("[0-9A-Za-z][0-9A-Za-z-]{7,}")) {
      return Optional.empty();
    }
    return Optional.of(chatUrl.getScheme() + "://" + chatUrl.getRawAuthority() + "/c/" + id);
  }

  private static boolean sameOrigin(URI a, URI b) {
    return a.getScheme() != null && a.getScheme().equalsIgnoreCase(b.getScheme())
        && a.getHost() != null && a.getHost().equalsIgnoreCase(b.getHost())
        && effectivePort(a) == effectivePort(b);
  }

  private static int effectivePort(URI u) {
    return u.getPort() != -1 ? u.getPort() : "https".equalsIgnoreCase(u.getScheme()) ? 443 : 80;
  }

  // ---- Composer --------------------------------------------------------------------------

  /** Empties the composer with the keyboard, as a user would (the editor owns its DOM). */
  void clearComposer() {
    String now = composerText();
    if (now != null && !now.isEmpty()) {
      Locator composer = page.locator(COMPOSER);
      composer.click(new Locator.ClickOptions().setTimeout(5_000));
      page.keyboard().press("Control+A");
      page.keyboard().press("Delete");
    }
  }

  /**
   * Puts {@code text} into the composer by a synthetic paste event (the editor's own paste path:
   * one event, any length; {@code fill} takes seconds for 100 KB of lines); if the editor ignored
   * it, by the real clipboard and Control+V. Returns the composer's text read back afterwards
   * (one round trip on the fast path), or null when there is no composer.
   */
  String paste(String text) {
    String now = (String) evaluate(PASTE, text);
    if (now != null && now.isEmpty()) {
      // The editor ignored the synthetic event: the real clipboard (permission granted) and a key.
      page.evaluate("(t) => navigator.clipboard.writeText(t)", text);
      page.locator(COMPOSER).click(new Locator.ClickOptions().setTimeout(5_000));
      page.keyboard().press("Control+V");
      now = composerText();
    }
    return now;
  }

  /** The composer's text as Send would submit it: its paragraphs joined by newlines. */
  String composerText() {
    return (String) evaluate(COMPOSER_TEXT, null);
  }

  /**
   * Evaluates an observation script, riding out a navigation in progress (a challenge redirect, a
   * reload): the old document's context is destroyed mid-call, which is a page state, not a fault.
   */
  private Object evaluate(String script, Object arg) {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (true) {
      try {
        return page.evaluate(script, arg);
      } catch (PlaywrightException e) {
        String msg = String.valueOf(e.getMessage());
        boolean navigating = msg.contains("Execution context was destroyed") || msg.contains("navigation")
            || msg.contains("Cannot find context");
        if (!navigating || System.nanoTime() > deadline || page.isClosed()) {
          throw e;
        }
        try {
          page.waitForLoadState(LoadState.DOMCONTENTLOADED, new Page.WaitForLoadStateOptions().setTimeout(5_000));
        } catch (PlaywrightException ignored) {
          // Try the script again; the deadline bounds this.
        }
      }
    }
  }

  // ---- Attachments and images ---------------------------------------------------------------

  /** Hands files to the composer's upload input, as a file picker would. */
  void attach(List<java.nio.file.Path> files) {
    page.locator(UPLOAD_FILES).first().setInputFiles(files.toArray(java.nio.file.Path[]::new),
        new Locator.SetInputFilesOptions().setTimeout(10_000));
  }

  /** Absolute URLs of the images generated in the assistant message {@code messageId}, in page order. */
  @SuppressWarnings("unchecked")
  List<String> imageUrls(String messageId) {
    Object out = evaluate("""
        ([id, sel]) => {
          const m = document.querySelector('[data-message-author-role="assistant"][data-message-id="' + CSS.escape(id) + '"]');
          if (!m) return [];
          const turn = m.closest('[data-testid^="conversation-turn-"]') || m;
          return Array.from(turn.querySelectorAll(sel), (img) => img.currentSrc || img.src).filter((u) => !!u);
        }""", List.of(messageId, GENERATED_IMAGE));
    return out == null ? List.of() : new ArrayList<>((List<String>) out);
  }

  /**
   * The bytes behind an image URL, fetched with the page's own cookies (the browser context's
   * request client), so a signed-in file service answers as it does for the page.
   */
  Image download(String url) {
    com.microsoft.playwright.APIResponse r = page.request().get(url,
        com.microsoft.playwright.options.RequestOptions.create().setTimeout(30_000));
    try {
      if (!r.ok()) {
        throw new PlaywrightException("image " + url + " answered HTTP " + r.status());
      }
      return new Image(r.body(), r.headers().getOrDefault("content-type", ""));
    } finally {
      r.dispose();
    }
  }

  /** A downloaded image: its bytes and the content type the site gave. */
  record Image(byte[] bytes, String contentType) { }

  void clickSend() {
    page.locator(SEND_BUTTON).first().click(new Locator.ClickOptions().setTimeout(5_000));
  }

  void clickStop() {
    page.locator(STOP_BUTTON).first().click(new Locator.ClickOptions().setTimeout(5_000));
  }

  // ---- Effort ----------------------------------------------------------------------------

  /** The effort label the composer pill shows now, or null when there is no pill. */
  String effortLabel() {
    return (String) evaluate("""
        ([pillSel, labelSel]) => {
          const pill = document.querySelector(pillSel);
          if (!pill) return null;
          const label = pill.querySelector(labelSel);
          return (label ? label.innerText : pill.innerText).trim();
        }
        """, List.of(EFFORT_PILL, EFFORT_LABEL));
  }

  /**
   * Chooses {@code label} in the composer pill's menu and returns the label shown afterwards
   * (which may differ: the page decides). Leaves the menu closed.
   *
   * @throws IllegalStateException when there is no pill or the menu has no such entry
   */
  String chooseEffort(String label) {
    String before = effortLabel();
    if (before == null) {
      throw new IllegalStateException("no effort pill in the composer (" + EFFORT_PILL + ")");
    }
    if (before.equalsIgnoreCase(label)) {
      return before;
    }
    page.locator(EFFORT_PILL).first().click(new Locator.ClickOptions().setTimeout(5_000));
    Locator menu = page.locator(MENU_OPEN).first();
    menu.waitFor(new Locator.WaitForOptions().setState(WaitForSelectorState.VISIBLE).setTimeout(5_000));
    Locator item = menu.locator(EFFORT_ITEM).filter(new Locator.FilterOptions().setHasText(
        Pattern.compile("^\\s*" + jsRegexQuote(label) + "\\s*$", Pattern.CASE_INSENSITIVE)));
    if (item.count() == 0) {
      page.keyboard().press("Escape");
      throw new IllegalStateException("the effort menu has no entry \"" + label + "\"");
    }
    item.first().click(new Locator.ClickOptions().setTimeout(5_000));
    page.locator(MENU_OPEN).first().waitFor(
        new Locator.WaitForOptions().setState(WaitForSelectorState.HIDDEN).setTimeout(5_000));
    return effortLabel();
  }

  /**
   * Whether the model that answered is below the tier the effort asks for. ChatGPT's slugs drift,
   * so only unmistakable signs count: a mini/nano model, an instant model for a thinking effort,
   * a non-pro model for Pro. An absent slug is unknown, never a guess.
   */
  static boolean isDowngrade(Effort effort, String slug) {
    if (slug == null || slug.isBlank()) {
      return false;
    }
    String s = slug.toLowerCase(Locale.ROOT);
    if (s.contains("mini") || s.contains("nano")) {
      return true;
    }
    if (effort == Effort.PRO) {
      return !s.contains("pro");
    }
    return effort != Effort.INSTANT && s.contains("instant");
  }

  // ---- Reading the answer ----------------------------------------------------------------

  /**
   * Clicks the answer turn's copy button with the page's clipboard writes intercepted and
   * returns the raw markdown it copied, or null if nothing was copied within the wait. One round
   * trip: the click and the wait happen in the page.
   */
  String copyTurnMarkdown(String messageId) {
    Object copied = evaluate(COPY_TURN_MARKDOWN, List.of(messageId, TURN, COPY_TURN));
    return copied instanceof String s ? s : null;
  }

  private static final String COPY_TURN_MARKDOWN = """
      async ([id, turnSel, copySel]) => {
        const msg = document.querySelector('[data-message-id="' + CSS.escape(id) + '"]');
        const turn = msg && (msg.closest(turnSel) || msg.parentElement);
        const buttons = turn ? turn.querySelectorAll(copySel) : [];
        const button = buttons[buttons.length - 1];
        if (!button) return null;
        window.__solwebCopied = null;
        window.__solwebArmed = true;
        try {
          button.click();
          const end = Date.now() + 2000;
          while (window.__solwebCopied === null && Date.now() < end) {
            await new Promise((r) => setTimeout(r, 10));
          }
          return window.__solwebCopied;
        } finally {
          window.__solwebArmed = false;
        }
      }
      """;

  /** Whether the page shows a message with this id. */
  boolean hasMessage(String messageId) {
    return Boolean.TRUE.equals(evaluate("(id) => !!document.querySelector('[data-message-id=\"' + CSS.escape(id) + '\"]')", messageId));
  }

  /** The fallback: per-block CodeMirror or pre/code text, and the prose outside blocks. */
  @SuppressWarnings("unchecked")
  MarkdownFences.Split domBlocks(String messageId) {
    Map<String, Object> m = (Map<String, Object>) page.evaluate(DOM_BLOCKS, List.of(messageId, TURN));
    if (m == null) {
      return new MarkdownFences.Split(List.of(), "");
    }
    return new MarkdownFences.Split((List<String>) m.get("blocks"), withoutStatusLines((String) m.get("prose")));
  }

  /** Playwright hands the pattern to JavaScript, which has no \\Q...\\E quoting. */
  private static String jsRegexQuote(String s) {
    return s.replaceAll("[\\\\^$.|?*+()\\[\\]{}]", "\\\\$0");
  }

}

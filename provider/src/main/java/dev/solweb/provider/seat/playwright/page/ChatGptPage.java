package dev.solweb.provider.seat.playwright.page;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.PlaywrightException;
import com.microsoft.playwright.options.LoadState;
import com.microsoft.playwright.options.WaitForSelectorState;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.playwright.page.PageVerdicts.Verdict;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The ONE place that knows what the ChatGPT page looks like: every selector, every text, every
 * URL rule (REAL-PAGE.md and CHATGPT-DOM.md say where each comes from; how each control is found
 * is {@link Controls}' ordered strategies and {@link Labels}' names, the page scripts are in
 * {@link PageScripts}, {@link AnswerScripts} and {@link MenuScripts}, the banner table in
 * {@link PageVerdicts}, the effort control in {@link EffortPicker} and its labels in
 * {@link EffortLabels}). It offers verbs and observations, one each, callable by the seat and by
 * {@code solwebctl doctor}; deciding what they mean for a turn is the seat's job.
 *
 * <p>Confined to the seat's thread, like the {@link Page} it wraps.
 */
public final class ChatGptPage {

  // ---- Selectors -------------------------------------------------------------------------
  // The controls (composer, Send, Stop, the effort pill, the answer and its Copy) are found by
  // Controls' ordered strategies; what stays here has one shape in every page seen.

  /** Images of an answer: the file service's estuary URLs (oracle) and the alt text the page sets. */
  static final String ANSWER_IMAGE = "img[src*=\"/backend-api/estuary/content\"], img[alt=\"Generated image\"],"
      + " img[alt^=\"Generated image\"]";
  static final String LOGIN_BUTTON = "[data-testid=\"login-button\"]";
  /** Every editor a page may show: the composer in each shape, a Canvas's CodeMirror (REAL-PAGE row 15). */
  public static final String EDITORS = "#prompt-textarea, [contenteditable=\"true\"], [data-composer-markdown], .cm-content";
  public static final String MENU_OPEN = EffortPicker.MENU_OPEN;
  /** An error line, also inside an assistant message ("maximum length for this conversation", REAL-PAGE row 8). */
  public static final String ERROR_LINE = "div[class*=\"text-error\"],.text-token-text-error";
  /** Where banners, toasts, dialogs and in-message errors show (oracle also scans dialogs and toasts). */
  public static final String BANNER = "[role=\"alert\"],[role=\"status\"],[aria-live],[role=\"dialog\"],[data-testid*=\"toast\"],"
      + "[data-testid*=\"banner\"],[data-testid*=\"error\"],div.toast-root,[class*=\"toast\"],[class*=\"banner\"],"
      + ERROR_LINE;
  /** Elements that mean "still working" (oracle: a shimmer, aria-busy). */
  static final String BUSY = "[aria-busy=\"true\"], .loading-shimmer, [class*=\"shimmer\"]";
  /** Rows 41, 52: the rate-limit modal over the composer, by its test id or its id (its text is localized). */
  static final String RATE_LIMIT_MODAL = "[data-testid=\"modal-conversation-history-rate-limit\"],"
      + " #modal-conversation-history-rate-limit";
  /** Row 14: where a turn shows its thinking or a finished thinking summary; its value says which. */
  static final String STREAMING_STATUS = "data-streaming-response-status";

  // ---- Texts -----------------------------------------------------------------------------

  /** A live-work label (oracle: "Thinking", "Pro thinking", "Answer now"; ru as this project reads them). */
  public static final String THINKING = "^(?:thinking|pro thinking|answer now|reasoning|думаю|размышляю|pro думает"
      + "|ответить сейчас)\\s*…?\\.{0,3}$";
  /** Transient status lines a turn shows while it works; they are not answer text. */
  private static final Pattern STATUS_LINE = Pattern.compile(
      "^(?:thinking|reasoning|thought for .*|pro thinking|answer now|думаю|размышляю|размышлял.*|réflexion|denkt nach)\\s*…?\\.{0,3}$",
      Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE | Pattern.MULTILINE);
  /** A durable conversation path: /c/<id>, also inside a custom GPT or project (/g/<slug>/c/<id>). */
  private static final Pattern DURABLE_PATH = Pattern.compile("^(/g/[A-Za-z0-9_-]+)?/c/([0-9A-Za-z][0-9A-Za-z-]{7,})$");

  private static final Map<String, String> SELECTORS = Map.of(
      "login", LOGIN_BUTTON, "banner", BANNER, "busy", BUSY, "thinking", THINKING, "modal", RATE_LIMIT_MODAL,
      "statusAttr", STREAMING_STATUS);


  private final Page page;
  private final URI chatUrl;
  private final EffortPicker effort;

  public ChatGptPage(Page page, URI chatUrl) {
    this.page = page;
    this.chatUrl = chatUrl;
    this.effort = new EffortPicker(page, this);
  }

  /** The effort control: its pill, menus and choice. */
  public EffortPicker effort() {
    return effort;
  }

  // ---- Observations ----------------------------------------------------------------------

  /** A banner, toast, dialog or in-message error the page shows, with what it means. */
  public record Banner(String text, Verdict verdict) {
    public static Banner of(String text) {
      return new Banner(text, PageVerdicts.verdict(text));
    }
  }

  /** What the page shows, with the answer turn taken as the newest assistant message not in {@code baseline}. */
  public record State(
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
      boolean thinking,
      List<Banner> banners,
      Via via) {

    /** Whether a banner shows a cap, an error or a refusal (which a reload clears once it is stale). */
    public boolean faultShown() {
      return banners.stream().anyMatch(b -> b.verdict().fault());
    }

    /** The first banner with one of the given verdicts, if any. */
    public Optional<Banner> banner(Verdict... verdicts) {
      Set<Verdict> wanted = Set.of(verdicts);
      return banners.stream().filter(b -> wanted.contains(b.verdict())).findFirst();
    }
  }

  /**
   * Which strategy found each control ({@link Controls}: {@code testid}, {@code label},
   * {@code structure}, ...; for the reply its renderer), null where none matched.
   */
  public record Via(String composer, String send, String stop, String reply) {}

  @SuppressWarnings("unchecked")
  public State state(Collection<String> baseline) {
    Map<String, Object> m = (Map<String, Object>) evaluate(PageScripts.SNAPSHOT,
        List.of(List.copyOf(baseline), SELECTORS, Controls.script()));
    Map<String, Object> via = (Map<String, Object>) m.get("via");
    // The rate-limit modal first, whatever its text says: no click goes through it.
    List<Banner> banners = new ArrayList<>();
    ((List<String>) m.get("modals")).forEach(t -> banners.add(new Banner(t, Verdict.RATE_LIMIT)));
    ((List<String>) m.get("banners")).forEach(t -> banners.add(Banner.of(t)));
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
        // A status line that says the model still works (a recovering connection, a safety review) is live work too.
        bool(m.get("thinking")) || banners.stream().anyMatch(b -> b.verdict().working()),
        banners,
        new Via((String) via.get("composer"), (String) via.get("send"), (String) via.get("stop"), (String) via.get("reply")));
  }

  /** The control its strategies find now (visible), or null. */
  public Controls.Found find(List<Controls.Strategy> strategies) {
    return Controls.Found.of(evaluate(PageScripts.FIND_CONTROL, List.of(scripts(strategies), false)));
  }

  /** As {@link #find}, visible or not (the doctor tells found from shown). */
  public Controls.Found findAny(List<Controls.Strategy> strategies) {
    return Controls.Found.of(evaluate(PageScripts.FIND_CONTROL, List.of(scripts(strategies), true)));
  }

  /**
   * For the doctor: the composer, Send and Stop each found in any visibility, by which strategy,
   * and whether the composer is editable and empty ({@code composerFound}, {@code composerVia}, ...).
   */
  @SuppressWarnings("unchecked")
  public Map<String, Object> controlsFound() {
    return (Map<String, Object>) evaluate(PageScripts.CONTROLS_FOUND,
        List.of(scripts(Controls.COMPOSER), scripts(Controls.SEND), scripts(Controls.STOP), Controls.script().get("weakStop")));
  }

  /** For the doctor's dom_variant: the page's shape marks ({@code spans}, {@code turnKey}, {@code dil}, ...; {@link PageScripts#SHAPE_MARKS}). */
  @SuppressWarnings("unchecked")
  public Map<String, Object> shapeMarks() {
    return (Map<String, Object>) evaluate(PageScripts.SHAPE_MARKS, scripts(Controls.PILL));
  }

  private static List<Map<String, Object>> scripts(List<Controls.Strategy> strategies) {
    return strategies.stream().map(Controls.Strategy::toScript).toList();
  }

  /** The banners the page shows now, each with its verdict (one table: {@link PageVerdicts}). */
  public List<Banner> banners() {
    return state(Set.of()).banners();
  }

  private static boolean bool(Object o) {
    return Boolean.TRUE.equals(o);
  }

  static String withoutStatusLines(String text) {
    return STATUS_LINE.matcher(text).replaceAll("").strip();
  }

  /** Marks this document as observed settled; a navigation starts a new, unmarked one. */
  public void markSettled() {
    evaluate("() => { window.__solwebSettled = true; }", null);
  }

  /** The logged-in account from the page's own session endpoint (never its token). */
  @SuppressWarnings("unchecked")
  public Session session() {
    Map<String, Object> m = (Map<String, Object>) page.evaluate(PageScripts.SESSION);
    return new Session(bool(m.get("known")), (String) m.get("email"), (String) m.get("plan"));
  }

  /**
   * known false: the session endpoint did not answer; email null with known true: a guest; plan
   * the account's {@code account.planType} (REAL-PAGE row 50), or null.
   */
  public record Session(boolean known, String email, String plan) {
    public Session(boolean known, String email) {
      this(known, email, null);
    }
  }

  // ---- Navigation and URLs ---------------------------------------------------------------

  public void openHome() {
    page.navigate(chatUrl.toString());
  }

  public void open(String conversationUrl) {
    page.navigate(conversationUrl);
  }

  public void reload() {
    page.reload();
  }

  /** The page's own location (page.url() only updates when Playwright dispatches events). */
  public String url() {
    return (String) evaluate("() => location.href", null);
  }

  public boolean onSite() {
    URI now = URI.create(page.url());
    return sameOrigin(now, chatUrl);
  }

  /**
   * The durable conversation URL the page is on (scheme, host, path; no query or hash), or empty
   * while it shows a home page or a transient {@code /c/WEB:<id>} creation URL.
   */
  public Optional<String> durableUrl(String url) {
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
  public Optional<String> conversationUrl(String id) {
    if (id == null || !id.matches("[0-9A-Za-z][0-9A-Za-z-]{7,}")) {
      return Optional.empty();
    }
    return Optional.of(chatUrl.getScheme() + "://" + chatUrl.getRawAuthority() + "/c/" + id);
  }

  /**
   * The durable conversation URLs the page lists in its history (sidebar), in page order: its
   * links, and row 38's link-less rows by their {@code chatgpt:conversation:<uuid>} key. When the
   * address bar never shows /c/&lt;id&gt; (onflip: 7 of 25 new chats), the row that appeared with
   * the turn is the conversation.
   */
  @SuppressWarnings("unchecked")
  public Set<String> conversationLinks() {
    Map<String, List<String>> found = (Map<String, List<String>>) evaluate(PageScripts.CONVERSATION_LINKS,
        List.of(ThreadControls.CONVERSATION_LINK, ThreadControls.CONVERSATION_ROW, ThreadControls.CONVERSATION_ROW_KEY));
    Set<String> out = new LinkedHashSet<>();
    for (String href : found.get("hrefs")) {
      durableUrl(href).ifPresent(out::add);
    }
    for (String key : found.get("keys")) {
      conversationUrl(key.substring(key.lastIndexOf(':') + 1)).ifPresent(out::add);
    }
    return out;
  }

  public static boolean sameOrigin(URI a, URI b) {
    return a.getScheme() != null && a.getScheme().equalsIgnoreCase(b.getScheme())
        && a.getHost() != null && a.getHost().equalsIgnoreCase(b.getHost())
        && effectivePort(a) == effectivePort(b);
  }

  private static int effectivePort(URI u) {
    return u.getPort() != -1 ? u.getPort() : "https".equalsIgnoreCase(u.getScheme()) ? 443 : 80;
  }

  // ---- Composer --------------------------------------------------------------------------

  /** Empties the composer with the keyboard, as a user would (the editor owns its DOM). */
  public void clearComposer() {
    String now = composerText();
    if (now != null && !now.isEmpty()) {
      focusComposerAtEnd();
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
  public String insertText(String text) {
    Controls.Found composer = find(Controls.COMPOSER);
    if (composer == null) {
      return null;
    }
    focusAtEnd(composer);
    page.keyboard().insertText(text);
    return composerText();
  }

  /**
   * The fallback when the editor ignored insertText: the real clipboard (permission granted) and
   * a real Control+V, a trusted paste. Returns the composer's text read back.
   */
  public String pasteFromClipboard(String text) {
    page.evaluate("(t) => navigator.clipboard.writeText(t)", text);
    focusComposerAtEnd();
    page.keyboard().press("Control+V");
    return composerText();
  }

  private void focusComposerAtEnd() {
    Controls.Found composer = find(Controls.COMPOSER);
    if (composer == null) {
      throw new PlaywrightException(Controls.notFound("composer", Controls.COMPOSER));
    }
    focusAtEnd(composer);
  }

  /** A real click into the composer the strategies found (never a Canvas editor, never the thread), then the caret to the end. */
  private void focusAtEnd(Controls.Found composer) {
    composer.locator(page).click(new Locator.ClickOptions().setTimeout(5_000));
    page.keyboard().press("Control+End");
  }

  /** The composer's text as Send would submit it: its paragraphs joined by newlines; null without a composer. */
  public String composerText() {
    return (String) evaluate(PageScripts.COMPOSER_TEXT, scripts(Controls.COMPOSER));
  }

  /**
   * Evaluates an observation script, riding out a navigation in progress (a challenge redirect, a
   * reload): the old document's context is destroyed mid-call, which is a page state, not a fault.
   */
  public Object evaluate(String script, Object arg) {
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

  /** An image of an answer: its URL and the file service's id (null when the URL carries none). */
  public record ImageRef(String url, String fileId) { }

  /** The images of the assistant message {@code messageId}'s turn, in page order, one per file id. */
  @SuppressWarnings("unchecked")
  public List<ImageRef> images(String messageId) {
    Object out = evaluate(AnswerScripts.IMAGES, List.of(messageId, Controls.script(), ANSWER_IMAGE));
    List<ImageRef> refs = new ArrayList<>();
    for (Map<String, Object> m : out == null ? List.<Map<String, Object>>of() : (List<Map<String, Object>>) out) {
      refs.add(new ImageRef((String) m.get("url"), (String) m.get("fileId")));
    }
    return refs;
  }

  /**
   * The bytes behind an image URL, fetched with the page's own cookies (the browser context's
   * request client), so a signed-in file service answers as it does for the page.
   */
  public Image download(String url) {
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

  /**
   * Clicks Send, found by its strategies (a test id, its label, the composer form's submit:
   * REAL-PAGE rows 11, 16, 32). Only the page's turn request proves it was Send (PageTurn).
   */
  public void clickSend() {
    Controls.Found found = find(Controls.SEND);
    if (found == null) {
      throw new PlaywrightException(Controls.notFound("Send", Controls.SEND));
    }
    Locator send = found.locator(page);
    // Playwright's click first waits for the button to hold still over two animation frames:
    // about 50 ms a turn (bench-seat), on a button the seat already saw enabled. One hit test
    // keeps the check that matters (the click lands on Send, not on an overlay), and the mouse
    // click is as trusted as Playwright's own; anything in doubt takes the checking click.
    if (send.evaluate(PageScripts.SEND_HIT_POINT, null, new Locator.EvaluateOptions().setTimeout(5_000)) instanceof Map<?, ?> point
        && point.get("x") instanceof Number x && point.get("y") instanceof Number y) {
      page.mouse().click(x.doubleValue(), y.doubleValue());
      return;
    }
    send.click(new Locator.ClickOptions().setTimeout(5_000));
  }

  /**
   * Row 52: dismisses the rate-limit modal with its one button ("Got it" in English; it is the
   * dialog's only button in any language); true when the modal is gone within two seconds.
   */
  public boolean dismissRateLimitModal() {
    Locator modal = page.locator(RATE_LIMIT_MODAL).first();
    try {
      modal.locator("button").first().click(new Locator.ClickOptions().setTimeout(2_000));
      modal.waitFor(new Locator.WaitForOptions().setState(WaitForSelectorState.DETACHED).setTimeout(2_000));
      return true;
    } catch (PlaywrightException e) {
      return page.locator(RATE_LIMIT_MODAL).count() == 0;
    }
  }

  /**
   * Clicks Stop as its strategies find it: a known Stop, else the submit slot while it is not Send
   * (September pages); with {@code turnRunning} (the page's traffic says a turn streams) also the
   * composer form's last plain button, which holds Stop only then (idle, it is the voice button).
   */
  public void clickStop(boolean turnRunning) {
    Controls.Found stop = find(turnRunning ? Controls.STOP : STOP_WITHOUT_SLOT);
    if (stop != null) {
      stop.locator(page).click(new Locator.ClickOptions().setTimeout(5_000));
    }
  }

  private static final List<Controls.Strategy> STOP_WITHOUT_SLOT = Controls.STOP.stream()
      .filter(s -> !s.via().equals(Controls.SLOT_STOP)).toList();

  /** Whether anything Stop-like shows: a Stop by test id or label, or the submit slot not being Send (never the voice slot). */
  public boolean stopLikeShown() {
    return find(STOP_WITHOUT_SLOT) != null;
  }

  // ---- Effort (EffortPicker) ------------------------------------------------------------

  /** The effort pill's label as the page shows it now, or null when there is no pill. */
  public String effortPillLabel() {
    return effort.pillLabel();
  }

  /** Reads the effort control in the menus open now, clicking nothing. */
  public EffortPicker.EffortMenu readEffortMenu() {
    return effort.read();
  }

  /** Reads the effort control, opening its menu unless one is open already, and closes what it opened. */
  public EffortPicker.EffortMenu effortPicker() throws SeatException {
    return effort.look();
  }

  /** Chooses {@code wanted} (leaving Work mode first) and returns the effort the pill reads back: {@link EffortPicker#choose}. */
  public Effort chooseEffort(Effort wanted) throws SeatException {
    return effort.choose(wanted);
  }

  /** As {@link #chooseEffort(Effort)}, choosing even when the pill already names it: {@link EffortPicker#choose(Effort, boolean)}. */
  public Effort chooseEffort(Effort wanted, boolean again) throws SeatException {
    return effort.choose(wanted, again);
  }

  /** Opens the pill's menu down to the effort control and leaves it open (capture shows it; {@link #closeMenus} after). */
  public EffortPicker.EffortMenu openToEfforts() throws SeatException {
    return effort.openToEfforts();
  }

  /** Escape until no menu is open. */
  public void closeMenus() {
    effort.closeMenus();
  }

  // ---- Reading the answer ----------------------------------------------------------------

  /** Where code blocks were read from. */
  public enum Source { COPY, DOM }

  /** A message's code blocks and prose, with their source. */
  public record CodeBlocks(List<String> blocks, String prose, Source source) {
    public MarkdownFences.Split split() {
      return new MarkdownFences.Split(blocks, prose);
    }
  }

  /** The answer's code blocks: the raw markdown through the turn's Copy first, the DOM second. */
  public CodeBlocks codeBlocks(String messageId) {
    return codeBlocks(messageId, blocks -> false);
  }

  /**
   * As {@link #codeBlocks(String)}, for a cross-check that knows what it expects: the DOM's own
   * reading of the blocks first (one evaluate), and when it already agrees exactly that is the
   * answer; else the Copy, where a copied text that agrees is taken at once, without the
   * stillness wait (a copy that agrees exactly is not a partial one), and anything else waits for
   * stillness as usual.
   */
  public CodeBlocks codeBlocks(String messageId, java.util.function.Predicate<List<String>> expected) {
    MarkdownFences.Split shown = domBlocks(messageId);
    if (expected.test(shown.blocks())) {
      return new CodeBlocks(shown.blocks(), shown.prose(), Source.DOM);
    }
    String markdown = copyTurnMarkdown(messageId, md -> expected.test(MarkdownFences.split(md).blocks()));
    if (markdown != null && !markdown.isBlank()) {
      MarkdownFences.Split split = MarkdownFences.split(markdown);
      return new CodeBlocks(split.blocks(), split.prose(), Source.COPY);
    }
    MarkdownFences.Split dom = domBlocks(messageId);
    return new CodeBlocks(dom.blocks(), dom.prose(), Source.DOM);
  }

  /**
   * Clicks the answer turn's Copy as a person would (oracle): hover the turn (its action bar only
   * takes the pointer on hover), scroll the button into view, the full trusted pointer and mouse
   * sequence of a real click; then waits for the copied text to hold still over three reads and
   * 250 ms. Returns null when nothing was copied within 2 s (the caller reads the DOM instead).
   */
  public String copyTurnMarkdown(String messageId) {
    return copyTurnMarkdown(messageId, md -> false);
  }

  /** As {@link #copyTurnMarkdown(String)}, returning at once a copied text that is {@code enough} ({@link CopyButton}). */
  public String copyTurnMarkdown(String messageId, java.util.function.Predicate<String> enough) {
    return new CopyButton(page, this).copy(messageId, enough);
  }

  /** Clicks the last answer's Regenerate ({@link RegenerateButton}); false when the page offers none there. */
  public boolean clickRegenerate() {
    return new RegenerateButton(page, this).click();
  }

  /** Whether the page shows a message with this id, by any of the answer's strategies. */
  public boolean hasMessage(String messageId) {
    return Boolean.TRUE.equals(evaluate(AnswerScripts.HAS_MESSAGE, List.of(messageId, Controls.script())));
  }

  /**
   * An answer as the DOM shows it: its code blocks (each exact), their languages from the block
   * headers, the prose outside them, and the markdown they make (DIL answers included: REAL-PAGE
   * row 14). Empty when the page shows no message with that id.
   */
  public record DomAnswer(List<String> blocks, List<String> languages, String prose, String markdown) {
    public MarkdownFences.Split split() {
      return new MarkdownFences.Split(blocks, prose);
    }
  }

  /** The fallback: per-block CodeMirror or pre/code text, and the prose outside blocks. */
  public MarkdownFences.Split domBlocks(String messageId) {
    return domAnswer(messageId).split();
  }

  @SuppressWarnings("unchecked")
  public DomAnswer domAnswer(String messageId) {
    Map<String, Object> m = (Map<String, Object>) evaluate(AnswerScripts.DOM_BLOCKS, List.of(messageId, Controls.script()));
    if (m == null) {
      return new DomAnswer(List.of(), List.of(), "", "");
    }
    return new DomAnswer((List<String>) m.get("blocks"), (List<String>) m.get("langs"),
        withoutStatusLines((String) m.get("prose")), (String) m.get("markdown"));
  }
}

package dev.solweb.provider.seat.playwright.page;

import com.microsoft.playwright.Page;
import com.microsoft.playwright.PlaywrightException;
import com.microsoft.playwright.options.LoadState;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.playwright.page.PageVerdicts.Verdict;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The ONE place that knows what the ChatGPT page looks like: every selector, every text, every
 * URL rule (REAL-PAGE.md and CHATGPT-DOM.md say where each comes from; how each control is found
 * is {@link Controls}' ordered strategies and {@link Labels}' names, acted on as a person would by
 * {@link PersonInput}; the composer's verbs are {@link ComposerInput}'s, reading answers back
 * {@link AnswerReader}'s, the URL rules {@link PageAddress}'s; the page scripts are in
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

  private static final Map<String, String> SELECTORS = Map.of(
      "login", LOGIN_BUTTON, "banner", BANNER, "busy", BUSY, "thinking", THINKING, "modal", RATE_LIMIT_MODAL,
      "statusAttr", STREAMING_STATUS);


  private final Page page;
  private final URI chatUrl;
  private final EffortPicker effort;
  private final PageAddress address;
  private final ComposerInput composer;
  private final AnswerReader answers;

  /** A page whose turns run on the newest Sol model (a login window, an inspection). */
  public ChatGptPage(Page page, URI chatUrl) {
    this(page, chatUrl, ModelRows.Wanted.SOL);
  }

  /** A page whose turns run on {@code model} (the seat's {@code SOLWEBD_MODEL}, {@link ModelRows.Wanted#parse}). */
  public ChatGptPage(Page page, URI chatUrl, ModelRows.Wanted model) {
    this.page = page;
    this.chatUrl = chatUrl;
    this.effort = new EffortPicker(page, this, model);
    this.address = new PageAddress(chatUrl, this);
    this.composer = new ComposerInput(page, this);
    this.answers = new AnswerReader(page, this);
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
   * while it shows a home page or a transient {@code /c/WEB:<id>} creation URL ({@link PageAddress}).
   */
  public Optional<String> durableUrl(String url) {
    return address.durableUrl(url);
  }

  /** The durable URL of conversation {@code id} as the stream named it, or empty for an id that is not one ({@link PageAddress}). */
  public Optional<String> conversationUrl(String id) {
    return address.conversationUrl(id);
  }

  /** The durable conversation URLs the page lists in its history (sidebar), in page order ({@link PageAddress}). */
  public Set<String> conversationLinks() {
    return address.conversationLinks();
  }

  public static boolean sameOrigin(URI a, URI b) {
    return PageAddress.sameOrigin(a, b);
  }

  // ---- Composer, Send and Stop (ComposerInput) -------------------------------------------

  /** Empties the composer with the keyboard, as a user would (the editor owns its DOM). */
  public void clearComposer() {
    composer.clear();
  }

  /** Types {@code text} into the composer a person sees with trusted input; the composer's text read back, or null without one. */
  public String insertText(String text) {
    return composer.insertText(text);
  }

  /** The fallback when the editor ignored insertText: a real clipboard paste; the composer's text read back. */
  public String pasteFromClipboard(String text) {
    return composer.pasteFromClipboard(text);
  }

  /** The composer's text as Send would submit it: its paragraphs joined by newlines; null without a composer. */
  public String composerText() {
    return composer.text();
  }

  /** Clicks Send, found by its strategies, form or no form; only the page's turn request proves it was Send (PageTurn). */
  public void clickSend() {
    composer.clickSend();
  }

  /** Row 52: dismisses the rate-limit modal with its one button; true when it is gone within two seconds. */
  public boolean dismissRateLimitModal() {
    return composer.dismissRateLimitModal();
  }

  /** Clicks Stop as its strategies find it ({@link ComposerInput#clickStop}). */
  public void clickStop(boolean turnRunning) {
    composer.clickStop(turnRunning);
  }

  /** Whether anything Stop-like shows: a Stop by test id or label, or the submit slot not being Send (never the voice slot). */
  public boolean stopLikeShown() {
    return composer.stopLikeShown();
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

  // ---- Answers and their images (AnswerReader) ------------------------------------------

  /** An image of an answer: its URL and the file service's id (null when the URL carries none). */
  public record ImageRef(String url, String fileId) { }

  /** A downloaded image: its bytes and the content type the site gave. */
  record Image(byte[] bytes, String contentType) { }

  /** Where code blocks were read from. */
  public enum Source { COPY, DOM }

  /** A message's code blocks and prose, with their source. */
  public record CodeBlocks(List<String> blocks, String prose, Source source) {
    public MarkdownFences.Split split() {
      return new MarkdownFences.Split(blocks, prose);
    }
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

  /** The images of the assistant message {@code messageId}'s turn, in page order, one per file id. */
  public List<ImageRef> images(String messageId) {
    return answers.images(messageId);
  }

  /** The bytes behind an image URL, fetched with the page's own cookies. */
  public Image download(String url) {
    return answers.download(url);
  }

  /** The answer's code blocks: the raw markdown through the turn's Copy first, the DOM second. */
  public CodeBlocks codeBlocks(String messageId) {
    return answers.codeBlocks(messageId, blocks -> false);
  }

  /** As {@link #codeBlocks(String)}, for a cross-check that knows what it expects ({@link AnswerReader#codeBlocks}). */
  public CodeBlocks codeBlocks(String messageId, java.util.function.Predicate<List<String>> expected) {
    return answers.codeBlocks(messageId, expected);
  }

  /** Clicks the answer turn's Copy as a person would and returns what it copied, or null ({@link CopyButton}). */
  public String copyTurnMarkdown(String messageId) {
    return answers.copyTurnMarkdown(messageId, md -> false);
  }

  /** As {@link #copyTurnMarkdown(String)}, returning at once a copied text that is {@code enough} ({@link CopyButton}). */
  public String copyTurnMarkdown(String messageId, java.util.function.Predicate<String> enough) {
    return answers.copyTurnMarkdown(messageId, enough);
  }

  /** Clicks the last answer's Regenerate ({@link RegenerateButton}); false when the page offers none there. */
  public boolean clickRegenerate() {
    return new RegenerateButton(page, this).click();
  }

  /** Whether the page shows a message with this id, by any of the answer's strategies. */
  public boolean hasMessage(String messageId) {
    return answers.hasMessage(messageId);
  }

  /** The fallback: per-block CodeMirror or pre/code text, and the prose outside blocks. */
  public MarkdownFences.Split domBlocks(String messageId) {
    return answers.domAnswer(messageId).split();
  }

  public DomAnswer domAnswer(String messageId) {
    return answers.domAnswer(messageId);
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
}

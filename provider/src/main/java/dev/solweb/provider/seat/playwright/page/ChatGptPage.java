package dev.solweb.provider.seat.playwright.page;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.PlaywrightException;
import com.microsoft.playwright.options.LoadState;
import com.microsoft.playwright.options.WaitForSelectorState;
import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.failure.ProviderFailure.Kind;
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
 * URL rule (REAL-PAGE.md and CHATGPT-DOM.md say where each comes from; the page scripts are in
 * {@link PageScripts}, the banner table in {@link PageVerdicts}, the effort labels in
 * {@link EffortLabels}). It offers verbs and observations, one each, callable by the seat and by
 * {@code solwebctl doctor}; deciding what they mean for a turn is {@link PlaywrightSeat}'s job.
 *
 * <p>Confined to the seat's thread, like the {@link Page} it wraps.
 */
public final class ChatGptPage {

  // ---- Selectors -------------------------------------------------------------------------

  public static final String COMPOSER = "#prompt-textarea";
  /** The composer's file upload input (CHATGPT-DOM.md "Other": input#upload-files[type=file][multiple]). */
  static final String UPLOAD_FILES = "input#upload-files[type=\"file\"]";
  /** Images of an answer: the file service's estuary URLs (oracle) and the alt text the page sets. */
  static final String ANSWER_IMAGE = "img[src*=\"/backend-api/estuary/content\"], img[alt=\"Generated image\"],"
      + " img[alt^=\"Generated image\"]";
  public static final String SEND_BUTTON = "button[data-testid=\"send-button\"]";
  /** The Stop selectors peers knew until August 2026; September pages match none of them (onflip). */
  public static final String STOP_BUTTON = "button[data-testid=\"stop-button\"], button[data-testid=\"composer-stop-button\"]";
  /**
   * The submit slot while it is not Send: what the seat clicks to stop a turn when no known Stop
   * shows. It is NOT a completion signal: an unknown control in that slot proves nothing.
   */
  static final String SUBMIT_SLOT_NOT_SEND = "#composer-submit-button:not([data-testid=\"send-button\"]):not([disabled])";
  static final String ASSISTANT_MESSAGE = "[data-message-author-role=\"assistant\"][data-message-id]";
  public static final String TURN = "[data-testid^=\"conversation-turn-\"]";
  static final String COPY_TURN = "[data-testid=\"copy-turn-action-button\"]";
  static final String LOGIN_BUTTON = "[data-testid=\"login-button\"]";
  /**
   * The effort pill: a menu button in the composer surface that is not the "+" button. July and
   * August pages give it the __composer-pill class; September ones only data-tone (onflip).
   */
  public static final String EFFORT_PILL = "[data-composer-surface=\"true\"] button[aria-haspopup=\"menu\"]"
      + ":not(#composer-plus-btn):not([data-testid=\"composer-plus-btn\"])";
  public static final String MENU_OPEN = "[data-radix-menu-content][data-state=\"open\"][role=\"menu\"]";
  static final String MENU_RADIO = MENU_OPEN + " [role=\"menuitemradio\"]";
  static final String MENU_OPENER = MENU_OPEN + " [role=\"menuitem\"][aria-haspopup=\"menu\"]";
  static final String EFFORT_SLIDER = "[data-testid=\"composer-model-picker-slider-simple-view\"] [role=\"slider\"], "
      + MENU_OPEN + " [role=\"slider\"]";
  /** An error line, also inside an assistant message ("maximum length for this conversation", REAL-PAGE row 8). */
  public static final String ERROR_LINE = "div[class*=\"text-error\"],.text-token-text-error";
  /** Where banners, toasts, dialogs and in-message errors show (oracle also scans dialogs and toasts). */
  public static final String BANNER = "[role=\"alert\"],[role=\"status\"],[aria-live],[role=\"dialog\"],[data-testid*=\"toast\"],"
      + "[data-testid*=\"banner\"],[data-testid*=\"error\"],div.toast-root,[class*=\"toast\"],[class*=\"banner\"],"
      + ERROR_LINE;
  /** Elements that mean "still working" (oracle: a shimmer, aria-busy). */
  static final String BUSY = "[aria-busy=\"true\"], .loading-shimmer, [class*=\"shimmer\"]";
  /** The history sidebar's conversation links. */
  static final String CONVERSATION_LINK = "nav a[href*=\"/c/\"], [data-testid^=\"history-item\"] a[href*=\"/c/\"],"
      + " a[data-testid^=\"history-item\"][href*=\"/c/\"]";

  // ---- Texts -----------------------------------------------------------------------------

  /** A live-work label (oracle: "Thinking", "Pro thinking", "Answer now"; ru as this project reads them). */
  public static final String THINKING = "^(?:thinking|pro thinking|answer now|reasoning|думаю|размышляю|pro думает"
      + "|ответить сейчас)\\s*…?\\.{0,3}$";
  /** Submenu openers that lead to the efforts (August 2026: Advanced -> Effort). */
  private static final Pattern EFFORT_OPENER_TEXT = Pattern.compile(
      "^(?:advanced|effort|thinking effort|дополнительно|усилие|уровень размышлений)", Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
  /** Transient status lines a turn shows while it works; they are not answer text. */
  private static final Pattern STATUS_LINE = Pattern.compile(
      "^(?:thinking|reasoning|thought for .*|pro thinking|answer now|думаю|размышляю|réflexion|denkt nach)\\s*…?\\.{0,3}$",
      Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE | Pattern.MULTILINE);
  /** A durable conversation path: /c/<id>, also inside a custom GPT or project (/g/<slug>/c/<id>). */
  private static final Pattern DURABLE_PATH = Pattern.compile("^(/g/[A-Za-z0-9_-]+)?/c/([0-9A-Za-z][0-9A-Za-z-]{7,})$");

  private static final Map<String, String> SELECTORS = Map.of(
      "composer", COMPOSER, "stop", STOP_BUTTON, "send", SEND_BUTTON, "assistant", ASSISTANT_MESSAGE,
      "turn", TURN, "copyTurn", COPY_TURN, "login", LOGIN_BUTTON, "banner", BANNER, "busy", BUSY, "thinking", THINKING);
  private static final Map<String, String> MENU_SELECTORS = Map.of(
      "menu", MENU_OPEN, "radio", MENU_RADIO, "opener", MENU_OPENER, "slider", EFFORT_SLIDER);


  private final Page page;
  private final URI chatUrl;

  public ChatGptPage(Page page, URI chatUrl) {
    this.page = page;
    this.chatUrl = chatUrl;
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
      List<Banner> banners) {

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

  @SuppressWarnings("unchecked")
  public State state(Collection<String> baseline) {
    Map<String, Object> m = (Map<String, Object>) evaluate(PageScripts.SNAPSHOT, List.of(List.copyOf(baseline), SELECTORS));
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
        bool(m.get("thinking")),
        ((List<String>) m.get("banners")).stream().map(Banner::of).toList());
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
    return new Session(bool(m.get("known")), (String) m.get("email"));
  }

  /** known false: the session endpoint did not answer; email null with known true: a guest. */
  public record Session(boolean known, String email) {}

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
   * The durable conversation URLs the page links to in its history (sidebar), in page order.
   * When the address bar never shows /c/&lt;id&gt; (onflip: 7 of 25 new chats), the link that
   * appeared with the turn is the conversation: same href the app itself navigates to.
   */
  @SuppressWarnings("unchecked")
  public Set<String> conversationLinks() {
    List<String> hrefs = (List<String>) evaluate(PageScripts.CONVERSATION_LINKS, CONVERSATION_LINK);
    Set<String> out = new LinkedHashSet<>();
    for (String href : hrefs) {
      durableUrl(href).ifPresent(out::add);
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
    if (page.locator(COMPOSER).count() == 0) {
      return null;
    }
    focusComposerAtEnd();
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
    page.locator(COMPOSER).first().click(new Locator.ClickOptions().setTimeout(5_000));
    page.keyboard().press("Control+End");
  }

  /** The composer's text as Send would submit it: its paragraphs joined by newlines. */
  String composerText() {
    return (String) evaluate(PageScripts.COMPOSER_TEXT, COMPOSER);
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

  /** Hands files to the composer's upload input, as a file picker would. */
  public void attach(List<java.nio.file.Path> files) {
    page.locator(UPLOAD_FILES).first().setInputFiles(files.toArray(java.nio.file.Path[]::new),
        new Locator.SetInputFilesOptions().setTimeout(10_000));
  }

  /** An image of an answer: its URL and the file service's id (null when the URL carries none). */
  public record ImageRef(String url, String fileId) { }

  /** The images of the assistant message {@code messageId}'s turn, in page order, one per file id. */
  @SuppressWarnings("unchecked")
  public List<ImageRef> images(String messageId) {
    Object out = evaluate(PageScripts.IMAGES, List.of(messageId, TURN, ANSWER_IMAGE));
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

  public void clickSend() {
    Locator send = page.locator(SEND_BUTTON).first();
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

  /** Clicks a known Stop, else the submit slot while it is not Send (September pages). */
  public void clickStop() {
    Locator known = page.locator(STOP_BUTTON);
    Locator target = known.count() > 0 ? known.first() : page.locator(SUBMIT_SLOT_NOT_SEND).first();
    target.click(new Locator.ClickOptions().setTimeout(5_000));
  }

  /** Whether anything Stop-like shows: a known Stop or the submit slot not being Send. */
  public boolean stopLikeShown() {
    return page.locator(STOP_BUTTON + ", " + SUBMIT_SLOT_NOT_SEND).count() > 0;
  }

  // ---- Effort ----------------------------------------------------------------------------

  /** How the page offers efforts (REAL-PAGE row 1). */
  public enum PickerKind {
    /** (a) July 2026: effort rows are menuitemradios of the pill's menu. */
    MENU("menu"),
    /** (b) August 2026: Advanced -> Effort submenus behind role=menuitem openers. */
    ADVANCED_SUBMENU("advanced-submenu"),
    /** (c)/(d) September 2026: a role=slider moved by arrow keys; the radios are models. */
    SLIDER("slider"),
    UNKNOWN("unknown");

    private final String wire;

    PickerKind(String wire) {
      this.wire = wire;
    }

    /** The name doctor's JSON uses. */
    public String wire() {
      return wire;
    }
  }

  /** One effort row (or the slider's value): the label the page shows and the effort it names (null: unknown). */
  public record EffortOption(String label, Effort effort, boolean checked) { }

  /**
   * What the effort control offers: its kind, its effort rows (for a slider: the value it shows),
   * the checked one (null if none), and every other radio row (models) by label.
   */
  public record EffortMenu(PickerKind kind, List<EffortOption> options, EffortOption checked, List<String> otherRows) { }

  /** The effort pill's label as the page shows it now, or null when there is no pill. */
  @SuppressWarnings("unchecked")
  public String effortPillLabel() {
    Map<String, Object> m = (Map<String, Object>) evaluate(PageScripts.PILL, EFFORT_PILL);
    if (m == null) {
      return null;
    }
    String first = (String) m.get("first");
    String full = (String) m.get("full");
    // A badge may follow the label ("Instant" + "5.5"): the first text is the label when it maps.
    return EffortLabels.effort(first).isPresent() || EffortLabels.effort(full).isEmpty() ? first : full;
  }

  /** The effort the pill names, or empty when there is no pill or its label is not on the ladder. */
  Optional<Effort> effortShown() {
    return EffortLabels.effort(effortPillLabel());
  }

  /** Reads the effort control in the menus open now, clicking nothing (the ru capture is one such page). */
  public EffortMenu readEffortMenu() {
    return readEffortMenu(PickerKind.MENU);
  }

  @SuppressWarnings("unchecked")
  private EffortMenu readEffortMenu(PickerKind throughKind) {
    Map<String, Object> m = (Map<String, Object>) evaluate(PageScripts.MENU, MENU_SELECTORS);
    List<EffortOption> options = new ArrayList<>();
    List<String> others = new ArrayList<>();
    for (Map<String, Object> r : (List<Map<String, Object>>) m.get("radios")) {
      String first = (String) r.get("first");
      String full = (String) r.get("full");
      Optional<Effort> e = EffortLabels.effort(first).or(() -> EffortLabels.effort(full));
      if (e.isPresent()) {
        options.add(new EffortOption(EffortLabels.effort(first).isPresent() ? first : full, e.get(), bool(r.get("checked"))));
      } else {
        others.add(full);
      }
    }
    Map<String, Object> slider = (Map<String, Object>) m.get("slider");
    if (options.isEmpty() && slider != null) {
      String text = (String) slider.get("text");
      EffortOption value = new EffortOption(text, EffortLabels.effort(text).orElse(null), true);
      return new EffortMenu(PickerKind.SLIDER, List.of(value), value, others);
    }
    PickerKind kind = options.isEmpty() ? PickerKind.UNKNOWN : throughKind;
    EffortOption checked = options.stream().filter(EffortOption::checked).findFirst().orElse(null);
    return new EffortMenu(kind, options, checked, others);
  }

  /**
   * Opens the pill's menu (and the effort submenu behind Advanced -> Effort, if that is the
   * shape), reads the effort control and closes every menu with Escape. Chooses nothing.
   *
   * @throws SeatException when there is no pill or the menu never opens
   */
  public EffortMenu effortPicker() throws SeatException {
    try {
      return openToEfforts();
    } finally {
      closeMenus();
    }
  }

  /**
   * Chooses {@code wanted} and returns the effort the pill reads back afterwards, which may
   * differ (the page decides). Leaves every menu closed. Rows are clicked, openers opened and a
   * slider moved with arrow keys only: a click would snap it to wherever the mouse is.
   *
   * @throws SeatException when there is no pill, no such effort, or a label the seat cannot
   *     map; the message names the labels seen
   */
  public Effort chooseEffort(Effort wanted) throws SeatException {
    String before = effortPillLabel();
    if (before == null) {
      throw refused(wanted, "no effort pill in the composer (" + EFFORT_PILL + ")");
    }
    if (EffortLabels.effort(before).orElse(null) != wanted) {
      try {
        EffortMenu menu = openToEfforts(wanted);
        switch (menu.kind()) {
          case MENU, ADVANCED_SUBMENU -> clickEffortRow(menu, wanted);
          case SLIDER -> moveSlider(menu, wanted);
          default -> throw refused(wanted, "the effort menu shows no effort row"
              + (menu.otherRows().isEmpty() ? "" : "; rows seen: " + menu.otherRows()));
        }
      } finally {
        closeMenus();
      }
    }
    // The page confirms asynchronously: wait briefly for the pill to name the effort, then read it.
    long deadline = System.nanoTime() + 2_000_000_000L;
    String label = effortPillLabel();
    while (EffortLabels.effort(label).orElse(null) != wanted && System.nanoTime() < deadline) {
      page.waitForTimeout(30);
      label = effortPillLabel();
    }
    final String shown = label;
    return EffortLabels.effort(shown).orElseThrow(() -> refused(wanted,
        "the effort pill reads \"" + shown + "\", which is no effort the seat knows"));
  }

  /**
   * A page that offers no way to the wanted effort, or shows a label the seat cannot map: a typed
   * {@code unavailable} before anything was sent. With no wanted effort (the doctor reading the
   * menu) the detail is the reason alone.
   */
  private static SeatException refused(Effort wanted, String why) {
    return SeatException.failed(ProviderFailure.of(Kind.UNAVAILABLE,
        wanted == null ? why : "cannot set effort " + wanted.label() + ": " + why + "; nothing was sent"), false);
  }

  /** Opens the pill's menu down to the effort control and leaves it open (capture shows it; {@link #closeMenus} after). */
  public EffortMenu openToEfforts() throws SeatException {
    return openToEfforts(null);
  }

  private EffortMenu openToEfforts(Effort wanted) throws SeatException {
    Locator pill = page.locator(EFFORT_PILL).first();
    if (page.locator(EFFORT_PILL).count() == 0) {
      throw refused(wanted, "no effort pill in the composer (" + EFFORT_PILL + ")");
    }
    pill.click(new Locator.ClickOptions().setTimeout(5_000));
    waitMenus(1, wanted);
    PickerKind through = PickerKind.MENU;
    for (int depth = 0; depth < 3; depth++) {
      EffortMenu menu = readEffortMenu(through);
      if (menu.kind() != PickerKind.UNKNOWN) {
        return menu;
      }
      int opener = effortOpener();
      if (opener < 0) {
        return menu;
      }
      int open = page.locator(MENU_OPEN).count();
      page.locator(MENU_OPENER).nth(opener).click(new Locator.ClickOptions().setTimeout(5_000));
      waitMenus(open + 1, wanted);
      through = PickerKind.ADVANCED_SUBMENU;
    }
    return readEffortMenu(through);
  }

  /** The submenu opener that leads to efforts: marked by the page, else named Advanced/Effort; -1 if none. */
  @SuppressWarnings("unchecked")
  private int effortOpener() {
    Map<String, Object> m = (Map<String, Object>) evaluate(PageScripts.MENU, MENU_SELECTORS);
    List<Map<String, Object>> openers = (List<Map<String, Object>>) m.get("openers");
    for (boolean byMark : new boolean[] {true, false}) {
      for (Map<String, Object> o : openers) {
        if (bool(o.get("expanded"))) {
          continue;
        }
        boolean hit = byMark ? bool(o.get("effort")) : EFFORT_OPENER_TEXT.matcher((String) o.get("text")).find();
        if (hit) {
          return ((Number) o.get("index")).intValue();
        }
      }
    }
    return -1;
  }

  private void clickEffortRow(EffortMenu menu, Effort wanted) throws SeatException {
    Optional<EffortOption> row = menu.options().stream().filter(o -> o.effort() == wanted).findFirst();
    if (row.isEmpty()) {
      throw refused(wanted, "the effort menu offers " + menu.options().stream().map(EffortOption::label).toList()
          + ", not " + wanted.label());
    }
    // Find the row's index among all radios again (models may come first).
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> radios = (List<Map<String, Object>>) ((Map<String, Object>)
        evaluate(PageScripts.MENU, MENU_SELECTORS)).get("radios");
    for (Map<String, Object> r : radios) {
      String first = (String) r.get("first");
      String full = (String) r.get("full");
      if (EffortLabels.effort(first).or(() -> EffortLabels.effort(full)).orElse(null) == wanted) {
        page.locator(MENU_RADIO).nth(((Number) r.get("index")).intValue()).click(new Locator.ClickOptions().setTimeout(5_000));
        return;
      }
    }
    throw refused(wanted, "the effort row " + wanted.label() + " vanished before it was clicked");
  }

  private void moveSlider(EffortMenu menu, Effort wanted) throws SeatException {
    Locator slider = page.locator(EFFORT_SLIDER).first();
    slider.focus();
    EffortOption now = menu.checked();
    for (int step = 0; step < 8; step++) {
      if (now.effort() == null) {
        throw refused(wanted, "the effort slider reads \"" + now.label() + "\", which is no effort the seat knows");
      }
      if (now.effort() == wanted) {
        return;
      }
      String before = now.label();
      page.keyboard().press(now.effort().ordinal() < wanted.ordinal() ? "ArrowRight" : "ArrowLeft");
      long deadline = System.nanoTime() + 2_000_000_000L;
      do {
        now = readEffortMenu(PickerKind.SLIDER).checked();
      } while (now != null && now.label().equals(before) && System.nanoTime() < deadline && sleepBriefly());
      if (now == null || now.label().equals(before)) {
        throw refused(wanted, "the effort slider stays at \"" + before + "\"; it does not reach " + wanted.label());
      }
    }
    throw refused(wanted, "the effort slider did not reach " + wanted.label() + " in 8 steps");
  }

  private boolean sleepBriefly() {
    page.waitForTimeout(20);
    return true;
  }

  private void waitMenus(int atLeast, Effort wanted) throws SeatException {
    try {
      page.locator(MENU_OPEN).nth(atLeast - 1).waitFor(
          new Locator.WaitForOptions().setState(WaitForSelectorState.VISIBLE).setTimeout(5_000));
    } catch (PlaywrightException e) {
      throw refused(wanted, "the effort menu did not open");
    }
  }

  /** Escape until no menu is open (a few presses at most: one per submenu). */
  public void closeMenus() {
    for (int i = 0; i < 4 && page.locator(MENU_OPEN).count() > 0; i++) {
      page.keyboard().press("Escape");
      page.waitForTimeout(30);
    }
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

  /** As {@link #copyTurnMarkdown(String)}, returning at once a copied text that is {@code enough}. */
  public String copyTurnMarkdown(String messageId, java.util.function.Predicate<String> enough) {
    Locator turn = page.locator(TURN + ":has([data-message-id=\"" + messageId.replace("\"", "\\\"") + "\"])").first();
    Locator button = turn.locator(COPY_TURN).last();
    if (turn.count() == 0 || turn.locator(COPY_TURN).count() == 0) {
      return null;
    }
    page.evaluate(PageScripts.ARM_COPY);
    try {
      button.scrollIntoViewIfNeeded(new Locator.ScrollIntoViewIfNeededOptions().setTimeout(5_000));
      turn.hover(new Locator.HoverOptions().setTimeout(5_000));
      button.click(new Locator.ClickOptions().setTimeout(5_000));
      long firstBy = System.nanoTime() + 2_000_000_000L;
      long lastBy = System.nanoTime() + 10_000_000_000L;
      String last = null;
      int same = 0;
      long sameSince = 0;
      while (true) {
        String now = (String) page.evaluate(PageScripts.COPIED);
        long t = System.nanoTime();
        if (now == null) {
          if (t > firstBy) {
            return null;
          }
        } else if (enough.test(now)) {
          return now;
        } else if (now.equals(last)) {
          same++;
          if (same >= 3 && t - sameSince >= 250_000_000L) {
            return now;
          }
        } else {
          last = now;
          same = 1;
          sameSince = t;
        }
        if (t > lastBy) {
          return last;
        }
        page.waitForTimeout(50);
      }
    } catch (PlaywrightException e) {
      return null; // the DOM is the fallback
    } finally {
      page.evaluate(PageScripts.DISARM_COPY);
    }
  }

  /** Whether the page shows a message with this id. */
  public boolean hasMessage(String messageId) {
    return Boolean.TRUE.equals(evaluate("(id) => !!document.querySelector('[data-message-id=\"' + CSS.escape(id) + '\"]')", messageId));
  }

  /** The fallback: per-block CodeMirror or pre/code text, and the prose outside blocks. */
  @SuppressWarnings("unchecked")
  public MarkdownFences.Split domBlocks(String messageId) {
    Map<String, Object> m = (Map<String, Object>) page.evaluate(PageScripts.DOM_BLOCKS, List.of(messageId, TURN));
    if (m == null) {
      return new MarkdownFences.Split(List.of(), "");
    }
    return new MarkdownFences.Split((List<String>) m.get("blocks"), withoutStatusLines((String) m.get("prose")));
  }
}

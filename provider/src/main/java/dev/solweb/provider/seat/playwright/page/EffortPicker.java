package dev.solweb.provider.seat.playwright.page;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.PlaywrightException;
import com.microsoft.playwright.options.WaitForSelectorState;
import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.failure.ProviderFailure.Kind;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.seat.SeatException;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The effort control in every shape the page has shown (REAL-PAGE rows 1, 21, 26): the pill and
 * its menus, read and chosen. Rows are clicked, openers opened, a slider moved with arrow keys
 * only (a click would snap it to wherever the mouse is) and read back after every step (row 26:
 * once, a key press did not move it at all). A browser left in Work mode is switched to Chat
 * first (rows 21, 27); a tier shown disabled is a typed cap whose {@code resume_at} comes from its
 * tooltip (row 21). Confined to the seat's thread, like the page.
 */
public final class EffortPicker {

  /** How the page offers efforts (REAL-PAGE rows 1 and 26). */
  public enum PickerKind {
    /** (a) July 2026: effort rows are menuitemradios of the pill's menu. */
    MENU("menu"),
    /** (b) August 2026: Advanced -> Effort submenus behind role=menuitem openers. */
    ADVANCED_SUBMENU("advanced-submenu"),
    /** (c)/(d) September 2026: a role=slider moved by arrow keys; the radios are models. */
    SLIDER("slider"),
    /** October 2026: a "Power" menuitem holding an aria-hidden slider, moved by arrow keys on the item; the radios are models. */
    POWER("power"),
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

  /**
   * One effort row (or the slider's value): the label the page shows, the effort it names (null:
   * unknown), whether it is chosen, and whether the page shows it disabled (a capped tier).
   */
  public record EffortOption(String label, Effort effort, boolean checked, boolean disabled) { }

  /**
   * What the effort control offers: its kind, its effort rows (for a slider: the value it shows),
   * the checked one (null if none), every other radio row (models) by label, and a tooltip that
   * shows (a capped tier's, or null).
   */
  public record EffortMenu(PickerKind kind, List<EffortOption> options, EffortOption checked, List<String> otherRows,
      String tooltip) { }

  /**
   * An open menu: Radix's open menu content, or any {@code role=menu} not marked closed (a saved
   * page, or a build without Radix's attributes, still shows what was open).
   */
  static final String MENU_OPEN = "[role=\"menu\"]:not([data-state=\"closed\"]):not([hidden])";
  static final String MENU_RADIO = MENU_OPEN + " [role=\"menuitemradio\"]";
  static final String MENU_OPENER = MENU_OPEN + " [role=\"menuitem\"][aria-haspopup=\"menu\"]";
  static final String MENU_ITEM = MENU_OPEN + " [role=\"menuitem\"]";
  static final String EFFORT_SLIDER = "[data-testid=\"composer-model-picker-slider-simple-view\"] [role=\"slider\"], "
      + MENU_OPEN + " [role=\"slider\"], [data-radix-popper-content-wrapper] [role=\"slider\"]";
  private static final Map<String, String> MENU_SELECTORS = Map.of(
      "menu", MENU_OPEN, "radio", MENU_RADIO, "opener", MENU_OPENER, "slider", EFFORT_SLIDER, "item", MENU_ITEM);
  /** Submenu openers that lead to the efforts (August 2026: Advanced -> Effort). */
  private static final Pattern EFFORT_OPENER_TEXT = Pattern.compile(
      "^(?:advanced|effort|thinking effort|дополнительно|усилие|уровень размышлений)", Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
  /** A slider step that does not show within this is retried once, then given up on. */
  private static final long STEP_NANOS = 2_000_000_000L;

  private final Page page;
  private final ChatGptPage chat;

  EffortPicker(Page page, ChatGptPage chat) {
    this.page = page;
    this.chat = chat;
  }

  // ---- Reading ---------------------------------------------------------------------------

  /**
   * The effort pill as the page shows it now: its label, which strategy found it and its
   * language-free {@code data-selected-reasoning-effort} (null when it carries none), or null when
   * there is no pill.
   */
  public record Pill(String label, String via, String attribute) {
    /** The effort it shows: its attribute first, its label as the last resort (REAL-PAGE row 40). */
    public Optional<Effort> effort() {
      return EffortLabels.fromAttribute(attribute).or(() -> EffortLabels.effort(label));
    }
  }

  @SuppressWarnings("unchecked")
  public Pill pill() {
    Map<String, Object> m = (Map<String, Object>) chat.evaluate(PageScripts.PILL, Controls.script().get("pill"));
    if (m == null) {
      return null;
    }
    String first = (String) m.get("first");
    String full = (String) m.get("full");
    // A badge may follow the label ("Instant" + "5.5"): the first text is the label when it maps.
    String label = EffortLabels.effort(first).isPresent() || EffortLabels.effort(full).isEmpty() ? first : full;
    return new Pill(label, (String) m.get("via"), (String) m.get("attr"));
  }

  /** The effort the pill shows now, by its attribute, else its label; empty without a pill or with neither known. */
  public Optional<Effort> pillEffort() {
    Pill p = pill();
    return p == null ? Optional.empty() : p.effort();
  }

  /** The effort pill's label as the page shows it now, or null when there is no pill. */
  public String pillLabel() {
    Pill p = pill();
    return p == null ? null : p.label();
  }

  /** Whether any menu is open now. */
  public boolean menuOpen() {
    return page.locator(MENU_OPEN).count() > 0;
  }

  /** Reads the effort control in the menus open now, clicking nothing (the ru capture is one such page). */
  public EffortMenu read() {
    return read(PickerKind.MENU);
  }

  @SuppressWarnings("unchecked")
  private EffortMenu read(PickerKind throughKind) {
    Map<String, Object> m = (Map<String, Object>) chat.evaluate(MenuScripts.MENU, MENU_SELECTORS);
    List<Map<String, Object>> radios = (List<Map<String, Object>>) m.get("radios");
    Map<Integer, Effort> efforts = radioEfforts(radios, m.get("slider") == null);
    List<EffortOption> options = new ArrayList<>();
    List<String> others = new ArrayList<>();
    for (int i = 0; i < radios.size(); i++) {
      Map<String, Object> r = radios.get(i);
      Effort e = efforts.get(i);
      if (e != null) {
        options.add(new EffortOption(label(r), e, bool(r.get("checked")), bool(r.get("disabled"))));
      } else {
        others.add((String) r.get("full"));
      }
    }
    String tooltip = (String) m.get("tooltip");
    Map<String, Object> slider = (Map<String, Object>) m.get("slider");
    if (slider != null) {
      String text = (String) slider.get("text");
      boolean power = !bool(slider.get("focusable"));
      // Its value scaled to its own range first (row 40: 0..3 with Pro a separate row, or 0..4); its label last.
      Effort effort = EffortLabels.onSlider((Number) slider.get("now"), (Number) slider.get("min"), (Number) slider.get("max"))
          .or(() -> EffortLabels.effort(text)).orElse(null);
      EffortOption value = new EffortOption(text, effort, true, false);
      // A tier beside the slider (Pro as its own row) stays choosable as a row.
      List<EffortOption> all = new ArrayList<>(List.of(value));
      options.stream().filter(o -> o.effort() != effort).map(o -> new EffortOption(o.label(), o.effort(), false, o.disabled()))
          .forEach(all::add);
      return new EffortMenu(power ? PickerKind.POWER : PickerKind.SLIDER, all, value, others, tooltip);
    }
    PickerKind kind = options.isEmpty() ? PickerKind.UNKNOWN : throughKind;
    EffortOption checked = options.stream().filter(EffortOption::checked).findFirst().orElse(null);
    return new EffortMenu(kind, options, checked, others, tooltip);
  }

  /**
   * Each radio row's effort by its index: by its words, and on a menu without a slider, where some
   * rows carry words the seat cannot read (a language without a table), by its place on the
   * ladder ({@link LadderRun}). A slider's menus keep to words: their radios are models.
   */
  private static Map<Integer, Effort> radioEfforts(List<Map<String, Object>> radios, boolean byPlace) {
    Map<Integer, Effort> byWord = new HashMap<>();
    for (int i = 0; i < radios.size(); i++) {
      int index = i;
      EffortLabels.effort(label(radios.get(i))).ifPresent(e -> byWord.put(index, e));
    }
    if (!byPlace || byWord.size() == radios.size()) {
      return byWord;
    }
    List<LadderRun.Row> rows = radios.stream()
        .map(r -> new LadderRun.Row(label(r), ((Number) r.get("run")).intValue())).toList();
    return LadderRun.find(rows).orElse(byWord);
  }

  /**
   * A radio row's label: its first text when that is an effort word (a badge may follow, row 1),
   * else its whole text when that is, else its first.
   */
  private static String label(Map<String, Object> radio) {
    String first = (String) radio.get("first");
    String full = (String) radio.get("full");
    return EffortLabels.effort(first).isEmpty() && EffortLabels.effort(full).isPresent() ? full : first;
  }

  /**
   * Opens the pill's menu (and the effort submenu behind Advanced -> Effort, if that is the
   * shape), reads the effort control and closes every menu with Escape. Chooses nothing. A menu
   * already open is read as it is: clicking the pill would close it.
   *
   * @throws SeatException when there is no pill or the menu never opens
   */
  public EffortMenu look() throws SeatException {
    if (menuOpen()) {
      return read();
    }
    try {
      return openToEfforts(null);
    } finally {
      closeMenus();
    }
  }

  // ---- Choosing --------------------------------------------------------------------------

  /**
   * Chooses {@code wanted} and returns the effort the pill reads back afterwards, which may
   * differ (the page decides). Leaves every menu closed.
   *
   * @throws SeatException unavailable when there is no pill, no such effort, a label the seat
   *     cannot map or a Work-mode page that will not switch to Chat; capped when the tier is
   *     shown disabled (its tooltip's time is {@code resume_at}); the message names what it saw
   */
  public Effort choose(Effort wanted) throws SeatException {
    return choose(wanted, false);
  }

  /**
   * As {@link #choose(Effort)}; with {@code again} the choice is made even when the pill already
   * names it (the page's own request said otherwise, so the pill is not to be trusted).
   */
  public Effort choose(Effort wanted, boolean again) throws SeatException {
    leaveWorkMode(wanted);
    Pill before = pill();
    if (before == null) {
      throw refused(wanted, Controls.notFound("effort pill", Controls.PILL));
    }
    Effort slid = null;
    String clicked = null; // the label of the row clicked
    if (again || before.effort().orElse(null) != wanted) {
      try {
        EffortMenu menu = openToEfforts(wanted);
        boolean sliderHasIt = menu.checked() != null && menu.checked().effort() != null
            && EffortLabels.sliderValue(wanted, 0, sliderSteps(menu) - 1).isPresent();
        switch (menu.kind()) {
          case MENU, ADVANCED_SUBMENU -> clicked = clickRow(menu, wanted);
          case SLIDER, POWER -> {
            if (sliderHasIt || menu.options().stream().noneMatch(o -> o.effort() == wanted)) {
              slid = moveSlider(menu, wanted);
            } else {
              clicked = clickRow(menu, wanted); // Pro as its own row beside a 0..3 slider (row 40)
            }
          }
          default -> throw refused(wanted, "the effort menu shows no effort row"
              + (menu.otherRows().isEmpty() ? "" : "; rows seen: " + menu.otherRows()));
        }
      } finally {
        closeMenus();
      }
    }
    // The page confirms asynchronously: wait briefly for the pill to name the effort, then read it.
    long deadline = System.nanoTime() + 2_000_000_000L;
    Pill now = pill();
    while ((now == null || now.effort().orElse(null) != wanted) && System.nanoTime() < deadline) {
      page.waitForTimeout(30);
      now = pill();
    }
    if (now != null && now.effort().isPresent()) {
      return now.effort().get();
    }
    if (slid != null && !labelsKnown()) {
      return slid; // a pill in a language the seat has no table for: the slider's own value, read back, is the fact
    }
    if (clicked != null && now != null && clicked.equals(now.label()) && !labelsKnown()) {
      // The pill shows the word of the row clicked, a row read by its place on the ladder; the
      // page's /prepare (or the menu's checked row) proves it before Send.
      return wanted;
    }
    final String shown = now == null ? null : now.label();
    throw refused(wanted, "the effort pill reads \"" + shown + "\", which is no effort the seat knows");
  }

  /**
   * Whether the page speaks a language the seat has a label table for ({@code <html lang>}): there
   * a label off the ladder is a contradiction, never outvoted by the slider; elsewhere it is only
   * a word the seat cannot read.
   */
  public boolean labelsKnown() {
    Object lang = chat.evaluate("() => document.documentElement.lang || ''", null);
    return EffortLabels.hasTable(String.valueOf(lang));
  }

  /** How many steps the menu's slider has (its range), 5 when it does not say. */
  private int sliderSteps(EffortMenu menu) {
    Map<String, Object> slider = sliderFacts();
    if (slider == null || !(slider.get("max") instanceof Number max) || !(slider.get("min") instanceof Number min)) {
      return Effort.values().length;
    }
    return max.intValue() - min.intValue() + 1;
  }

  @SuppressWarnings("unchecked")
  private Map<String, Object> sliderFacts() {
    return (Map<String, Object>) ((Map<String, Object>) chat.evaluate(MenuScripts.MENU, MENU_SELECTORS)).get("slider");
  }

  /** The Chat/Work switch as the page shows it: whether Work is on, and the Chat button. */
  record Mode(boolean work, Controls.Found chat, boolean chatPressed) { }

  @SuppressWarnings("unchecked")
  Mode mode() {
    Map<String, Object> m = (Map<String, Object>) chat.evaluate(MenuScripts.MODE, List.of(Labels.CHAT_MODE, Labels.WORK_MODE));
    return new Mode(bool(m.get("work")), Controls.Found.of(m.get("chat")), bool(m.get("chatPressed")));
  }

  /**
   * A browser left in Work mode shows another picker (rows 21, 27): Chat is pressed first, and
   * read back; a page that stays in Work is a typed {@code unavailable} that says so.
   */
  private void leaveWorkMode(Effort wanted) throws SeatException {
    Mode m = mode();
    if (!m.work()) {
      return;
    }
    if (m.chat() == null) {
      throw refused(wanted, "the page is in Work mode (its Work button is pressed) and shows no Chat button to switch back");
    }
    m.chat().locator(page).click(new Locator.ClickOptions().setTimeout(5_000));
    long deadline = System.nanoTime() + STEP_NANOS;
    while (mode().work() && System.nanoTime() < deadline) {
      page.waitForTimeout(30);
    }
    if (mode().work()) {
      throw refused(wanted, "the page is in Work mode and stayed there after Chat was pressed");
    }
  }

  /**
   * A page that offers no way to the wanted effort, or shows a label the seat cannot map: a typed
   * {@code unavailable} before anything was sent. With no wanted effort (the doctor reading the
   * menu) the detail is the reason alone.
   */
  static SeatException refused(Effort wanted, String why) {
    return SeatException.failed(ProviderFailure.of(Kind.UNAVAILABLE,
        wanted == null ? why : "cannot set effort " + wanted.label() + ": " + why + "; nothing was sent"), false);
  }

  /**
   * The way to {@code wanted} goes through {@code tier}, which the page shows disabled: capped until
   * its tooltip's time (an estimate of an hour, said so, without one).
   */
  private static SeatException capped(Effort wanted, Effort tier, String tooltip) {
    Instant now = Instant.now();
    Optional<Instant> at = tooltip == null ? Optional.empty() : CapTimes.parse(tooltip, now, ZoneId.systemDefault());
    String detail = "cannot set effort " + wanted.label() + ": the page shows "
        + (tier == wanted ? "that tier" : "the " + tier.label() + " tier on the way") + " disabled"
        + (tooltip == null ? " with no tooltip; resume_at is an estimate" : " (\"" + tooltip + "\")")
        + (tooltip != null && at.isEmpty() ? "; the tooltip names no time, resume_at is an estimate" : "")
        + "; nothing was sent";
    return SeatException.failed(ProviderFailure.capped(detail, at.orElse(now.plusSeconds(3600)), now), false);
  }

  /** Opens the pill's menu down to the effort control and leaves it open (capture shows it; {@link #closeMenus} after). */
  public EffortMenu openToEfforts() throws SeatException {
    return openToEfforts(null);
  }

  /**
   * Opens the pill's menu and goes down to the efforts: through the opener the page marks or names
   * as the way to them, else, language-free, through each submenu opener in turn (opening a
   * submenu changes nothing), backing out of one that shows no effort control. At most
   * {@link #LOOKS} descents.
   */
  private EffortMenu openToEfforts(Effort wanted) throws SeatException {
    Set<String> lookedBehind = new HashSet<>();
    EffortMenu menu = null;
    for (int look = 0; look < LOOKS; look++) {
      if (look > 0) {
        closeMenus();
      }
      openPill(wanted);
      PickerKind through = PickerKind.MENU;
      String guess = null;
      for (int depth = 0; depth < 3; depth++) {
        menu = read(through);
        if (menu.kind() != PickerKind.UNKNOWN) {
          return menu;
        }
        int opener = effortOpener();
        if (opener < 0) {
          Opener untried = untriedOpener(depth, lookedBehind);
          if (untried == null) {
            break;
          }
          opener = untried.index();
          guess = untried.key();
        }
        int open = page.locator(MENU_OPEN).count();
        page.locator(MENU_OPENER).nth(opener).click(new Locator.ClickOptions().setTimeout(5_000));
        waitMenus(open + 1, wanted);
        through = PickerKind.ADVANCED_SUBMENU;
      }
      menu = read(through);
      if (menu.kind() != PickerKind.UNKNOWN || guess == null) {
        return menu;
      }
      lookedBehind.add(guess); // that submenu held no efforts: the next descent tries another
    }
    return menu;
  }

  /** How many times the menu is opened afresh to look behind another submenu. */
  private static final int LOOKS = 4;

  /** A submenu opener by its index among the open menus' openers, and what tells it apart across descents. */
  private record Opener(int index, String key) { }

  private void openPill(Effort wanted) throws SeatException {
    Controls.Found pill = chat.find(Controls.PILL);
    if (pill == null) {
      throw refused(wanted, Controls.notFound("effort pill", Controls.PILL));
    }
    pill.locator(page).click(new Locator.ClickOptions().setTimeout(5_000));
    waitMenus(1, wanted);
  }

  /** The first opener not expanded and not yet looked behind (at this depth), or null. */
  @SuppressWarnings("unchecked")
  private Opener untriedOpener(int depth, Set<String> lookedBehind) {
    Map<String, Object> m = (Map<String, Object>) chat.evaluate(MenuScripts.MENU, MENU_SELECTORS);
    for (Map<String, Object> o : (List<Map<String, Object>>) m.get("openers")) {
      String key = depth + ":" + o.get("text");
      if (!bool(o.get("expanded")) && !lookedBehind.contains(key)) {
        return new Opener(((Number) o.get("index")).intValue(), key);
      }
    }
    return null;
  }

  /** The submenu opener that leads to efforts: marked by the page, else named Advanced/Effort; -1 if none. */
  @SuppressWarnings("unchecked")
  private int effortOpener() {
    Map<String, Object> m = (Map<String, Object>) chat.evaluate(MenuScripts.MENU, MENU_SELECTORS);
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

  @SuppressWarnings("unchecked")
  private String clickRow(EffortMenu menu, Effort wanted) throws SeatException {
    Optional<EffortOption> row = menu.options().stream().filter(o -> o.effort() == wanted).findFirst();
    if (row.isEmpty()) {
      throw refused(wanted, "the effort menu offers " + menu.options().stream().map(EffortOption::label).toList()
          + ", not " + wanted.label());
    }
    // Find the row's index among all radios again (models may come first).
    Map<String, Object> now = (Map<String, Object>) chat.evaluate(MenuScripts.MENU, MENU_SELECTORS);
    List<Map<String, Object>> radios = (List<Map<String, Object>>) now.get("radios");
    Map<Integer, Effort> efforts = radioEfforts(radios, now.get("slider") == null);
    for (int i = 0; i < radios.size(); i++) {
      Map<String, Object> r = radios.get(i);
      if (efforts.get(i) != wanted) {
        continue;
      }
      Locator target = page.locator(MENU_RADIO).nth(((Number) r.get("index")).intValue());
      if (bool(r.get("disabled"))) {
        // A capped tier: its tooltip shows on hover and says until when (row 21).
        target.hover(new Locator.HoverOptions().setTimeout(5_000));
        throw capped(wanted, wanted, awaitTooltip());
      }
      target.click(new Locator.ClickOptions().setTimeout(5_000));
      return label(r);
    }
    throw refused(wanted, "the effort row " + wanted.label() + " vanished before it was clicked");
  }

  /** The tooltip that shows within a moment, or null. */
  private String awaitTooltip() {
    long deadline = System.nanoTime() + STEP_NANOS;
    String tip = read(PickerKind.MENU).tooltip();
    while (tip == null && System.nanoTime() < deadline) {
      page.waitForTimeout(30);
      tip = read(PickerKind.MENU).tooltip();
    }
    return tip;
  }

  /**
   * Moves the slider one arrow key at a time toward {@code wanted}, reading its value back after
   * every step. The keys go to the slider when it takes focus, else to the menuitem that holds it
   * (row 26). A step that does not show is pressed once more (row 26: once, one did nothing); a
   * step that holds while a tooltip shows is a capped tier.
   */
  private Effort moveSlider(EffortMenu menu, Effort wanted) throws SeatException {
    focusSlider();
    EffortOption now = menu.checked();
    for (int step = 0; step < 8; step++) {
      if (now.effort() == null) {
        throw refused(wanted, "the effort slider reads \"" + now.label() + "\", which is no effort the seat knows");
      }
      if (now.effort() == wanted) {
        return wanted;
      }
      boolean up = now.effort().ordinal() < wanted.ordinal();
      Effort before = now.effort();
      Effort next = Effort.values()[before.ordinal() + (up ? 1 : -1)];
      EffortOption moved = null;
      for (int press = 0; press < 2 && moved == null; press++) {
        page.keyboard().press(up ? "ArrowRight" : "ArrowLeft");
        moved = awaitMove(before);
        String tip = moved == null ? read(PickerKind.SLIDER).tooltip() : null;
        if (tip != null) {
          throw capped(wanted, next, tip);
        }
      }
      if (moved == null) {
        throw refused(wanted, "the effort slider stays at \"" + now.label() + "\" after two key presses; it does not reach "
            + wanted.label());
      }
      now = moved;
    }
    throw refused(wanted, "the effort slider did not reach " + wanted.label() + " in 8 steps");
  }

  /** The slider's value once it differs from {@code before}, or null when it held for a step's time. */
  private EffortOption awaitMove(Effort before) {
    long deadline = System.nanoTime() + STEP_NANOS;
    while (true) {
      EffortOption now = read(PickerKind.SLIDER).checked();
      if (now != null && now.effort() != before) {
        return now;
      }
      if (System.nanoTime() > deadline) {
        return null;
      }
      page.waitForTimeout(20);
    }
  }

  private void focusSlider() {
    Map<String, Object> slider = sliderFacts();
    int item = slider == null ? -1 : ((Number) slider.get("item")).intValue();
    if (slider != null && !bool(slider.get("focusable")) && item >= 0) {
      page.locator(MENU_ITEM).nth(item).focus();
    } else {
      page.locator(EFFORT_SLIDER).first().focus();
    }
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

  private static boolean bool(Object o) {
    return Boolean.TRUE.equals(o);
  }
}

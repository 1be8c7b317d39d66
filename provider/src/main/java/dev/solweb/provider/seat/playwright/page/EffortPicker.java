package dev.solweb.provider.seat.playwright.page;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.PlaywrightException;
import com.microsoft.playwright.options.WaitForSelectorState;
import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.failure.ProviderFailure.Kind;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.seat.SeatException;
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
  /** A slider step that does not show within this is retried once, then given up on. */
  static final long STEP_NANOS = 2_000_000_000L;

  private final Page page;
  private final ChatGptPage chat;
  private final ModelPicker models;
  private final EffortSlider slider;
  private final WorkMode workMode;
  private final EffortProbe probe;

  EffortPicker(Page page, ChatGptPage chat, ModelRows.Wanted model) {
    this.page = page;
    this.chat = chat;
    // SOLWEBD_MODEL (PlaywrightOptions.model): another family or one row instead of the newest Sol (rows 61, 62).
    this.models = new ModelPicker(page, chat, model);
    this.slider = new EffortSlider(page, chat, this);
    this.workMode = new WorkMode(page, chat);
    this.probe = new EffortProbe(page, chat);
  }

  /** Effort rows no word or place names, tried one by one and named by the page's /prepare ({@link EffortProbe}). */
  public EffortProbe probe() {
    return probe;
  }

  /** The model step: the row chosen before the effort, and the proof of the page's slug for it. */
  public ModelPicker models() {
    return models;
  }

  /** What this account's picker offers: {@link ModelOffers#read}. */
  public dev.solweb.provider.seat.ModelOffer offer() throws SeatException {
    return ModelOffers.read(this);
  }

  /** The model step alone: opens the pill's menu, chooses the row for {@code effort} ({@link ModelPicker}), closes it. */
  ModelRows.Choice chooseModel(Effort effort) throws SeatException {
    try {
      openPill(effort);
      return models.choose(effort);
    } finally {
      closeMenus();
    }
  }

  /** How many steps the open menu's slider has (its range). */
  int sliderSteps() {
    return slider.steps();
  }

  static Map<String, String> menuSelectors() {
    return MENU_SELECTORS;
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
      return EffortLabels.fromAttribute(attribute).or(() -> EffortLabels.effort(label)).or(() -> EffortLabels.trailing(label));
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
  EffortMenu read(PickerKind throughKind) {
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
    probe.reset();
    workMode.leave(wanted);
    if (again || models.needsChoice(wanted)) {
      chooseModel(wanted); // the model first: its efforts are what the menu then offers (row 62)
    }
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
            && EffortLabels.sliderValue(wanted, 0, slider.steps() - 1).isPresent();
        switch (menu.kind()) {
          case MENU, ADVANCED_SUBMENU -> clicked = clickRow(menu, wanted);
          case SLIDER, POWER -> {
            if (sliderHasIt || menu.options().stream().noneMatch(o -> o.effort() == wanted)) {
              slid = slider.move(menu, wanted);
            } else {
              clicked = clickRow(menu, wanted); // Pro as its own row beside a 0..3 slider (row 40)
            }
          }
          default -> {
            // Rows in a language without a table on a partial ladder: one is tried, /prepare names it (PrepareProof).
            clicked = labelsKnown() ? null : probe.next(wanted, again).orElse(null);
            if (clicked == null) {
              throw refused(wanted, "the effort menu shows no effort row"
                  + (menu.otherRows().isEmpty() ? "" : "; rows seen: " + menu.otherRows())
                  + (probe.tried().isEmpty() ? "" : "; the page's /prepare named none of " + probe.tried() + " " + wanted.label()));
            }
          }
        }
      } finally {
        closeMenus();
      }
    }
    if (probe.active()) {
      return wanted; // a row no word names: only the page's /prepare proves it, before Send (PrepareProof)
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

  /**
   * A page that offers no way to the wanted effort, or shows a label the seat cannot map: a typed
   * {@code unavailable} before anything was sent. With no wanted effort (the doctor reading the
   * menu) the detail is the reason alone.
   */
  static SeatException refused(Effort wanted, String why) {
    return SeatException.failed(ProviderFailure.of(Kind.UNAVAILABLE,
        wanted == null ? why : "cannot set effort " + wanted.label() + ": " + why + "; nothing was sent"), false);
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
        int opener = MenuOpeners.effortOpener(chat);
        if (opener < 0) {
          MenuOpeners.Opener untried = MenuOpeners.untried(chat, depth, lookedBehind);
          if (untried == null) {
            break;
          }
          opener = untried.index();
          guess = untried.key();
        }
        int open = page.locator(MENU_OPEN).count();
        MenuReach.choose(page, page.locator(MENU_OPENER).nth(opener)); // the keyboard where a popover covers it (row 65)
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

  private void openPill(Effort wanted) throws SeatException {
    Controls.Found pill = chat.find(Controls.PILL);
    if (pill == null) {
      throw refused(wanted, Controls.notFound("effort pill", Controls.PILL));
    }
    pill.locator(page).click(new Locator.ClickOptions().setTimeout(5_000));
    waitMenus(1, wanted);
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
        throw CapTimes.capped(wanted, wanted, awaitTooltip());
      }
      MenuReach.choose(page, target); // the keyboard where a popover covers it (row 65)
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

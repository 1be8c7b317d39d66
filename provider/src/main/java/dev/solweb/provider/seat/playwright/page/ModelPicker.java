package dev.solweb.provider.seat.playwright.page;

import com.microsoft.playwright.Page;
import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.failure.ProviderFailure.Kind;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.seat.SeatException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * The model the turn runs on (REAL-PAGE rows 26, 59, 61, 62, 64): the pill's menu's model rows read
 * ({@link ModelRows}), one chosen by {@link ModelRows#pick} before the effort, and the slug the
 * page's own request names for it checked ({@link #prove}) before Send. A slug is learned from the
 * page's request the first time a row is chosen (the launch's spellings are unknown) and held to
 * from then on. Confined to the seat's thread, like the page.
 */
public final class ModelPicker {

  private static final Logger LOG = Logger.getLogger(ModelPicker.class.getName());

  /** How long the page may take to show a model row it was given (fakesol's confirms in one request). */
  private static final Duration CONFIRM = Duration.ofSeconds(2);

  private final Page page;
  private final ChatGptPage chat;
  private final ModelRows.Wanted wanted;
  /** Each row's slug as the page's requests named it (row name -> slug), learned once per seat. */
  private final Map<String, String> slugs = new HashMap<>();
  /** The families the menu showed, to tell a slug of another family. */
  private final List<String> families = new ArrayList<>();
  private ModelRows.Choice last;
  /** The variant (instant, thinking, pro) the last choice was made for, and whether the page's slug proved it. */
  private String lastVariant;
  private boolean proven;
  private List<ModelRows.Row> seen = List.of();

  ModelPicker(Page page, ChatGptPage chat, ModelRows.Wanted wanted) {
    this.page = page;
    this.chat = chat;
    this.wanted = wanted;
  }

  /** The last choice (null before the first), for the report and the proof. */
  public ModelRows.Choice last() {
    return last;
  }

  /** The model rows of the menus open now, clicking nothing. */
  @SuppressWarnings("unchecked")
  public List<ModelRows.Row> read() {
    Map<String, Object> m = (Map<String, Object>) chat.evaluate(MenuScripts.MENU, EffortPicker.menuSelectors());
    List<ModelRows.Row> rows = new ArrayList<>();
    for (Map<String, Object> r : (List<Map<String, Object>>) m.get("radios")) {
      String first = (String) r.get("first");
      if (EffortLabels.effort(first).isPresent()) {
        continue; // an effort row
      }
      ModelRows.parse(((Number) r.get("index")).intValue(), first, (String) r.get("full"),
          !Boolean.TRUE.equals(r.get("disabled")), Boolean.TRUE.equals(r.get("checked"))).ifPresent(rows::add);
    }
    return rows;
  }

  /**
   * With the pill's menu open: picks the row for {@code effort} and chooses it (the page closes the
   * menu). Returns the choice; the menu is left as the page leaves it.
   *
   * @throws SeatException unavailable when no row of the wanted family (or the named row) is offered; the
   *     detail names the rows seen
   */
  public ModelRows.Choice choose(Effort effort) throws SeatException {
    List<ModelRows.Row> rows = read();
    seen = rows;
    rows.stream().map(ModelRows.Row::family).filter(f -> f != null && !families.contains(f)).forEach(families::add);
    Optional<ModelRows.Choice> choice = ModelRows.pick(rows, wanted, effort);
    if (choice.isEmpty()) {
      throw SeatException.failed(ProviderFailure.of(Kind.UNAVAILABLE, "cannot run " + effort.label() + " on " + wanted
          + ": the model menu offers " + ModelRows.names(rows) + "; nothing was sent"), false);
    }
    ModelRows.Choice c = choice.get();
    last = c;
    lastVariant = variant(effort);
    proven = false;
    if (c.kept()) {
      proven = true; // the page's own model stays: nothing was chosen that its slug could contradict
      LOG.info("model: " + c.why());
      return c;
    }
    if (!c.row().checked()) {
      String before = chat.effortPillLabel();
      String how = MenuReach.choose(page, page.locator(EffortPicker.MENU_RADIO).nth(c.row().index()));
      awaitConfirmed(before);
      LOG.info("model: " + c.why() + " (chosen by " + how + ")");
    }
    return c;
  }

  /**
   * The page takes a model row asynchronously (its own request; fakesol's {@code /api/model}), and
   * until it has, its menu still offers the old row's efforts (none, after an Instant row): waits,
   * at most {@link #CONFIRM}, for the pill to show another row. A pill that never changes is left to
   * the effort step and to {@code /prepare}, which prove the row before Send.
   */
  private void awaitConfirmed(String pillBefore) {
    long deadline = System.nanoTime() + CONFIRM.toNanos();
    while (Objects.equals(chat.effortPillLabel(), pillBefore) && System.nanoTime() < deadline) {
      page.waitForTimeout(30);
    }
  }

  /**
   * Whether the page's request naming {@code slug} runs on the row chosen last. A slug never seen
   * is learned for that row unless it is another row's or names another family the menu showed; a
   * row whose slug is known must be named by it. Empty when it does; else why not.
   */
  public Optional<String> prove(String slug) {
    if (last == null || last.row() == null || slug == null) {
      return Optional.empty(); // nothing chosen (a page with no model rows): nothing to hold the slug to
    }
    String row = last.row().name();
    String key = row + "|" + lastVariant; // one row runs as one slug per variant (October: gpt-5-6, gpt-5-6-thinking, gpt-6-pro)
    String known = slugs.get(key);
    if (known != null) {
      proven = known.equals(slug);
      return proven ? Optional.empty()
          : Optional.of("the page names model " + slug + " but " + row + " runs as " + known);
    }
    for (Map.Entry<String, String> e : slugs.entrySet()) {
      if (e.getValue().equals(slug) && !e.getKey().startsWith(row + "|")) {
        return Optional.of("the page names model " + slug + ", which is " + e.getKey().split("\\|")[0] + ", not " + row);
      }
    }
    String lower = slug.toLowerCase(Locale.ROOT);
    for (String f : families) {
      if (!f.equalsIgnoreCase(last.row().family()) && lower.contains(f.toLowerCase(Locale.ROOT))) {
        return Optional.of("the page names model " + slug + ", a " + f + " model, not " + row);
      }
    }
    slugs.put(key, slug);
    proven = true;
    LOG.info("model: " + row + " runs as " + slug + " (learned from the page's request)");
    return Optional.empty();
  }

  /**
   * Whether the menu must be opened to choose the model for {@code effort}: always until the page's
   * slug proved the last choice, and whenever the effort needs another row (an Instant row, row 62).
   * Between those, the proof before every Send is what holds the model.
   */
  public boolean needsChoice(Effort effort) {
    return last == null || !proven || !variant(effort).equals(lastVariant);
  }

  /** The slug that proved the last choice, or null: the model in use, as the page spells it. */
  public String slug() {
    return last == null || last.row() == null ? null : slugs.get(last.row().name() + "|" + lastVariant);
  }

  private static String variant(Effort effort) {
    return effort == Effort.INSTANT ? "instant" : effort == Effort.PRO ? "pro" : "thinking";
  }

  /** The rows the last choice saw. */
  public List<ModelRows.Row> seen() {
    return seen;
  }
}

package dev.solweb.provider.seat.playwright.page;

import com.microsoft.playwright.Page;
import dev.solweb.provider.model.Effort;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Effort rows that neither a word nor their place can name: a language without a label table (row
 * 32) on a model that offers only part of the ladder (row 62: GPT-6.2 Sol shows Medium and High,
 * Extra High on some accounts), where {@link LadderRun} finds no five rungs to stand on. The probe
 * only proposes: it clicks one such row at a time, and the page's own {@code /prepare} names the
 * effort it will run ({@code thinking_effort}, rows 17, 25). {@code PrepareProof} keeps the row whose
 * {@code /prepare} names the asked effort and refuses when none does; nothing unproven is sent. A row
 * proven once is tried first the next time its effort is asked.
 */
public final class EffortProbe {

  private final Page page;
  private final ChatGptPage chat;
  /** Row labels the page's /prepare has named, with the effort it named. */
  private final Map<String, Effort> proven = new HashMap<>();
  private final Set<String> tried = new LinkedHashSet<>();
  private Effort wanted;
  private String current;

  EffortProbe(Page page, ChatGptPage chat) {
    this.page = page;
    this.chat = chat;
  }

  /**
   * Clicks the next candidate row for {@code wanted} in the open menu (after a refused one when
   * {@code again}, else afresh: a proven row first); empty when none is left. A candidate is a radio
   * no word names, of no model row, in the menu's last run of radios, which holds no model row; a
   * disabled or checked row is never clicked again (the page already named the checked one's effort).
   */
  @SuppressWarnings("unchecked")
  Optional<String> next(Effort wanted, boolean again) {
    if (!again || wanted != this.wanted) {
      tried.clear();
      this.wanted = wanted;
    }
    current = null;
    Map<String, Object> menu = (Map<String, Object>) chat.evaluate(MenuScripts.MENU, EffortPicker.menuSelectors());
    List<Map<String, Object>> candidates = candidates((List<Map<String, Object>>) menu.get("radios"));
    List<Map<String, Object>> ordered = new ArrayList<>();
    candidates.stream().filter(r -> proven.get(label(r)) == wanted).forEach(ordered::add);
    candidates.stream().filter(r -> proven.get(label(r)) != wanted).forEach(ordered::add);
    for (Map<String, Object> r : ordered) {
      String label = label(r);
      if (tried.contains(label) || Boolean.TRUE.equals(r.get("disabled")) || (again && Boolean.TRUE.equals(r.get("checked")))) {
        continue;
      }
      tried.add(label);
      current = label;
      MenuReach.choose(page, page.locator(EffortPicker.MENU_RADIO).nth(((Number) r.get("index")).intValue()));
      return Optional.of(label);
    }
    return Optional.empty();
  }

  /** Whether the last choice was a probe's, so only the page's /prepare may prove it. */
  public boolean active() {
    return current != null;
  }

  /** The rows clicked so far for this effort, in order (for a refusal). */
  public List<String> tried() {
    return List.copyOf(tried);
  }

  /** The page's /prepare named {@code named} for the row clicked last: remembered, so the next turn tries it first. */
  public void named(Effort named) {
    if (current != null && named != null) {
      proven.put(current, named);
    }
  }

  /** A choice made by words or place: the probe has nothing to prove. */
  void reset() {
    current = null;
  }

  static List<Map<String, Object>> candidates(List<Map<String, Object>> radios) {
    if (radios.isEmpty()) {
      return List.of();
    }
    Object lastRun = radios.get(radios.size() - 1).get("run");
    List<Map<String, Object>> run = radios.stream().filter(r -> r.get("run").equals(lastRun)).toList();
    boolean models = run.stream().anyMatch(r -> ModelRows.parse(0, (String) r.get("first"), (String) r.get("full"),
        true, false).isPresent());
    if (models) {
      return List.of(); // the last run is the model rows: no effort rows to try
    }
    return run.stream().filter(r -> EffortLabels.effort(label(r)).isEmpty()).toList();
  }

  private static String label(Map<String, Object> radio) {
    return (String) radio.get("first");
  }
}

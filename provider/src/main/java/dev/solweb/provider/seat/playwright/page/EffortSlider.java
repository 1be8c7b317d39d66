package dev.solweb.provider.seat.playwright.page;

import com.microsoft.playwright.Page;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.playwright.page.EffortPicker.EffortMenu;
import dev.solweb.provider.seat.playwright.page.EffortPicker.EffortOption;
import dev.solweb.provider.seat.playwright.page.EffortPicker.PickerKind;
import java.util.Map;

/**
 * The effort slider of the September and October pickers (REAL-PAGE rows 1, 26, 40): moved one
 * arrow key at a time (a click would snap it to the pointer) and read back after every step (row
 * 26: once, a key press did not move it). {@link EffortPicker} decides when; this moves it.
 */
final class EffortSlider {

  private final Page page;
  private final ChatGptPage chat;
  private final EffortPicker picker;

  EffortSlider(Page page, ChatGptPage chat, EffortPicker picker) {
    this.page = page;
    this.chat = chat;
    this.picker = picker;
  }

  /** How many steps the menu's slider has (its range), 5 when it does not say. */
  int steps() {
    Map<String, Object> slider = sliderFacts();
    if (slider == null || !(slider.get("max") instanceof Number max) || !(slider.get("min") instanceof Number min)) {
      return Effort.values().length;
    }
    return max.intValue() - min.intValue() + 1;
  }

  @SuppressWarnings("unchecked")
  private Map<String, Object> sliderFacts() {
    return (Map<String, Object>) ((Map<String, Object>) chat.evaluate(MenuScripts.MENU, EffortPicker.menuSelectors())).get("slider");
  }

  /**
   * Moves the slider one arrow key at a time toward {@code wanted}, reading its value back after
   * every step. The keys go to the slider when it takes focus, else to the menuitem that holds it
   * (row 26). A step that does not show is pressed once more (row 26: once, one did nothing); a
   * step that holds while a tooltip shows is a capped tier.
   */
  Effort move(EffortMenu menu, Effort wanted) throws SeatException {
    focusSlider();
    EffortOption now = menu.checked();
    for (int step = 0; step < 8; step++) {
      if (now.effort() == null) {
        throw EffortPicker.refused(wanted, "the effort slider reads \"" + now.label() + "\", which is no effort the seat knows");
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
        String tip = moved == null ? picker.read(PickerKind.SLIDER).tooltip() : null;
        if (tip != null) {
          throw CapTimes.capped(wanted, next, tip);
        }
      }
      if (moved == null) {
        throw EffortPicker.refused(wanted, "the effort slider stays at \"" + now.label() + "\" after two key presses; it does not reach "
            + wanted.label());
      }
      now = moved;
    }
    throw EffortPicker.refused(wanted, "the effort slider did not reach " + wanted.label() + " in 8 steps");
  }

  /** The slider's value once it differs from {@code before}, or null when it held for a step's time. */
  private EffortOption awaitMove(Effort before) {
    long deadline = System.nanoTime() + EffortPicker.STEP_NANOS;
    while (true) {
      EffortOption now = picker.read(PickerKind.SLIDER).checked();
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
    if (slider != null && !Boolean.TRUE.equals(slider.get("focusable")) && item >= 0) {
      page.locator(EffortPicker.MENU_ITEM).nth(item).focus();
    } else {
      page.locator(EffortPicker.EFFORT_SLIDER).first().focus();
    }
  }
}

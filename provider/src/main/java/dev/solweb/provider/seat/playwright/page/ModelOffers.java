package dev.solweb.provider.seat.playwright.page;

import dev.solweb.provider.model.Effort;
import dev.solweb.provider.seat.ModelOffer;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.playwright.page.EffortPicker.EffortMenu;
import dev.solweb.provider.seat.playwright.page.EffortPicker.EffortOption;
import dev.solweb.provider.seat.playwright.page.EffortPicker.PickerKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Reads what this account's picker offers (REAL-PAGE rows 56, 61, 62, 64): the model rows, and the
 * efforts of the row a thinking turn runs on (chosen as a turn would choose it, so nothing changes
 * that the next turn would not change), plus Instant where the family has its own Instant row.
 * Other rows' efforts show only when they are chosen, so they stay unread. Types nothing.
 */
final class ModelOffers {

  private ModelOffers() {}

  static ModelOffer read(EffortPicker picker) throws SeatException {
    ModelRows.Choice choice;
    try {
      choice = picker.chooseModel(Effort.HIGH);
    } catch (SeatException e) {
      // No row of the wanted family: the rows are still what the account has; no model id can run.
      return new ModelOffer(rows(picker.models().seen(), null, List.of()), List.of(), null);
    }
    EffortMenu menu;
    int steps = 0;
    try {
      menu = picker.openToEfforts();
      if (menu.kind() == PickerKind.SLIDER || menu.kind() == PickerKind.POWER) {
        steps = picker.sliderSteps();
      }
    } finally {
      picker.closeMenus();
    }
    List<Effort> efforts = new ArrayList<>();
    for (int i = 0; i < steps && i < Effort.values().length; i++) {
      efforts.add(Effort.values()[i]); // a slider runs from the ladder's foot to its range
    }
    menu.options().stream().map(EffortOption::effort).filter(Objects::nonNull).forEach(efforts::add);
    List<ModelRows.Row> seen = picker.models().seen();
    ModelRows.Row row = choice.row();
    List<Effort> ofRow = List.copyOf(efforts);
    String family = row == null ? null : row.family();
    if (family != null && seen.stream().anyMatch(r -> r.instant() && r.enabled() && !r.retiring()
        && family.equalsIgnoreCase(r.family()))) {
      efforts.add(Effort.INSTANT); // the family's own Instant row (row 62)
    }
    return new ModelOffer(rows(seen, row, ofRow), efforts, row == null ? null : row.name());
  }

  private static List<ModelOffer.Row> rows(List<ModelRows.Row> seen, ModelRows.Row chosen, List<Effort> efforts) {
    return seen.stream().map(r -> new ModelOffer.Row(r.name(), r.family(), r.version(), r.instant(), r.retiring(), r.enabled(),
        chosen != null && r.name().equals(chosen.name()) ? efforts : r.instant() ? List.of(Effort.INSTANT) : List.of()))
        .toList();
  }
}

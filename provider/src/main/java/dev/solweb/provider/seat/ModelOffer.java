package dev.solweb.provider.seat;

import dev.solweb.provider.model.Effort;
import java.util.List;

/**
 * What this account's picker offers (REAL-PAGE rows 56, 61, 62, 64: families, versions and efforts
 * differ by account): each model row as the menu shows it, and the efforts {@code sol-web-<effort>}
 * can run, i.e. those of the row a turn would choose ({@code SOLWEBD_MODEL}, else the newest Sol).
 *
 * @param rows every model row; a row's efforts are known only for the rows that were chosen (empty: not read)
 * @param efforts the efforts the model ids can run on this account, in ladder order
 * @param chosen the row those efforts belong to (null where the page shows no model rows)
 */
public record ModelOffer(List<Row> rows, List<Effort> efforts, String chosen) {

  /** One model row: its name, family (null: a bare version), version, whether retiring or enabled, its efforts if read. */
  public record Row(String name, String family, String version, boolean instant, boolean retiring, boolean enabled,
      List<Effort> efforts) {
    public Row {
      efforts = efforts == null ? List.of() : List.copyOf(efforts);
    }
  }

  public ModelOffer {
    rows = rows == null ? List.of() : List.copyOf(rows);
    efforts = efforts == null ? List.of() : efforts.stream().distinct().sorted().toList();
  }

  /** The {@code sol-web-<effort>} ids this account can run. */
  public List<String> modelIds() {
    return efforts.stream().map(Effort::modelId).toList();
  }
}

package dev.solweb.provider.dispatch;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Locale;

/**
 * One seat as the operator page shows it, at one moment: alive or dead, what its page was last
 * seen to be, the effort it last ran and what it does now. No text of any turn.
 *
 * @param index the seat's index
 * @param state {@code starting} (no probe yet), {@code dead}, or the last probe's state
 *     ({@code ready}, {@code logged_out}, {@code capped}, {@code challenged}, {@code error})
 * @param detail the probe's or the death's one line
 * @param effort the effort of the last turn it ran, or null before any
 * @param doing {@code idle}, {@code turn} or {@code seat_work} (doctor, a delete, retention)
 * @param turn the turn it runs now, or null
 */
public record SeatView(int index, String state, String detail, String effort, String doing, LiveTurn.View turn) {

  public ObjectNode toJson(ObjectNode entry) {
    entry.put("index", index).put("state", state).put("detail", detail).put("effort", effort).put("doing", doing);
    if (turn == null) {
      entry.putNull("turn");
    } else {
      turn.toJson(entry.putObject("turn"));
    }
    return entry;
  }

  static String stateOf(dev.solweb.provider.seat.SeatProbe probe) {
    return probe.state().name().toLowerCase(Locale.ROOT);
  }
}

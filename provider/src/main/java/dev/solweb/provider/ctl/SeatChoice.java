package dev.solweb.provider.ctl;

import dev.solweb.provider.seat.BrowserSeat;
import dev.solweb.provider.seat.scripted.Scenario;
import dev.solweb.provider.seat.scripted.ScenarioPlayer;
import dev.solweb.provider.seat.scripted.ScriptedSeat;
import java.time.Clock;

/**
 * The seat a command names: {@code playwright} (the real page, the default) or
 * {@code scripted:<file|name>}. Never a fallback from one to the other.
 */
final class SeatChoice {

  private SeatChoice() {}

  static Enrollment.SeatOpener opener(String seat) {
    return () -> open(seat);
  }

  static BrowserSeat open(String seat) throws CtlException {
    if (seat.startsWith("scripted:") && seat.length() > "scripted:".length()) {
      try {
        return new ScriptedSeat(new ScenarioPlayer(Scenario.load(seat.substring("scripted:".length()))),
            Clock.systemUTC());
      } catch (IllegalArgumentException e) {
        throw new CtlException(ExitCodes.USAGE, e.getMessage(), e);
      }
    }
    if (seat.equals("playwright")) {
      throw new CtlException(ExitCodes.START_FAILED,
          "the playwright seat is not part of this build yet; enroll with --seat scripted:<file|name>");
    }
    throw new CtlException(ExitCodes.USAGE, "--seat must be playwright or scripted:<file|name>, got: " + seat);
  }
}

package dev.solweb.provider.daemon;

import dev.solweb.provider.seat.SeatFactory;
import dev.solweb.provider.seat.playwright.PlaywrightOptions;
import dev.solweb.provider.seat.playwright.PlaywrightSeatFactory;
import dev.solweb.provider.seat.playwright.browser.ProfileLock;
import dev.solweb.provider.seat.scripted.Scenario;
import dev.solweb.provider.seat.scripted.ScenarioPlayer;
import dev.solweb.provider.seat.scripted.ScriptedSeat;
import java.net.URI;
import java.time.Clock;

/**
 * Turns {@code --seat} into a seat factory. Seats are chosen only by name: there is no fallback
 * from one kind to another, so a daemon meant for the real page never quietly runs a fake.
 */
public final class SeatSelection {
  public static final String SCRIPTED_PREFIX = "scripted:";

  private SeatSelection() {}

  /**
   * @throws IllegalArgumentException for an unknown seat kind or a scenario that does not load
   */
  public static SeatFactory factory(String spec, SeatOptions options) {
    if (spec.startsWith(SCRIPTED_PREFIX)) {
      Scenario scenario = Scenario.load(spec.substring(SCRIPTED_PREFIX.length()));
      ScenarioPlayer player = new ScenarioPlayer(scenario);
      return index -> new ScriptedSeat(player, Clock.systemUTC());
    }
    if (spec.equals("playwright")) {
      // Takes <home>/profile.lock (ProfileLockedException, an IllegalStateException, names the holder).
      PlaywrightSeatFactory playwright = PlaywrightSeatFactory.create(new PlaywrightOptions(
          options.chatUrl() == null ? null : URI.create(options.chatUrl()), options.headless(),
          options.chromium(), options.profile(), options.home()));
      playwright.prelaunch(); // Chromium starts while the HTTP side does
      return playwright;
    }
    throw new IllegalArgumentException("unknown seat '" + spec + "': use --seat playwright or --seat scripted:<file|name>");
  }
}

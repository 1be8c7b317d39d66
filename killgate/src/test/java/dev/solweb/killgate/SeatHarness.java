package dev.solweb.killgate;

import dev.solweb.killgate.fakesol.FakeSol;
import dev.solweb.provider.seat.playwright.page.CompletionTracker;
import dev.solweb.provider.seat.playwright.browser.OrphanReaper;
import dev.solweb.provider.seat.playwright.PlaywrightOptions;
import dev.solweb.provider.seat.playwright.PlaywrightSeat;
import dev.solweb.provider.seat.playwright.PlaywrightSeatFactory;
import dev.solweb.provider.seat.scripted.Scenario;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real PlaywrightSeat against fakesol in headless Chromium. One Vert.x per class; per test a
 * fresh fakesol, a fresh daemon home (profile, lock) and so a fresh browser: the seat owns its
 * browser through a persistent profile, so a "fresh context" here is a fresh profile.
 */
@Timeout(180) // a turn that never completes fails the test instead of hanging the build
abstract class SeatHarness {

  static Vertx vertx;

  @TempDir Path home;
  FakeSol sol;
  PlaywrightSeatFactory factory;
  final List<PlaywrightSeat> seats = new ArrayList<>();

  @BeforeAll
  static void startVertx() {
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void stopVertx() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get();
  }

  @AfterEach
  void tearDown() {
    seats.forEach(PlaywrightSeat::close);
    if (factory != null) {
      factory.close();
    }
    if (sol != null) {
      sol.close();
    }
  }

  static Scenario scenario(String json) {
    return Scenario.parse(json);
  }

  FakeSol fakesol(Scenario scenario) {
    sol = FakeSol.start(vertx, false, scenario, 0, Clock.systemUTC());
    // A crash fault ends this test's Chromium, as a real browser crash would.
    sol.onCrash(() -> OrphanReaper.reap(options().profileDir()));
    return sol;
  }

  PlaywrightOptions options() {
    return new PlaywrightOptions(sol.url(), true, PlaywrightOptions.DEFAULT_CHROMIUM, null, home);
  }

  /** Starts fakesol with the scenario and one seat on it. */
  PlaywrightSeat seatOn(Scenario scenario) throws Exception {
    fakesol(scenario);
    factory = PlaywrightSeatFactory.create(options(), Clock.systemUTC(), CompletionTracker.Rule.DEFAULT);
    return newSeat();
  }

  PlaywrightSeat newSeat() throws Exception {
    PlaywrightSeat seat = factory.create(0);
    seats.add(seat);
    return seat;
  }
}

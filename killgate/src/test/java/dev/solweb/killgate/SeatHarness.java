package dev.solweb.killgate;

import dev.solweb.killgate.fakesol.FakeSol;
import dev.solweb.killgate.fakesol.PageMutations;
import dev.solweb.provider.scenario.Scenario;
import dev.solweb.provider.seat.playwright.PlaywrightOptions;
import dev.solweb.provider.seat.playwright.PlaywrightSeat;
import dev.solweb.provider.seat.playwright.PlaywrightSeatFactory;
import dev.solweb.provider.seat.playwright.browser.OrphanReaper;
import dev.solweb.provider.seat.playwright.page.CompletionTracker;
import dev.solweb.testkit.Programs;
import io.vertx.core.Vertx;
import java.io.IOException;
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
 * fresh fakesol, a fresh daemon home (profile, lock) and a fresh browser context. The seats of a
 * class open their contexts in one {@link SharedChromium} (a launch costs about 2.7 CPU-s); a class that tests what belongs to the profile itself (a crash of its Chromium, its
 * files, one browser per profile) says {@link #launchesOwnChromium()} and each seat launches.
 */
@Timeout(180) // a turn that never completes fails the test instead of hanging the build
abstract class SeatHarness {

  static Vertx vertx;
  private static SharedChromium shared; // started by the first seat of a class that shares

  @TempDir Path home;
  FakeSol sol;
  PlaywrightSeatFactory factory;
  final List<PlaywrightSeat> seats = new ArrayList<>();

  @BeforeAll
  static void startVertx() {
    Programs.require(PlaywrightOptions.DEFAULT_CHROMIUM.toString());
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void stopVertx() throws Exception {
    if (shared != null) {
      shared.close();
      shared = null;
    }
    vertx.close().toCompletionStage().toCompletableFuture().get();
  }

  /** True for a class whose seats must each launch Chromium on their own profile. */
  boolean launchesOwnChromium() {
    return false;
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
    return fakesol(scenario, PageMutations.Plan.NONE);
  }

  /** fakesol on the scenario's page rendered through the page mutations of {@code plan}. */
  FakeSol fakesol(Scenario scenario, PageMutations.Plan plan) {
    sol = FakeSol.start(vertx, false, scenario, 0, Clock.systemUTC(), plan);
    // A crash fault ends this test's Chromium, as a real browser crash would.
    sol.onCrash(() -> OrphanReaper.reap(ownOptions().profileDir()));
    return sol;
  }

  /** The seats' options without the shared Chromium: where the profile is. */
  PlaywrightOptions ownOptions() {
    return new PlaywrightOptions(sol.url(), true, PlaywrightOptions.DEFAULT_CHROMIUM, null, home);
  }

  PlaywrightOptions options() throws IOException {
    PlaywrightOptions own = ownOptions();
    if (launchesOwnChromium()) {
      return own;
    }
    if (shared == null) {
      shared = SharedChromium.start();
    }
    return own.withSharedBrowser(shared.endpoint());
  }

  /** Starts fakesol with the scenario and one seat on it. */
  PlaywrightSeat seatOn(Scenario scenario) throws Exception {
    return seatOn(scenario, PageMutations.Plan.NONE);
  }

  /** As {@link #seatOn(Scenario)}, the page rendered through {@code plan}'s mutations. */
  PlaywrightSeat seatOn(Scenario scenario, PageMutations.Plan plan) throws Exception {
    fakesol(scenario, plan);
    factory = PlaywrightSeatFactory.create(options(), Clock.systemUTC(), CompletionTracker.Rule.DEFAULT);
    return newSeat();
  }

  PlaywrightSeat newSeat() throws Exception {
    PlaywrightSeat seat = factory.create(0);
    seats.add(seat);
    return seat;
  }
}

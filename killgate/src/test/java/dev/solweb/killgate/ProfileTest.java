package dev.solweb.killgate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.solweb.provider.model.Effort;
import dev.solweb.provider.seat.playwright.browser.OrphanReaper;
import dev.solweb.provider.seat.playwright.PlaywrightOptions;
import dev.solweb.provider.seat.playwright.PlaywrightSeat;
import dev.solweb.provider.seat.playwright.PlaywrightSeatFactory;
import dev.solweb.provider.seat.playwright.browser.ProfileLock;
import java.nio.file.Files;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** One daemon per profile; a killed daemon's Chromium is ended at the next start. */
class ProfileTest extends SeatHarness {

  @Override
  boolean launchesOwnChromium() {
    return true; // the profile, its lock and its Chromium are what it tests
  }

  @Test
  void aSecondHolderOfTheProfileFailsFastNamingTheLockAndItsHolder() throws Exception {
    PlaywrightSeat seat = seatOn(scenario("{\"default\": [{\"prose\": \"ok\"}]}"));
    seat.openNew();
    assertThatThrownBy(() -> PlaywrightSeatFactory.create(options()))
        .isInstanceOf(ProfileLock.ProfileLockedException.class)
        .hasMessageContaining(home.resolve("profile.lock").toString())
        .hasMessageContaining("pid " + ProcessHandle.current().pid())
        .hasMessageNotContaining("ProcessSingleton");
    // The first daemon's seat is untouched.
    seat.setEffort(Effort.HIGH);
    assertThat(seat.send("still mine").prose()).isEqualTo("ok");
  }

  @Test
  void chromiumOrphanedOnTheProfileIsEndedAtTheNextStart() throws Exception {
    fakesol(scenario("{\"default\": [{\"prose\": \"ok\"}]}"));
    PlaywrightOptions options = options();
    Files.createDirectories(options.profileDir());
    // What a SIGKILLed daemon may leave behind: its Chromium still running on the profile.
    Process orphan = OrphanChromium.start(options.chromiumPath(), options.profileDir());
    assertThat(OrphanReaper.find(options.profileDir())).isNotEmpty();

    factory = PlaywrightSeatFactory.create(options);

    assertThat(orphan.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)).as("the orphan is ended").isTrue();
    PlaywrightSeat seat = newSeat(); // and the profile is usable: no "ProcessSingleton" refusal
    seat.openNew();
    seat.setEffort(Effort.HIGH);
    assertThat(seat.send("hi").prose()).isEqualTo("ok");
  }

  @Test
  void aPrelaunchedSeatIsAdoptedOnTheSeatThreadOrClosedWithTheFactory() throws Exception {
    fakesol(scenario("{\"default\": [{\"prose\": \"ok\"}]}"));
    factory = PlaywrightSeatFactory.create(options());
    factory.prelaunch();
    java.util.concurrent.ExecutorService seatThread = java.util.concurrent.Executors.newSingleThreadExecutor();
    try {
      String prose = seatThread.submit(() -> {
        PlaywrightSeat seat = factory.create(0);
        seats.add(seat);
        seat.probe();
        seat.openNew();
        seat.setEffort(Effort.HIGH);
        return seat.send("hi").prose();
      }).get();
      assertThat(prose).isEqualTo("ok");
    } finally {
      seatThread.shutdownNow();
    }

    // A factory closed before its seat was adopted leaves no Chromium behind.
    seats.forEach(PlaywrightSeat::close);
    seats.clear();
    factory.close();
    factory = PlaywrightSeatFactory.create(options());
    factory.prelaunch();
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (OrphanReaper.find(options().profileDir()).isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertThat(OrphanReaper.find(options().profileDir())).as("the prelaunch started Chromium").isNotEmpty();
    factory.close();
    while (!OrphanReaper.find(options().profileDir()).isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    assertThat(OrphanReaper.find(options().profileDir())).isEmpty();
    factory = null;
  }
}

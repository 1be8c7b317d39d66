package dev.solweb.provider.seat.playwright.page;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;

class CapTimesTest {

  private static final ZoneId UTC = ZoneId.of("UTC");
  private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");

  @Test
  void clockTimeLaterToday() {
    assertThat(CapTimes.parse("Responses will use another model until your limit resets after 4:04 PM.", NOW, UTC))
        .contains(Instant.parse("2026-11-30T16:04:00Z"));
  }

  @Test
  void clockTimeAlreadyPassedMeansTomorrow() {
    assertThat(CapTimes.parse("Please try again after 9:15 AM", NOW, UTC))
        .contains(Instant.parse("2026-12-01T09:15:00Z"));
  }

  @Test
  void twentyFourHourClockInTheBrowserZone() {
    assertThat(CapTimes.parse("limit resets after 16:04", NOW, ZoneId.of("Europe/Berlin")))
        .contains(Instant.parse("2026-11-30T15:04:00Z"));
  }

  @Test
  void spans() {
    assertThat(CapTimes.parse("You can try again in 4 hours.", NOW, UTC)).contains(Instant.parse("2026-11-30T16:00:00Z"));
    assertThat(CapTimes.parse("try again in 1 hour and 20 minutes", NOW, UTC)).contains(Instant.parse("2026-11-30T13:20:00Z"));
    assertThat(CapTimes.parse("Please wait in 30 minutes", NOW, UTC)).contains(Instant.parse("2026-11-30T12:30:00Z"));
    assertThat(CapTimes.parse("back in an hour", NOW, UTC)).contains(Instant.parse("2026-11-30T13:00:00Z"));
  }

  @Test
  void noTimeIsEmpty() {
    assertThat(CapTimes.parse("You've reached our limit of messages per hour.", NOW, UTC)).isEmpty();
    assertThat(CapTimes.parse("in the meantime, after all", NOW, UTC)).isEmpty();
  }

  /** REAL-PAGE row 21: a capped tier's tooltip names a day; it lifts when that day starts in the browser's zone. */
  @Test
  void aCappedTiersDayInBothLocales() {
    assertThat(CapTimes.parse("Limit reached. Try again after Aug 16, 2026.", NOW, UTC)).contains(Instant.parse("2026-08-16T00:00:00Z"));
    assertThat(CapTimes.parse("Limit reached. Try again after Dec 3, 2026.", NOW, ZoneId.of("Europe/Berlin")))
        .contains(Instant.parse("2026-12-02T23:00:00Z"));
    assertThat(CapTimes.parse("Лимит исчерпан. Повторите попытку после 16 авг. 2026 г.", NOW, UTC))
        .contains(Instant.parse("2026-08-16T00:00:00Z"));
    assertThat(CapTimes.parse("Повторите попытку после 2 мая 2027 г.", NOW, UTC)).contains(Instant.parse("2027-05-02T00:00:00Z"));
    // A day without a year is the next one.
    assertThat(CapTimes.parse("Try again after Jan 5", NOW, UTC)).contains(Instant.parse("2027-01-05T00:00:00Z"));
    assertThat(CapTimes.parse("Try again after Feb 31, 2027", NOW, UTC)).isEmpty();
  }
}

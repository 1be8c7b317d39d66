package dev.solweb.killgate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.solweb.provider.model.Effort;
import dev.solweb.provider.scenario.ScenarioPlayer;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.SeatReply;
import dev.solweb.provider.seat.playwright.PlaywrightSeat;
import org.junit.jupiter.api.Test;

/** Chromium dies: the seat says BROKEN on the right side of Send, a rebuilt seat works. */
class SeatCrashTest extends SeatHarness {

  @Override
  boolean launchesOwnChromium() {
    return true; // a crash fault ends the seat's own Chromium
  }

  @Test
  void chromiumKilledMidTurnIsBrokenAfterSendAndARebuiltSeatWorksWithoutResending() throws Exception {
    PlaywrightSeat seat = seatOn(scenario("""
        {"conversations": [{"match": "first", "replies": [{"fault": "crash"}]}],
         "default": [{"prose": "after the rebuild"}]}
        """));
    seat.openNew();
    seat.setEffort(Effort.HIGH);
    assertThatThrownBy(() -> seat.send("first turn"))
        .isInstanceOfSatisfying(SeatException.class, e -> {
          assertThat(e.reason()).isEqualTo(SeatException.Reason.BROKEN);
          assertThat(e.afterSend()).isTrue();
        });
    assertThat(sol.crashes()).isEqualTo(1);

    PlaywrightSeat rebuilt = newSeat(); // what the dispatcher does once
    rebuilt.openNew();
    rebuilt.setEffort(Effort.HIGH);
    SeatReply reply = rebuilt.send("next turn");

    assertThat(reply.prose()).isEqualTo("after the rebuild");
    assertThat(sol.sends()).extracting(ScenarioPlayer.Send::text).containsExactly("first turn", "next turn");
  }

  @Test
  void chromiumKilledBeforeSendIsBrokenBeforeSendAndNothingWasSubmitted() throws Exception {
    PlaywrightSeat seat = seatOn(scenario("{\"default\": [{\"fault\": \"crash_before_send\"}]}"));
    seat.openNew();
    seat.setEffort(Effort.HIGH);
    assertThatThrownBy(() -> seat.send("hello"))
        .isInstanceOfSatisfying(SeatException.class, e -> {
          assertThat(e.reason()).isEqualTo(SeatException.Reason.BROKEN);
          assertThat(e.afterSend()).isFalse();
        });
    assertThat(sol.sends()).isEmpty();
  }
}

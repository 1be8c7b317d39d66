package dev.solweb.provider.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.solweb.provider.daemon.SeatStartFailure;
import dev.solweb.provider.seat.SeatProbe;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** /healthz's {@code cause}: the state and its detail in one line, the state named once. */
class HealthCauseTest {

  @Test
  void aLoggedOutSeatsOwnWordsAreNotPrefixedAgain() {
    // The detail a logged-out seat reports through the daemon (DiagnosedSeats): it names its state.
    SeatStartFailure.Seat seat = SeatStartFailure.Seat.of(Path.of("/usr/bin/chromium"), Path.of("/h/profile"), true, Map.of());
    String detail = SeatStartFailure.ofProbe(new SeatProbe(SeatProbe.State.LOGGED_OUT, null, null, "login wall"), null, seat)
        .orElseThrow().line();
    assertThat(detail).startsWith("logged out: the profile /h/profile");

    String cause = HealthSnapshot.causeLine("logged_out", detail);

    assertThat(cause).isEqualTo(detail).doesNotContain("logged out: logged out");
  }

  @Test
  void aDetailThatDoesNotNameItsStateGetsItInFront() {
    assertThat(HealthSnapshot.causeLine("degraded", "seat 0: did not start: unavailable: no composer"))
        .isEqualTo("degraded: seat 0: did not start: unavailable: no composer");
    assertThat(HealthSnapshot.causeLine("capped", "usage cap until 2030-01-01T00:00:00Z"))
        .isEqualTo("capped: usage cap until 2030-01-01T00:00:00Z");
    assertThat(HealthSnapshot.causeLine("logged_out", null)).isEqualTo("logged out");
  }
}

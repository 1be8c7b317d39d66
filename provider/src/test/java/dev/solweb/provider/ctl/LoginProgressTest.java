package dev.solweb.provider.ctl;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** login's waiting lines: on every change of what the window shows, else every 10 s, with the time left. */
class LoginProgressTest {

  private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");

  @Test
  void saysWhatChangedAtOnceAndOtherwiseEveryTenSecondsWithTheTimeLeft() {
    LoginProgress progress = new LoginProgress(T0, Duration.ofMinutes(10));
    assertThat(progress.due(T0, "the login wall")).isEqualTo("solwebctl login: waiting: the window shows the login wall (10m00s left)");
    assertThat(progress.due(T0.plusSeconds(9), "the login wall")).isNull();
    assertThat(progress.due(T0.plusSeconds(10), "the login wall")).endsWith("(9m50s left)");
    assertThat(progress.due(T0.plusSeconds(12), "the sign-in page (auth.example)"))
        .isEqualTo("solwebctl login: waiting: the window shows the sign-in page (auth.example) (9m48s left)");
    assertThat(progress.due(T0.plusSeconds(21), "the sign-in page (auth.example)")).isNull();
    assertThat(progress.due(T0.plusSeconds(22), "the sign-in page (auth.example)")).endsWith("(9m38s left)");
  }

  @Test
  void expiresAtTheDeadlineAndNeverCountsBelowZero() {
    LoginProgress progress = new LoginProgress(T0, Duration.ofSeconds(65));
    assertThat(progress.left(T0)).isEqualTo("1m05s");
    assertThat(progress.expired(T0.plusSeconds(64))).isFalse();
    assertThat(progress.left(T0.plusSeconds(64))).isEqualTo("1s");
    assertThat(progress.expired(T0.plusSeconds(65))).isTrue();
    assertThat(progress.left(T0.plusSeconds(90))).isEqualTo("0s");
  }
}

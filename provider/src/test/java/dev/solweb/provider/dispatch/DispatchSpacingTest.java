package dev.solweb.provider.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DispatchSpacingTest {

  @Test
  void rangeInSecondsParses() {
    assertThat(DispatchSpacing.parse("60-75s"))
        .isEqualTo(new DispatchSpacing(Duration.ofSeconds(60), Duration.ofSeconds(75)));
  }

  @Test
  void singleValueInSecondsIsAFixedGap() {
    DispatchSpacing spacing = DispatchSpacing.parse("90s");

    assertThat(spacing).isEqualTo(new DispatchSpacing(Duration.ofSeconds(90), Duration.ofSeconds(90)));
    assertThat(spacing.nextGap()).isEqualTo(Duration.ofSeconds(90));
    assertThat(spacing.isOff()).isFalse();
  }

  @Test
  void rangeInMillisecondsParses() {
    assertThat(DispatchSpacing.parse("500-900ms"))
        .isEqualTo(new DispatchSpacing(Duration.ofMillis(500), Duration.ofMillis(900)));
  }

  @Test
  void offMeansNoSpacing() {
    DispatchSpacing off = DispatchSpacing.parse("off");

    assertThat(off).isEqualTo(DispatchSpacing.OFF);
    assertThat(off.isOff()).isTrue();
    assertThat(off.nextGap()).isZero();
  }

  @ParameterizedTest
  @ValueSource(strings = {"soon", "60-75m", "-5s", "60-s", "60 - 75s", "1e3s", "75-60s"})
  void garbageIsRefused(String spec) {
    assertThatThrownBy(() -> DispatchSpacing.parse(spec))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageMatching("(?s).*(SOLWEBD_DISPATCH_SPACING|below min).*");
  }

  @Test
  void nextGapStaysWithinTheBoundsAndIsJittered() {
    DispatchSpacing spacing = DispatchSpacing.parse("500-900ms");
    Set<Duration> seen = new HashSet<>();

    for (int i = 0; i < 2000; i++) {
      Duration gap = spacing.nextGap();
      assertThat(gap).isBetween(Duration.ofMillis(500), Duration.ofMillis(900));
      seen.add(gap);
    }

    assertThat(seen).as("jitter draws distinct gaps").hasSizeGreaterThan(50);
  }
}

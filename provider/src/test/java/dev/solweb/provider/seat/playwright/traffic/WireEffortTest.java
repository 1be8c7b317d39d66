package dev.solweb.provider.seat.playwright.traffic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.solweb.provider.model.Effort;
import org.junit.jupiter.api.Test;

/** The effort facts of the page's traffic: model slugs against the ladder. */
class WireEffortTest {

  @Test
  void downgradesAreOnlyUnmistakableSigns() {
    assertThat(WireEffort.isDowngrade(Effort.HIGH, "gpt-5-mini")).isTrue();
    assertThat(WireEffort.isDowngrade(Effort.PRO, "gpt-5-thinking")).isTrue();
    assertThat(WireEffort.isDowngrade(Effort.HIGH, "gpt-5-instant")).isTrue();
    assertThat(WireEffort.isDowngrade(Effort.HIGH, "gpt-5-thinking")).isFalse();
    assertThat(WireEffort.isDowngrade(Effort.PRO, "gpt-5-pro")).isFalse();
    assertThat(WireEffort.isDowngrade(Effort.INSTANT, "gpt-5-instant")).isFalse();
    assertThat(WireEffort.isDowngrade(Effort.HIGH, null)).isFalse();
  }
}

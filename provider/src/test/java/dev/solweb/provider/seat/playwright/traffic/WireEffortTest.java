package dev.solweb.provider.seat.playwright.traffic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.solweb.provider.model.Effort;
import org.junit.jupiter.api.Test;

/** The effort facts of the page's traffic: the (model, thinking_effort) table of row 25, and slugs against the ladder. */
class WireEffortTest {

  @Test
  void row25OnBothModelFamilies() {
    assertThat(WireEffort.effort("gpt-5-6", null)).contains(Effort.INSTANT);
    assertThat(WireEffort.effort("gpt-5-6-thinking", "standard")).contains(Effort.MEDIUM);
    assertThat(WireEffort.effort("gpt-5-6-thinking", "extended")).contains(Effort.HIGH);
    assertThat(WireEffort.effort("gpt-5-6-thinking", "max")).contains(Effort.XHIGH);
    assertThat(WireEffort.effort("gpt-6-pro", null)).contains(Effort.PRO);
    assertThat(WireEffort.effort("gpt-6-thinking", "extended")).contains(Effort.HIGH);
    assertThat(WireEffort.effort("gpt-6-thinking", "max")).contains(Effort.XHIGH);
    assertThat(WireEffort.effort("gpt-6", null)).contains(Effort.INSTANT);
  }

  @Test
  void whatTheTableDoesNotKnowIsUnknownNeverAGuess() {
    assertThat(WireEffort.effort("gpt-6-astra-wm", null)).as("a Work conversation's model family").isEmpty();
    assertThat(WireEffort.effort("gpt-5-6-thinking", null)).as("thinking with no effort").isEmpty();
    assertThat(WireEffort.effort("gpt-5-6-thinking", "light")).isEmpty();
    assertThat(WireEffort.effort("gpt-5-6", "standard")).as("an effort on an instant model").isEmpty();
    assertThat(WireEffort.effort("gpt-6-pro", "max")).isEmpty();
    assertThat(WireEffort.effort("gpt-5-mini", null)).isEmpty();
    assertThat(WireEffort.effort(null, "extended")).isEmpty();
    assertThat(WireEffort.effort("auto", null)).isEmpty();
  }

  @Test
  void aSlugSpelledAnotherWayIsReadByItsEffortAndVariantNeverRefusedForItsSpelling() {
    assertThat(WireEffort.effort("gpt-6-2-sol-thinking", "extended")).contains(Effort.HIGH);
    assertThat(WireEffort.effort("sol-6.2", "standard")).contains(Effort.MEDIUM);
    assertThat(WireEffort.effort("sol62-reasoning", "max")).contains(Effort.XHIGH);
    assertThat(WireEffort.effort("gpt-6.2-sol", "max")).contains(Effort.XHIGH);
    assertThat(WireEffort.effort("sol-6.2-instant", null)).contains(Effort.INSTANT);
    assertThat(WireEffort.effort("gpt-6.2-sol-chat-instant", null)).contains(Effort.INSTANT);
    assertThat(WireEffort.effort("sol-6.2-pro", null)).contains(Effort.PRO);
    assertThat(WireEffort.effort("gpt-6-2-astra", null)).as("a variant-less slug with no effort").contains(Effort.INSTANT);
  }

  @Test
  void aNewSpellingStillRefusesWhatContradictsItself() {
    assertThat(WireEffort.effort("sol-6.2-instant", "extended")).as("an effort on an instant slug").isEmpty();
    assertThat(WireEffort.effort("sol-6.2-pro", "max")).isEmpty();
    assertThat(WireEffort.effort("gpt-6-2-sol-thinking", null)).as("thinking with no effort").isEmpty();
    assertThat(WireEffort.effort("sol-6.2", "light")).isEmpty();
    assertThat(WireEffort.effort("sol-mini-6.2", null)).isEmpty();
  }

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

package dev.solweb.provider.seat.playwright.page;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.solweb.provider.seat.playwright.page.CompletionTracker.Observation;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class CompletionTrackerTest {

  private static final long MS = 1_000_000L;
  private final CompletionTracker tracker = new CompletionTracker(new CompletionTracker.Rule(3, Duration.ofMillis(1_000)));

  private static Observation seen(boolean stop, boolean bar, String text) {
    return new Observation(stop, bar, false, text);
  }

  @Test
  void completesAfterStopGoneActionBarOnConsecutivePollsAndSettledText() {
    assertThat(tracker.observe(0, seen(true, false, "Hel"))).isFalse();
    assertThat(tracker.observe(50 * MS, seen(false, true, "Hello"))).isFalse();
    assertThat(tracker.observe(100 * MS, seen(false, true, "Hello"))).isFalse();
    assertThat(tracker.observe(900 * MS, seen(false, true, "Hello"))).isFalse(); // 3 polls, settled only 850 ms
    assertThat(tracker.observe(1_060 * MS, seen(false, true, "Hello"))).isTrue();
    assertThat(tracker.lastChangeNanos()).isEqualTo(50 * MS);
  }

  @Test
  void aStillPageIsObservedAgainWhenTheRuleCouldNextHold() {
    Duration poll = Duration.ofMillis(30);
    assertThat(tracker.observe(0, seen(true, false, "Hel"))).isFalse();
    assertThat(tracker.untilDecidable(0, poll)).as("not finished-looking: only a change can finish it").isNull();
    assertThat(tracker.observe(50 * MS, seen(false, true, "Hello"))).isFalse();
    assertThat(tracker.untilDecidable(50 * MS, poll)).as("the next of the consecutive polls").isEqualTo(poll);
    assertThat(tracker.observe(80 * MS, seen(false, true, "Hello"))).isFalse();
    assertThat(tracker.observe(110 * MS, seen(false, true, "Hello"))).isFalse();
    assertThat(tracker.untilDecidable(110 * MS, poll)).as("the rest of the settle window").isEqualTo(Duration.ofMillis(940));
    assertThat(tracker.observe(1_050 * MS, seen(false, true, "Hello"))).isTrue();
    assertThat(tracker.untilDecidable(1_050 * MS, poll)).as("the DOM's rule holds: what waits is another rule").isNull();
  }

  @Test
  void stopNeverSeenStillCompletesOnTheOtherProofs() {
    for (long t = 0; t < 1_000; t += 50) {
      assertThat(tracker.observe(t * MS, seen(false, true, "done"))).isFalse();
    }
    assertThat(tracker.observe(1_050 * MS, seen(false, true, "done"))).isTrue();
  }

  @Test
  void aStablePauseWithoutTheActionBarNeverCompletes() {
    for (long t = 0; t < 10_000; t += 50) {
      assertThat(tracker.observe(t * MS, seen(false, false, "Хорошо 🙂"))).isFalse();
    }
  }

  @Test
  void aPauseWithStopVisibleNeverCompletesEvenWithAnActionBar() {
    for (long t = 0; t < 30_000; t += 50) {
      assertThat(tracker.observe(t * MS, seen(true, true, "Let me think"))).isFalse();
    }
  }

  @Test
  void aThinkingSignalVetoesAFlashingActionBarOverASettledPreamble() {
    // The bar flashes on for 200 ms in every 500 while "Pro thinking" shows: never complete.
    for (long t = 0; t < 20_000; t += 30) {
      boolean bar = t % 500 < 200;
      assertThat(tracker.observe(t * MS, new Observation(false, bar, true, "I'll look into it."))).isFalse();
    }
  }

  @Test
  void stopReappearingResetsTheConsecutiveCount() {
    tracker.observe(0, seen(false, true, "a"));
    tracker.observe(1_300 * MS, seen(false, true, "a"));
    tracker.observe(1_350 * MS, seen(true, true, "a"));
    assertThat(tracker.observe(1_400 * MS, seen(false, true, "a"))).isFalse();
    assertThat(tracker.observe(1_450 * MS, seen(false, true, "a"))).isFalse();
    assertThat(tracker.observe(1_500 * MS, seen(false, true, "a"))).isTrue();
  }

  @Test
  void noAnswerTurnYetNeverCompletes() {
    for (long t = 0; t < 5_000; t += 50) {
      assertThat(tracker.observe(t * MS, seen(false, true, null))).isFalse();
    }
  }

  @Test
  void aSettleWindowBelowOneSecondIsRefused() {
    assertThatThrownBy(() -> new CompletionTracker.Rule(3, Duration.ofMillis(150)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1000 ms");
  }
}

package dev.solweb.provider.seat.playwright;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class CompletionTrackerTest {

  private static final long MS = 1_000_000L;
  private final CompletionTracker tracker = new CompletionTracker(new CompletionTracker.Rule(3, Duration.ofMillis(200)));

  @Test
  void completesAfterStopGoneActionBarOnConsecutivePollsAndSettledText() {
    assertThat(tracker.observe(0, true, false, "Hel")).isFalse();
    assertThat(tracker.observe(50 * MS, false, true, "Hello")).isFalse();
    assertThat(tracker.observe(100 * MS, false, true, "Hello")).isFalse();
    assertThat(tracker.observe(150 * MS, false, true, "Hello")).isFalse(); // 3 polls, but settled only 100 ms
    assertThat(tracker.observe(260 * MS, false, true, "Hello")).isTrue();
  }

  @Test
  void aStablePauseWithoutTheActionBarNeverCompletes() {
    for (long t = 0; t < 10_000; t += 50) {
      assertThat(tracker.observe(t * MS, false, false, "Хорошо 🙂")).isFalse();
    }
  }

  @Test
  void aPauseWithStopVisibleNeverCompletesEvenWithAnActionBar() {
    for (long t = 0; t < 30_000; t += 50) {
      assertThat(tracker.observe(t * MS, true, true, "Let me think")).isFalse();
    }
  }

  @Test
  void stopReappearingResetsTheConsecutiveCount() {
    tracker.observe(0, false, true, "a");
    tracker.observe(300 * MS, false, true, "a");
    tracker.observe(350 * MS, true, true, "a");
    assertThat(tracker.observe(400 * MS, false, true, "a")).isFalse();
    assertThat(tracker.observe(450 * MS, false, true, "a")).isFalse();
    assertThat(tracker.observe(500 * MS, false, true, "a")).isTrue();
  }

  @Test
  void noAnswerTurnYetNeverCompletes() {
    for (long t = 0; t < 5_000; t += 50) {
      assertThat(tracker.observe(t * MS, false, true, null)).isFalse();
    }
  }
}

package dev.solweb.provider.seat.playwright.traffic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.solweb.provider.TestClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The seats' own asks of the conversation JSON and stream_status, on a clock the test moves:
 * 1, 2, 4 s apart (then 4), 8 s after a 429, and never twice in a second on the account.
 */
class HistoryPollsTest {
  private final TestClock clock = new TestClock();
  private final HistoryPolls polls = new HistoryPolls(clock);

  /** The seconds (from now) at which a poller that looks every 100 ms for {@code seconds} asks. */
  private List<Double> asksOver(HistoryPolls.Poller poller, int seconds) {
    List<Double> at = new ArrayList<>();
    for (int tenth = 0; tenth <= seconds * 10; tenth++) {
      if (poller.due()) {
        at.add(tenth / 10.0);
      }
      clock.advance(Duration.ofMillis(100));
    }
    return at;
  }

  @Test
  void oneWaitBacksOffOneTwoFourThenStaysAtFour() {
    assertThat(asksOver(polls.poller(), 16)).containsExactly(0.0, 1.0, 3.0, 7.0, 11.0, 15.0);
  }

  @Test
  void a429PushesTheNextAskEightSecondsOut() {
    HistoryPolls.Poller poller = polls.poller();
    assertThat(poller.due()).isTrue();
    poller.answered(429);
    assertThat(asksOver(poller, 9)).containsExactly(8.0);
    java.time.Instant next = poller.next();
    poller.answered(200);
    assertThat(poller.next()).as("a 200 moves nothing").isEqualTo(next);
  }

  @Test
  void twoSeatsTogetherAskAtMostOnceASecond() {
    HistoryPolls.Poller a = polls.poller();
    HistoryPolls.Poller b = polls.poller();
    assertThat(a.due()).isTrue();
    assertThat(b.due()).as("the account asked this second").isFalse();
    clock.advance(Duration.ofMillis(999));
    assertThat(b.due()).isFalse();
    clock.advance(Duration.ofMillis(1));
    assertThat(b.due()).isTrue();
    assertThat(a.due()).as("a's backoff allows it, the account's floor does not").isFalse();
    assertThat(polls.asks()).isEqualTo(2);
  }
}

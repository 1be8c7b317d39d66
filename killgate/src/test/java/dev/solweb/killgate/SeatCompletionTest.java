package dev.solweb.killgate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.SeatReply;
import dev.solweb.provider.seat.playwright.PlaywrightSeat;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutorService;
import org.junit.jupiter.api.Test;

/** When is an answer complete: never during a false pause, never while Stop shows. */
class SeatCompletionTest extends SeatHarness {

  @Test
  void aFalseStablePauseBeforeTheActionBarDoesNotCompleteEarly() throws Exception {
    // Seed 003: ChatGPT rendered "Хорошо 🙂 А у тебя как?", the peer returned "Хорошо 🙂".
    // fakesol: half the text, then Stop gone and the text stable for 1.5 s, no action bar, then the rest.
    PlaywrightSeat seat = seatOn(scenario("""
        {"default": [{"prose": "Хорошо 🙂 А у тебя как?", "false_pause_ms": 1500, "stream_ms": 100}]}
        """));
    seat.openNew();
    seat.setEffort(Effort.MEDIUM);
    SeatReply reply = seat.send("Как дела?");
    assertThat(reply.prose()).isEqualTo("Хорошо 🙂 А у тебя как?");
  }

  @Test
  void aFifteenSecondThinkingPauseWithStopVisibleDoesNotComplete() throws Exception {
    // Half the answer, then 15 s with Stop visible, a "Thinking" label and (as for a preamble
    // message) an action bar on screen; only Stop tells the seat the turn goes on.
    PlaywrightSeat seat = seatOn(scenario("""
        {"default": [{"prose": "First I looked at the code. Then I found the bug.", "thinking_ms": 15000, "stream_ms": 100}]}
        """));
    seat.openNew();
    seat.setEffort(Effort.XHIGH);
    long start = System.nanoTime();
    SeatReply reply = seat.send("find the bug");
    long elapsed = System.nanoTime() - start;
    assertThat(reply.prose()).isEqualTo("First I looked at the code. Then I found the bug.");
    assertThat(Duration.ofNanos(elapsed)).isGreaterThanOrEqualTo(Duration.ofSeconds(15));
  }

  @Test
  void stopClicksStopAndTheTurnIsCancelledAfterSend() throws Exception {
    PlaywrightSeat seat = seatOn(scenario("{\"default\": [{\"fault\": \"hang\"}]}"));
    seat.openNew();
    seat.setEffort(Effort.HIGH);
    ExecutorService other = Executors.newSingleThreadExecutor();
    try {
      // Stop once the page took the Send (it was a timer of 1.5 s, which a loaded machine can beat to the Send).
      other.submit(() -> {
        sol.player().awaitSends(1, Duration.ofSeconds(60));
        seat.stop();
        return null;
      });
      assertThatThrownBy(() -> seat.send("go"))
          .isInstanceOfSatisfying(SeatException.class, e -> {
            assertThat(e.failure().kind()).isEqualTo(ProviderFailure.Kind.CANCELLED);
            assertThat(e.afterSend()).isTrue();
          });
    } finally {
      other.shutdownNow();
    }
    assertThat(sol.awaitStopClicks(1, Duration.ofSeconds(60))).as("the page reported the Stop click").isTrue();
    assertThat(sol.stopClicks()).isEqualTo(1);
    assertThat(sol.sends()).hasSize(1);
  }

  @Test
  void aStopThatArrivesBeforeSendCancelsWithoutTyping() throws Exception {
    PlaywrightSeat seat = seatOn(scenario("{\"default\": [{\"prose\": \"never\"}]}"));
    seat.probe();
    seat.openNew();
    seat.stop(); // e.g. the turn timed out while the page loaded
    seat.setEffort(Effort.HIGH);
    assertThatThrownBy(() -> seat.send("go"))
        .isInstanceOfSatisfying(SeatException.class, e -> {
          assertThat(e.failure().kind()).isEqualTo(ProviderFailure.Kind.CANCELLED);
          assertThat(e.afterSend()).isFalse();
        });
    assertThat(sol.sends()).isEmpty();
  }
}

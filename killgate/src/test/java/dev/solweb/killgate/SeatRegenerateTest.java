package dev.solweb.killgate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.SeatReply;
import dev.solweb.provider.seat.TurnProgress;
import dev.solweb.provider.seat.playwright.PlaywrightSeat;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 38, item 5, on fakesol with the Playwright seat: a turn stopped mid-answer (solwebd's
 * Stop, as when its client left), then {@link PlaywrightSeat#regenerate}: the page's own
 * Regenerate on that answer (REAL-PAGE row 35), found in the last exchange's action bar and
 * proven by the page's request, answers in the same conversation with one page action: fakesol
 * counts one regeneration and no second user message.
 */
class SeatRegenerateTest extends SeatHarness {

  @ParameterizedTest
  @ValueSource(strings = {"2026-09-en", "2026-10\", \"locale\": \"ru"})
  void aTurnStoppedMidAnswerIsAnsweredAgainByThePagesRegenerateInTheSameConversation(String dom) throws Exception {
    PlaywrightSeat seat = seatOn(scenario("{\"dom\": \"" + dom + "\", \"default\": ["
        + "{\"prose\": \"" + "A long answer that is still being written. ".repeat(40) + "\", \"stream_ms\": 120000},"
        + "{\"prose\": \"The regenerated answer.\"}]}"));
    seat.openNew();
    seat.setEffort(Effort.HIGH);
    ExecutorService other = Executors.newSingleThreadExecutor();
    AtomicBoolean stopping = new AtomicBoolean();
    try {
      // Stop once the answer's text is arriving: the event, not a time.
      seat.progress((stage, chars) -> {
        if (stage == TurnProgress.Stage.WRITING && chars > 0 && stopping.compareAndSet(false, true)) {
          other.submit(seat::stop);
        }
      });
      assertThatThrownBy(() -> seat.send("go"))
          .isInstanceOfSatisfying(SeatException.class, e -> {
            assertThat(e.failure().kind()).isEqualTo(ProviderFailure.Kind.CANCELLED);
            assertThat(e.afterSend()).isTrue();
          });
    } finally {
      seat.progress(TurnProgress.NONE);
      other.shutdownNow();
    }
    String stoppedIn = sol.sends().get(0).conversationId();

    Optional<SeatReply> reply = seat.regenerate();

    assertThat(reply).hasValueSatisfying(r -> {
      assertThat(r.prose()).isEqualTo("The regenerated answer.");
      assertThat(r.conversationUrl()).endsWith(stoppedIn);
    });
    assertThat(sol.regenerations()).as("one page action").isEqualTo(1);
    assertThat(sol.sends()).as("no second user message, nothing typed").hasSize(1);
  }

  @ParameterizedTest
  @ValueSource(strings = {"2026-09-en"})
  void aPageWithoutAnAnswerOffersNoRegenerateAndNothingIsSent(String dom) throws Exception {
    PlaywrightSeat seat = seatOn(scenario("{\"dom\": \"" + dom + "\", \"default\": [{\"prose\": \"never\"}]}"));
    seat.openNew();
    seat.setEffort(Effort.HIGH);

    assertThat(seat.regenerate()).isEmpty();
    assertThat(sol.regenerations()).isZero();
    assertThat(sol.sends()).isEmpty();
  }
}

package dev.solweb.killgate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.solweb.killgate.fakesol.FakeSol;
import dev.solweb.killgate.fakesol.PageMutations;
import dev.solweb.provider.failure.ProviderFailure.Kind;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.seat.AccountBlock;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.playwright.PlaywrightSeat;
import dev.solweb.provider.seat.playwright.PlaywrightSeatFactory;
import dev.solweb.provider.seat.playwright.browser.OrphanReaper;
import dev.solweb.provider.seat.playwright.page.CompletionTracker;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 32, REAL-PAGE rows 52 and 53, with the real seat on fakesol in Chromium: the rate-limit
 * modal over the composer is the whole account's pause (typed {@code unavailable} with a retry
 * time, nothing typed, no reload under it), and the turn after the pause dismisses it with its
 * one button and answers; "unusual activity" stops the account with no retry time. fakesol's
 * burst rule shows that a seat's ordinary turns never trip it.
 */
class SeatAccountBlockTest extends SeatHarness {

  private static final String ANSWER = "{\"default\": [{\"prose\": \"fine\", \"stream_ms\": 200}]}";

  /** A seat on fakesol whose page goes through {@code plan}. */
  private PlaywrightSeat seatOn(String json, PageMutations.Plan plan) throws Exception {
    sol = FakeSol.start(vertx, false, scenario(json), 0, Clock.systemUTC(), plan);
    sol.onCrash(() -> OrphanReaper.reap(ownOptions().profileDir()));
    factory = PlaywrightSeatFactory.create(options(), Clock.systemUTC(), CompletionTracker.Rule.DEFAULT);
    return newSeat();
  }

  @Test
  void theModalPausesTheAccountTypedAndTheTurnAfterThePauseDismissesItAndAnswers() throws Exception {
    PlaywrightSeat seat = seatOn(ANSWER, PageMutations.named(List.of("modal-once"), 1));

    assertThatThrownBy(seat::probe).isInstanceOfSatisfying(SeatException.class, e -> {
      assertThat(e.failure().kind()).isEqualTo(Kind.UNAVAILABLE);
      assertThat(e.failure().retryAfterSeconds()).isEqualTo(AccountBlock.TOO_MANY_REQUESTS_PAUSE.toSeconds());
      assertThat(e.afterSend()).isFalse();
      assertThat(e.accountBlock()).get().satisfies(b -> {
        assertThat(b.cause()).isEqualTo(AccountBlock.Cause.TOO_MANY_REQUESTS);
        assertThat(b.pageText()).contains("Too many requests");
      });
    });
    assertThat(sol.sends()).isEmpty();

    // The dispatcher lets the next turn reach the seat only after the pause: the seat dismisses the modal once.
    seat.probe();
    seat.openNew();
    seat.setEffort(Effort.MEDIUM);
    assertThat(seat.send("after the pause").prose()).isEqualTo("fine");
    assertThat(sol.sends()).hasSize(1);
  }

  @Test
  void unusualActivityStopsTheAccountWithNoRetryTime() throws Exception {
    PlaywrightSeat seat = seatOn("{\"default\": [{\"fault\": \"unusual_activity\"}]}", PageMutations.Plan.NONE);
    seat.probe();
    seat.openNew();
    seat.setEffort(Effort.MEDIUM);

    assertThatThrownBy(() -> seat.send("anything")).isInstanceOfSatisfying(SeatException.class, e -> {
      assertThat(e.failure().kind()).isEqualTo(Kind.UNAVAILABLE);
      assertThat(e.failure().retryAfterSeconds()).isNull();
      assertThat(e.failure().detail()).contains("operator page");
      assertThat(e.accountBlock()).get().satisfies(b -> {
        assertThat(b.cause()).isEqualTo(AccountBlock.Cause.UNUSUAL_ACTIVITY);
        assertThat(b.pause()).isEmpty();
      });
    });
  }

  @Test
  void aSeatsOrdinaryTurnsNeverTripTheBurstRule() throws Exception {
    PlaywrightSeat seat = seatOn("{\"default\": [{\"prose\": \"one\", \"stream_ms\": 300}, {\"prose\": \"two\","
        + " \"stream_ms\": 300}, {\"prose\": \"three\", \"stream_ms\": 300}]}", PageMutations.Plan.NONE);
    // Stricter than the seat's own pacing allows (at most one history request a second, backing off).
    sol.burstRule(6, Duration.ofSeconds(10));
    seat.probe();
    seat.openNew();
    seat.setEffort(Effort.MEDIUM);
    for (String text : List.of("first", "second", "third")) {
      seat.send(text);
    }
    assertThat(sol.sends()).hasSize(3);
    assertThat(sol.modals()).as("the burst rule never tripped").isZero();
  }
}

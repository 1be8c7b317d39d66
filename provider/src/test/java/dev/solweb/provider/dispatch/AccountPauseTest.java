package dev.solweb.provider.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.failure.ProviderFailure.Kind;
import dev.solweb.provider.failure.TurnFailed;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.scenario.Scenario;
import dev.solweb.provider.scenario.ScenarioPlayer;
import dev.solweb.provider.seat.AccountBlock;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.scripted.ScriptedSeat;
import dev.solweb.provider.translate.ChatInput;
import dev.solweb.provider.translate.Conversations;
import dev.solweb.provider.translate.Message;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * REAL-PAGE rows 52, 53 at the dispatcher: the page's word on the whole account pauses every
 * turn after it, typed and before anything is typed. The "Too many requests" modal pauses for a
 * few minutes ({@code unavailable} with {@code retry_after_seconds}); "unusual activity" stops
 * the account, without a retry time, until a person clears it. Time and the seat's thread are
 * moved by hand.
 */
class AccountPauseTest {
  private static final String FINE = "{\"blocks\": [\"{\\\"tool\\\":\\\"final\\\",\\\"text\\\":\\\"fine\\\"}\"]}";

  private final ManualTime time = new ManualTime();
  private final ManualExecutor seatThread = new ManualExecutor();
  private ScenarioPlayer player;
  private AccountPacing pacing;
  private Dispatcher dispatcher;

  /** One scripted seat; a first text holding {@code match} meets {@code fault}, every other turn answers. */
  private void start(String match, String fault) {
    Clock clock = time.clock();
    player = new ScenarioPlayer(Scenario.parse("{\"conversations\": [{\"match\": \"" + match + "\", \"replies\": [{\"fault\": \""
        + fault + "\"}]}], \"default\": [" + FINE + "]}"));
    pacing = new AccountPacing(SendGate.unpaced(), SendLedger.inMemory(), SendBudget.NONE, clock);
    dispatcher = new Dispatcher(index -> new ScriptedSeat(player, clock), new SeatTurn(Conversations.inMemory(clock), clock, pacing),
        new Dispatcher.Settings(1, Duration.ofSeconds(300), DispatchSpacing.OFF, pacing), time, index -> seatThread);
    dispatcher.start();
    seatThread.runNext();
  }

  @AfterEach
  void close() {
    if (dispatcher != null) {
      dispatcher.close();
    }
  }

  private Dispatcher.TurnHandle turn(String text) {
    Dispatcher.TurnHandle handle = dispatcher.submit(TurnRequest.chat(new ChatInput(Effort.HIGH, List.of(Message.user(text)),
        List.of(), Optional.empty())));
    while (seatThread.queued() > 0) {
      seatThread.runNext();
    }
    return handle;
  }

  private static ProviderFailure failureOf(Dispatcher.TurnHandle handle) {
    assertThat(handle.result()).isCompletedExceptionally();
    Throwable error = handle.result().handle((answer, e) -> e).join();
    Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    return cause instanceof TurnFailed t ? t.failure() : ((SeatException) cause).failure();
  }

  @Test
  void theRateLimitModalPausesEveryTurnForAFewMinutesThenTheNextOneGoes() {
    start("burst", "too_many_requests");

    ProviderFailure modal = failureOf(turn("burst one"));
    assertThat(modal.kind()).isEqualTo(Kind.UNAVAILABLE);
    assertThat(modal.retryAfterSeconds()).isEqualTo(AccountBlock.TOO_MANY_REQUESTS_PAUSE.toSeconds());
    assertThat(player.sends()).as("the modal covered the composer: nothing typed").isEmpty();
    assertThat(dispatcher.snapshot().state()).as("the daemon's state says so, not ready").isEqualTo("paused");
    assertThat(dispatcher.snapshot().cause()).startsWith("paused: the account is paused");

    time.advance(Duration.ofMinutes(2));
    Dispatcher.TurnHandle during = turn("another session");
    ProviderFailure paused = failureOf(during);
    assertThat(during.decidedAtSubmit()).as("refused before it reached a seat").isTrue();
    assertThat(paused.kind()).isEqualTo(Kind.UNAVAILABLE);
    assertThat(paused.retryAfterSeconds()).isEqualTo(Duration.ofMinutes(3).toSeconds());
    assertThat(paused.detail()).contains("the account is paused").contains("Too many requests");
    assertThat(player.sends()).isEmpty();

    time.advance(Duration.ofMinutes(3));
    assertThat(dispatcher.snapshot().state()).isEqualTo("ready");
    assertThat(turn("after the pause").result()).isCompleted();
    assertThat(player.sends()).hasSize(1);
  }

  @Test
  void unusualActivityStopsTheAccountWithoutARetryTimeUntilAPersonClearsIt() {
    start("odd", "unusual_activity");

    ProviderFailure unusual = failureOf(turn("odd one"));
    assertThat(unusual.kind()).isEqualTo(Kind.UNAVAILABLE);
    assertThat(unusual.retryAfterSeconds()).isNull();
    int typed = player.sends().size();

    time.advance(Duration.ofDays(2));
    ProviderFailure stopped = failureOf(turn("a day later"));
    assertThat(stopped.retryAfterSeconds()).as("never retried: only a person ends it").isNull();
    assertThat(stopped.detail()).contains("the account is stopped").contains("operator page");
    assertThat(dispatcher.snapshot().state()).isEqualTo("paused");
    assertThat(dispatcher.snapshot().detail()).contains("the account is stopped");
    assertThat(player.sends()).hasSize(typed);
    assertThat(pacing.pause()).get().satisfies(p -> assertThat(p.block().cause()).isEqualTo(AccountBlock.Cause.UNUSUAL_ACTIVITY));

    assertThat(pacing.clearPause(time.now())).isTrue();
    assertThat(dispatcher.snapshot().state()).isEqualTo("ready");
    assertThat(turn("cleared").result()).isCompleted();
    assertThat(player.sends()).hasSize(typed + 1);
  }
}

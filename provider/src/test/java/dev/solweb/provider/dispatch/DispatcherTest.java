package dev.solweb.provider.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.failure.TurnFailed;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.protocol.Reply;
import dev.solweb.provider.seat.BrowserSeat;
import dev.solweb.provider.seat.SeatProbe;
import dev.solweb.provider.seat.SeatReply;
import dev.solweb.provider.translate.Answer;
import dev.solweb.provider.translate.ChatInput;
import dev.solweb.provider.translate.Message;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The scheduler alone, on time and seat threads the test moves by hand: nothing runs until the
 * test runs it, so every ordering below is decided by the dispatcher, not by a race.
 */
class DispatcherTest {
  private final ManualTime time = new ManualTime();
  private final List<ManualExecutor> seatThreads = new ArrayList<>();
  private final List<StubSeat> seats = new ArrayList<>();
  private final Runner runner = new Runner();
  private Dispatcher dispatcher;

  private Dispatcher start(int seatCount, Duration turnTimeout, DispatchSpacing spacing) {
    return start(new Dispatcher.Settings(seatCount, turnTimeout, spacing));
  }

  private Dispatcher start(Dispatcher.Settings settings) {
    dispatcher = new Dispatcher(index -> {
      StubSeat seat = new StubSeat(index);
      seats.add(seat);
      return seat;
    }, runner, settings, time, index -> {
      ManualExecutor thread = new ManualExecutor();
      seatThreads.add(thread);
      return thread;
    });
    dispatcher.start();
    seatThreads.forEach(ManualExecutor::runNext); // each seat's start-up
    return dispatcher;
  }

  private Dispatcher start(int seatCount) {
    return start(seatCount, Duration.ofSeconds(300), DispatchSpacing.OFF);
  }

  @AfterEach
  void close() {
    if (dispatcher != null) {
      dispatcher.close();
    }
  }

  /** A chat turn whose history is these user texts (with an answer between each): same first text, same session. */
  private static TurnRequest chat(String... userTexts) {
    List<Message> messages = new ArrayList<>();
    for (int i = 0; i < userTexts.length; i++) {
      if (i > 0) {
        messages.add(new Message(Message.Role.ASSISTANT, "answer", List.of(), null));
      }
      messages.add(Message.user(userTexts[i]));
    }
    return TurnRequest.chat(new ChatInput(Effort.HIGH, messages, List.of(), Optional.empty()));
  }

  @Test
  void oneSeatRunsTurnsOfDifferentSessionsInArrivalOrder() {
    start(1);
    Dispatcher.TurnHandle a = dispatcher.submit(chat("a"));
    Dispatcher.TurnHandle b = dispatcher.submit(chat("b"));
    Dispatcher.TurnHandle c = dispatcher.submit(chat("c"));

    assertThat(b.queuePosition()).isEqualTo(1);
    assertThat(c.queuePosition()).isEqualTo(2);
    seatThreads.get(0).runNext();
    seatThreads.get(0).runNext();
    seatThreads.get(0).runNext();

    assertThat(runner.ran).containsExactly("0:a", "0:b", "0:c");
    assertThat(List.of(a, b, c)).allSatisfy(h -> assertThat(h.result()).isCompleted());
    assertThat(seatThreads.get(0).queued()).isZero();
  }

  @Test
  void theSeatViewsAndTheLastTurnsSayWhatEachSeatDidWithTimesAndOutcomesButNoText() {
    start(1);
    runner.failures.put("b", ProviderFailure.of(ProviderFailure.Kind.UNAVAILABLE, "the page broke"));
    assertThat(dispatcher.views().seats()).singleElement().satisfies(seat -> {
      assertThat(seat.state()).isEqualTo("ready");
      assertThat(seat.doing()).isEqualTo("idle");
      assertThat(seat.effort()).isNull();
      assertThat(seat.turn()).isNull();
    });
    TurnRequest a = chat("a");
    dispatcher.submit(a);
    dispatcher.submit(chat("b"));
    time.advance(Duration.ofSeconds(2));

    SeatView busy = dispatcher.views().seats().get(0);
    assertThat(busy.doing()).isEqualTo("turn");
    assertThat(busy.effort()).isEqualTo("high");
    assertThat(busy.turn().state()).isEqualTo("typing");
    assertThat(busy.turn().session()).isEqualTo(a.sessionKey());
    seatThreads.get(0).runNext();
    time.advance(Duration.ofSeconds(1));
    seatThreads.get(0).runNext();

    List<FinishedTurn> last = dispatcher.views().finishedTurns();
    assertThat(last).extracting(FinishedTurn::outcome).containsExactly("unavailable", "answered");
    assertThat(last.get(0).detail()).isEqualTo("the page broke");
    assertThat(last.get(0).queuedSeconds()).as("b waited for a").isEqualTo(2.0);
    assertThat(last.get(0).seatSeconds()).isEqualTo(1.0);
    assertThat(last.get(1).session()).isEqualTo(a.sessionKey());
    assertThat(last.get(1).seatSeconds()).isEqualTo(2.0);
    assertThat(last.get(1).queuedSeconds()).isZero();
    assertThat(last.get(1).detail()).isNull();
    assertThat(last).allSatisfy(turn -> assertThat(turn.seat()).isZero());
    assertThat(last.toString()).doesNotContain("answer to");
    assertThat(dispatcher.views().seats().get(0).doing()).isEqualTo("idle");
    assertThat(dispatcher.views().seats().get(0).effort()).as("the effort it last ran").isEqualTo("high");
  }

  @Test
  void theLastTurnsKeepOnlyTheNewestFifty() {
    start(1);
    List<TurnRequest> requests = new ArrayList<>();
    for (int i = 0; i < 55; i++) {
      TurnRequest request = chat("turn " + i);
      requests.add(request);
      dispatcher.submit(request);
    }
    for (int i = 0; i < 55; i++) {
      seatThreads.get(0).runNext();
    }
    List<FinishedTurn> last = dispatcher.views().finishedTurns();
    assertThat(last).hasSize(FinishedTurns.SIZE);
    assertThat(last.get(0).session()).isEqualTo(requests.get(54).sessionKey());
    assertThat(last.get(49).session()).isEqualTo(requests.get(5).sessionKey());
  }

  @Test
  void aSessionRunsOneTurnAtATimeWhileAFreeSeatTakesTheNextSessionPastIt() {
    start(2);
    dispatcher.submit(chat("a"));
    Dispatcher.TurnHandle a2 = dispatcher.submit(chat("a", "a2"));
    dispatcher.submit(chat("b"));

    // Seat 0 holds a; a2 may not start beside it, so seat 1 takes b, which came later.
    assertThat(seatThreads.get(0).queued()).isEqualTo(1);
    assertThat(seatThreads.get(1).queued()).isEqualTo(1);
    assertThat(dispatcher.snapshot().active()).isEqualTo(2);
    assertThat(a2.queuePosition()).isEqualTo(1);
    seatThreads.get(1).runNext();
    assertThat(seatThreads.get(1).queued()).as("a2 still waits for a").isZero();

    seatThreads.get(0).runNext();
    assertThat(a2.queuePosition()).isZero();
    seatThreads.stream().filter(t -> t.queued() > 0).findFirst().orElseThrow().runNext();

    assertThat(runner.ran).containsExactly("1:b", "0:a", "0:a2");
    assertThat(a2.result()).isCompleted();
  }

  @Test
  void spacingHoldsTheNextSendUntilTheGapHasPassed() {
    start(2, Duration.ofSeconds(300), DispatchSpacing.parse("60s"));
    dispatcher.submit(chat("a"));
    Dispatcher.TurnHandle b = dispatcher.submit(chat("b"));

    assertThat(seatThreads.get(0).queued()).isEqualTo(1);
    assertThat(seatThreads.get(1).queued()).as("the second seat is free but the gap is not over").isZero();
    assertThat(dispatcher.snapshot().dispatchWaitSeconds()).isEqualTo(60.0);
    time.advance(Duration.ofSeconds(59));
    assertThat(seatThreads.get(1).queued()).isZero();
    assertThat(b.queuePosition()).isEqualTo(1);

    time.advance(Duration.ofSeconds(1));

    assertThat(seatThreads.get(1).queued()).isEqualTo(1);
    assertThat(b.queuePosition()).isZero();
  }

  @Test
  void aTurnOverTheOwnersBudgetIsRefusedCappedBeforeASeatWhileOtherEffortsGoOn() {
    SendLedger ledger = SendLedger.inMemory();
    AccountPacing pacing = new AccountPacing(SendGate.unpaced(), ledger, SendBudget.parse("high=2/3h"), time.clock());
    start(new Dispatcher.Settings(1, Duration.ofSeconds(300), DispatchSpacing.OFF, pacing));
    Instant first = time.now();
    Dispatcher.TurnHandle a = dispatcher.submit(chat("a")); // on the seat: counts as pending
    Dispatcher.TurnHandle b = dispatcher.submit(chat("b"));
    Dispatcher.TurnHandle c = dispatcher.submit(chat("c"));
    assertThat(List.of(a, b, c)).noneMatch(Dispatcher.TurnHandle::decidedAtSubmit);
    ledger.record(time.now(), Effort.HIGH, "gpt-5-thinking"); // a's Send, as SeatTurn records it
    Dispatcher.TurnHandle d = dispatcher.submit(chat("d"));
    assertThat(d.decidedAtSubmit()).as("1 sent + 1 on the seat: refused at once, a 429 before any stream").isTrue();
    assertThat(failureOf(d).kind()).isEqualTo(ProviderFailure.Kind.CAPPED);

    time.advance(Duration.ofMinutes(10));
    seatThreads.get(0).runNext(); // a ends; b starts
    ledger.record(time.now(), Effort.HIGH, "gpt-5-thinking"); // b's Send
    seatThreads.get(0).runNext(); // b ends; c was queued before the budget filled

    ProviderFailure capped = failureOf(c);
    assertThat(capped.kind()).isEqualTo(ProviderFailure.Kind.CAPPED);
    assertThat(capped.resumeAt()).as("when a's Send leaves the 3 h window").isEqualTo(first.plus(Duration.ofHours(3)).toString());
    assertThat(runner.ran).as("refused before it reached a seat").containsExactly("0:a", "0:b");
    Dispatcher.TurnHandle pro = dispatcher.submit(TurnRequest.chat(new ChatInput(Effort.PRO,
        List.of(Message.user("e")), List.of(), Optional.empty())));
    seatThreads.get(0).runNext();
    assertThat(pro.result()).as("the budget is per effort, not the account's cap").isCompleted();
    assertThat(dispatcher.snapshot().state()).isEqualTo("ready");
  }

  @Test
  void aTurnOverTheTimeoutFailsAsTimeoutAndClicksStop() {
    start(1, Duration.ofSeconds(300), DispatchSpacing.OFF);
    Dispatcher.TurnHandle a = dispatcher.submit(chat("a"));

    time.advance(Duration.ofSeconds(299));
    assertThat(a.result()).isNotDone();
    time.advance(Duration.ofSeconds(1));

    assertThat(failureOf(a).kind()).isEqualTo(ProviderFailure.Kind.TIMEOUT);
    assertThat(seats.get(0).stops).isEqualTo(1);
    seatThreads.get(0).runNext(); // the seat returns after Stop; the slot is freed
    assertThat(dispatcher.snapshot().active()).isZero();
    assertThat(time.pending()).as("no timer left behind").isZero();
  }

  @Test
  void stopIsClickedAgainUntilTheSeatReturnsSoAStopLostBetweenStepsCannotHoldTheSeat() {
    start(1, Duration.ofSeconds(300), DispatchSpacing.OFF);
    Dispatcher.TurnHandle a = dispatcher.submit(chat("a"));
    Dispatcher.TurnHandle b = dispatcher.submit(chat("b"));

    time.advance(Duration.ofSeconds(300));
    assertThat(failureOf(a).kind()).isEqualTo(ProviderFailure.Kind.TIMEOUT);
    assertThat(seats.get(0).stops).isEqualTo(1);
    // The seat has not returned (its thread has not run): the first Stop may have been lost.
    time.advance(Dispatcher.STOP_REPEAT.multipliedBy(2));
    assertThat(seats.get(0).stops).isEqualTo(3);

    seatThreads.get(0).runNext(); // the seat returns at last
    time.advance(Dispatcher.STOP_REPEAT.multipliedBy(2));
    assertThat(seats.get(0).stops).as("no Stop once the seat is back").isEqualTo(3);
    assertThat(b.result()).isNotDone();
    seatThreads.get(0).runNext(); // and b, queued behind it, runs
    assertThat(b.result()).isCompleted();
    assertThat(runner.ran).containsExactly("0:a", "0:b");
  }

  @Test
  void aFinishedTurnCancelsItsTimeout() {
    start(1);
    Dispatcher.TurnHandle a = dispatcher.submit(chat("a"));
    seatThreads.get(0).runNext();

    time.advance(Duration.ofSeconds(600));

    assertThat(a.result()).isCompletedWithValueMatching(answer -> answer.reply().equals(new Reply.Final("answer to a")));
    assertThat(seats.get(0).stops).isZero();
  }

  @Test
  void aReSendOfATurnInFlightAttachesToItAndRunsOnce() {
    start(1);
    Dispatcher.TurnHandle first = dispatcher.submit(chat("a"));
    Dispatcher.TurnHandle again = dispatcher.submit(chat("a"));

    assertThat(again).isSameAs(first);
    seatThreads.get(0).runNext();
    assertThat(runner.ran).containsExactly("0:a");
    assertThat(seatThreads.get(0).queued()).isZero();
  }

  @Test
  void anAnswerTheRunnerKnowsAtSubmitNeedsNoSeat() {
    start(1);
    runner.known.put("a", new Answer(new Reply.Final("remembered"), null, new Answer.Usage(1, 1), List.of()));

    Dispatcher.TurnHandle handle = dispatcher.submit(chat("a"));

    assertThat(handle.decidedAtSubmit()).isTrue();
    assertThat(handle.result().join().reply()).isEqualTo(new Reply.Final("remembered"));
    assertThat(seatThreads.get(0).queued()).isZero();
  }

  @Test
  void aQueuedTurnWhoseClientLeftNeverReachesASeat() {
    start(1);
    dispatcher.submit(chat("a"));
    Dispatcher.TurnHandle b = dispatcher.submit(chat("b"));

    b.release();
    seatThreads.get(0).runNext();

    assertThat(failureOf(b).kind()).isEqualTo(ProviderFailure.Kind.CANCELLED);
    assertThat(runner.ran).containsExactly("0:a");
    assertThat(seatThreads.get(0).queued()).isZero();
  }

  @Test
  void aRunningTurnWhoseClientLeftIsStoppedOnceTheGraceForItsRetryIsOver() {
    start(1);
    Dispatcher.TurnHandle a = dispatcher.submit(chat("a"));

    a.release();
    time.advance(Dispatcher.REJOIN_GRACE.minusMillis(1));
    assertThat(a.result()).isNotDone();
    assertThat(seats.get(0).stops).isZero();

    time.advance(Duration.ofMillis(1));
    assertThat(failureOf(a).kind()).isEqualTo(ProviderFailure.Kind.CANCELLED);
    assertThat(seats.get(0).stops).isEqualTo(1);
  }

  @Test
  void aClientWhoseConnectionDroppedRejoinsItsRunningTurnByRetryingAndNothingIsStoppedOrTypedTwice() {
    start(1);
    Dispatcher.TurnHandle first = dispatcher.submit(chat("a"));
    first.release(); // the connection dropped after Send

    time.advance(Duration.ofSeconds(1));
    Dispatcher.TurnHandle retry = dispatcher.submit(chat("a"));
    time.advance(Dispatcher.REJOIN_GRACE.multipliedBy(2));
    seatThreads.get(0).runNext();

    assertThat(retry).isSameAs(first);
    assertThat(retry.result().join().reply()).isEqualTo(new Reply.Final("answer to a"));
    assertThat(runner.ran).containsExactly("0:a");
    assertThat(seats.get(0).stops).isZero();
  }

  @Test
  void aTurnThatFailedAfterItsSendAnswersItsIdenticalRetryFromMemoryAndTypesNothing() {
    start(1);
    runner.failures.put("a", ProviderFailure.of(ProviderFailure.Kind.UNAVAILABLE, "the page broke"));
    runner.sendsFirst.add("a");
    Dispatcher.TurnHandle first = dispatcher.submit(chat("a"));
    seatThreads.get(0).runNext();
    assertThat(failureOf(first).detail()).isEqualTo("the page broke");

    time.advance(Duration.ofSeconds(64)); // opencode's sixth retry
    Dispatcher.TurnHandle retry = dispatcher.submit(chat("a"));

    assertThat(retry.decidedAtSubmit()).isTrue();
    assertThat(failureOf(retry).kind()).isEqualTo(ProviderFailure.Kind.UNAVAILABLE);
    assertThat(failureOf(retry).detail()).contains("failed 64 s ago after its Send", "from memory", "the page broke");
    assertThat(runner.ran).containsExactly("0:a");
    assertThat(seatThreads.get(0).queued()).isZero();

    // The same session with anything changed goes through; the identical request again once the memory is over.
    dispatcher.submit(chat("a", "b"));
    seatThreads.get(0).runNext();
    time.advance(RecentFailures.HELD);
    dispatcher.submit(chat("a"));
    seatThreads.get(0).runNext();
    assertThat(runner.ran).containsExactly("0:a", "0:b", "0:a");
  }

  @Test
  void aTurnThatFailedBeforeItsSendOrWasCancelledIsNotHeld() {
    start(1);
    runner.failures.put("a", ProviderFailure.of(ProviderFailure.Kind.UNAVAILABLE, "no composer; nothing was typed"));
    Dispatcher.TurnHandle first = dispatcher.submit(chat("a"));
    seatThreads.get(0).runNext();
    assertThat(failureOf(first).kind()).isEqualTo(ProviderFailure.Kind.UNAVAILABLE);
    dispatcher.submit(chat("a"));
    seatThreads.get(0).runNext();
    assertThat(runner.ran).containsExactly("0:a", "0:a");

    runner.sendsFirst.add("c");
    Dispatcher.TurnHandle cancelled = dispatcher.submit(chat("c"));
    cancelled.release();
    time.advance(Dispatcher.REJOIN_GRACE);
    seatThreads.get(0).runNext();
    assertThat(failureOf(cancelled).kind()).isEqualTo(ProviderFailure.Kind.CANCELLED);
    Dispatcher.TurnHandle again = dispatcher.submit(chat("c"));
    assertThat(again.decidedAtSubmit()).isFalse();
  }

  @Test
  void aCapFailsNewTurnsFastUntilItLifts() {
    start(1);
    runner.failures.put("a", ProviderFailure.capped("usage cap reached", time.now().plusSeconds(3600), time.now()));
    Dispatcher.TurnHandle a = dispatcher.submit(chat("a"));
    seatThreads.get(0).runNext();
    assertThat(failureOf(a).kind()).isEqualTo(ProviderFailure.Kind.CAPPED);

    Dispatcher.TurnHandle walled = dispatcher.submit(chat("b"));
    assertThat(walled.decidedAtSubmit()).isTrue();
    assertThat(failureOf(walled).kind()).isEqualTo(ProviderFailure.Kind.CAPPED);
    assertThat(dispatcher.snapshot().state()).isEqualTo("capped");

    time.advance(Duration.ofSeconds(3601));
    Dispatcher.TurnHandle after = dispatcher.submit(chat("c"));
    seatThreads.get(0).runNext();

    assertThat(after.result()).isCompleted();
    assertThat(runner.ran).containsExactly("0:a", "0:c");
  }

  @Test
  void closingFailsQueuedTurnsAndRefusesNewOnes() {
    start(1);
    dispatcher.submit(chat("a"));
    Dispatcher.TurnHandle queued = dispatcher.submit(chat("b"));

    dispatcher.close();

    assertThat(failureOf(queued).kind()).isEqualTo(ProviderFailure.Kind.UNAVAILABLE);
    assertThat(failureOf(dispatcher.submit(chat("c"))).detail()).contains("shutting down");
    assertThat(seats.get(0).stops).isEqualTo(1);
  }

  private static ProviderFailure failureOf(Dispatcher.TurnHandle handle) {
    assertThat(handle.result()).isCompletedExceptionally();
    Throwable error = handle.result().handle((answer, e) -> e).join();
    Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    return ((TurnFailed) cause).failure();
  }

  /** Records which seat ran which turn; answers at once unless told to fail. */
  private static final class Runner implements TurnRunner {
    final List<String> ran = new ArrayList<>();
    final Map<String, Answer> known = new HashMap<>();
    final Map<String, ProviderFailure> failures = new HashMap<>();
    /** Labels whose turn reports its Send to the seat's progress listener before it ends. */
    final java.util.Set<String> sendsFirst = new java.util.HashSet<>();

    @Override
    public Optional<Answer> answerAtSubmit(TurnRequest request) {
      return Optional.ofNullable(known.get(lastUserText(request)));
    }

    @Override
    public Answer run(BrowserSeat seat, TurnRequest request, Consumer<SeatProbe> onProbe) {
      String label = lastUserText(request);
      ran.add(((StubSeat) seat).index + ":" + label);
      if (sendsFirst.contains(label)) {
        ((StubSeat) seat).progress.report(dev.solweb.provider.seat.TurnProgress.Stage.SENT, 0);
      }
      ProviderFailure failure = failures.get(label);
      if (failure != null) {
        throw new TurnFailed(failure);
      }
      return new Answer(new Reply.Final("answer to " + label), null, new Answer.Usage(1, 1), List.of());
    }

    private static String lastUserText(TurnRequest request) {
      List<Message> messages = ((TurnRequest.Chat) request).turn().messages();
      return messages.get(messages.size() - 1).content();
    }
  }

  /** A seat the runner never really drives; it counts Stop clicks. */
  private static final class StubSeat implements BrowserSeat {
    final int index;
    int stops;
    dev.solweb.provider.seat.TurnProgress progress = dev.solweb.provider.seat.TurnProgress.NONE;

    @Override
    public void progress(dev.solweb.provider.seat.TurnProgress listener) {
      progress = listener;
    }

    StubSeat(int index) {
      this.index = index;
    }

    @Override
    public SeatProbe probe() {
      return SeatProbe.ready("owner@example.invalid");
    }

    @Override
    public void openNew() {
    }

    @Override
    public void resume(String conversationUrl) {
    }

    @Override
    public Effort setEffort(Effort effort) {
      return effort;
    }

    @Override
    public SeatReply send(String text) {
      throw new UnsupportedOperationException("the stub runner never sends");
    }

    @Override
    public synchronized void stop() {
      stops++;
    }

    @Override
    public void close() {
    }
  }
}

package dev.solweb.provider.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.solweb.provider.model.Effort;
import dev.solweb.provider.protocol.Reply;
import dev.solweb.provider.seat.BrowserSeat;
import dev.solweb.provider.seat.PageInput;
import dev.solweb.provider.seat.ScreenFrame;
import dev.solweb.provider.seat.SeatProbe;
import dev.solweb.provider.seat.SeatReply;
import dev.solweb.provider.seat.SeatScreen;
import dev.solweb.provider.translate.Answer;
import dev.solweb.provider.translate.ChatInput;
import dev.solweb.provider.translate.Message;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A person's control of a seat ({@link SeatControl}) in the scheduler alone, on time and seat
 * threads the test moves by hand: the seat leaves the pool, is taken only between turns, returns
 * by a give-back or after {@link SeatControls#IDLE} without input, and probes its page
 * before its next turn.
 */
class SeatControlTest {
  private final ManualTime time = new ManualTime();
  private final List<ManualExecutor> threads = new ArrayList<>();
  private final List<String> ran = new ArrayList<>();
  private final List<PagedSeat> seats = new ArrayList<>();
  private Dispatcher dispatcher;

  private void start(int count, boolean withScreen) {
    dispatcher = new Dispatcher(index -> {
      PagedSeat seat = new PagedSeat(withScreen);
      seats.add(seat);
      return seat;
    }, new Runner(), new Dispatcher.Settings(count, Duration.ofMinutes(30), DispatchSpacing.OFF), time, index -> {
      ManualExecutor thread = new ManualExecutor();
      threads.add(thread);
      return thread;
    });
    dispatcher.start();
    threads.forEach(ManualExecutor::runNext);
  }

  @AfterEach
  void close() {
    if (dispatcher != null) {
      dispatcher.close();
    }
  }

  private static TurnRequest chat(String text) {
    return TurnRequest.chat(new ChatInput(Effort.HIGH, List.of(Message.user(text)), List.of(), Optional.empty()));
  }

  @Test
  void aFreeSeatIsTakenAtOnceATurnWaitsAndRunsAfterTheSeatIsGivenBackAndProbed() {
    start(1, true);
    CompletableFuture<SeatControl.View> taken = dispatcher.desk().takeControl(0);
    assertThat(taken).isCompleted();
    assertThat(taken.join().state()).isEqualTo(SeatControl.State.CONTROLLED);
    assertThat(taken.join().idleReleaseAt()).isEqualTo(time.now().plus(SeatControls.IDLE));

    Dispatcher.TurnHandle turn = dispatcher.submit(chat("a"));
    assertThat(threads.get(0).queued()).as("nothing is dispatched to a controlled seat").isZero();
    assertThat(turn.queuePosition()).isEqualTo(1);
    HealthSnapshot health = dispatcher.snapshot();
    assertThat(health.state()).isEqualTo("degraded");
    assertThat(health.detail()).contains("every seat is under the operator's control")
        .contains("seat 0 is under the operator's control");
    assertThat(health.controls()).extracting(SeatControl.View::seat).containsExactly(0);
    assertThat(dispatcher.desk().touch(0).state()).isEqualTo(SeatControl.State.CONTROLLED);

    // The person logged in meanwhile: the probe after the give-back sees the account.
    seats.get(0).account = "person@example.invalid";
    assertThat(dispatcher.desk().giveBack(0)).isTrue();
    assertThat(dispatcher.desk().control(0)).isNull();
    assertThat(threads.get(0).queued()).as("the re-probe, before any turn").isEqualTo(1);
    int probes = seats.get(0).probes;
    threads.get(0).runNext();
    assertThat(seats.get(0).probes).isEqualTo(probes + 1);
    assertThat(ran).isEmpty();
    assertThat(dispatcher.snapshot().account()).isEqualTo("person@example.invalid");

    threads.get(0).runNext();
    assertThat(turn.result().join().reply()).isEqualTo(new Reply.Final("answer to a"));
    assertThat(dispatcher.snapshot().state()).isEqualTo("ready");
    assertThat(dispatcher.snapshot().controls()).isEmpty();
  }

  @Test
  void controlAskedForDuringATurnIsTakenWhenTheTurnEndsAndRefusesInputUntilThen() {
    start(1, true);
    Dispatcher.TurnHandle running = dispatcher.submit(chat("running"));
    CompletableFuture<SeatControl.View> taken = dispatcher.desk().takeControl(0);
    assertThat(taken).isNotDone();
    assertThat(dispatcher.desk().control(0).state()).isEqualTo(SeatControl.State.PENDING);
    assertThatThrownBy(() -> dispatcher.desk().touch(0)).isInstanceOfSatisfying(SeatControl.Refused.class, refused -> {
      assertThat(refused.status()).isEqualTo(409);
      assertThat(refused.type()).isEqualTo("not_controlled");
      assertThat(refused.getMessage()).contains("a turn is still running");
    });
    Dispatcher.TurnHandle queued = dispatcher.submit(chat("queued"));

    threads.get(0).runNext(); // the running turn ends
    assertThat(running.result().join().reply()).isEqualTo(new Reply.Final("answer to running"));
    assertThat(taken).isCompleted();
    assertThat(taken.join().state()).isEqualTo(SeatControl.State.CONTROLLED);
    assertThat(threads.get(0).queued()).as("the queued turn waits for the give-back").isZero();
    assertThat(queued.result()).isNotDone();
    assertThat(dispatcher.desk().takeControl(0)).as("asking again answers the same").isSameAs(taken);
  }

  @Test
  void withTwoSeatsQueuedTurnsGoToTheSeatThatIsNotControlled() {
    start(2, true);
    dispatcher.desk().takeControl(0);
    Dispatcher.TurnHandle turn = dispatcher.submit(chat("b"));
    assertThat(threads.get(0).queued()).isZero();
    assertThat(threads.get(1).queued()).isEqualTo(1);
    threads.get(1).runNext();
    assertThat(turn.result().join().reply()).isEqualTo(new Reply.Final("answer to b"));
    assertThat(dispatcher.snapshot().state()).as("another seat still takes turns").isEqualTo("ready");
    assertThat(dispatcher.snapshot().detail()).contains("seat 0 is under the operator's control");
  }

  @Test
  void aControlledSeatIsGivenBackAfterTheIdleTimeCountedFromTheLastInput() {
    start(1, true);
    dispatcher.desk().takeControl(0);
    time.advance(Duration.ofMinutes(4));
    dispatcher.desk().touch(0);
    time.advance(Duration.ofMinutes(4));
    assertThat(dispatcher.desk().control(0)).as("4 min after the last input").isNotNull();
    assertThat(dispatcher.desk().control(0).idleReleaseAt()).isEqualTo(time.now().plus(Duration.ofMinutes(1)));
    time.advance(Duration.ofSeconds(59));
    assertThat(dispatcher.desk().control(0)).isNotNull();
    time.advance(Duration.ofSeconds(1));
    assertThat(dispatcher.desk().control(0)).as("5 min without input").isNull();
    assertThat(threads.get(0).queued()).as("the re-probe").isEqualTo(1);
    assertThatThrownBy(() -> dispatcher.desk().touch(0)).isInstanceOf(SeatControl.Refused.class);
  }

  @Test
  void refusalsAreTyped() {
    start(1, false);
    assertThatThrownBy(() -> dispatcher.desk().takeControl(0)).isInstanceOfSatisfying(SeatControl.Refused.class, refused -> {
      assertThat(refused.status()).isEqualTo(409);
      assertThat(refused.type()).isEqualTo("no_page");
    });
    assertThatThrownBy(() -> dispatcher.desk().takeControl(3)).isInstanceOfSatisfying(SeatControl.Refused.class, refused -> {
      assertThat(refused.status()).isEqualTo(404);
      assertThat(refused.getMessage()).contains("seats 0 to 0");
    });
    assertThat(dispatcher.desk().giveBack(0)).as("nothing to give back").isFalse();
    assertThat(dispatcher.desk().screen(0)).isEmpty();
  }

  @Test
  void aControlAskedForIsDroppedByAGiveBackBeforeTheTurnEnds() {
    start(1, true);
    dispatcher.submit(chat("running"));
    CompletableFuture<SeatControl.View> taken = dispatcher.desk().takeControl(0);
    assertThat(dispatcher.desk().giveBack(0)).isTrue();
    assertThat(taken).isCompletedExceptionally();
    Dispatcher.TurnHandle next = dispatcher.submit(chat("next"));
    threads.get(0).runNext();
    threads.get(0).runNext();
    assertThat(next.result().join().reply()).isEqualTo(new Reply.Final("answer to next"));
  }

  private final class Runner implements TurnRunner {
    @Override
    public Optional<Answer> answerAtSubmit(TurnRequest request) {
      return Optional.empty();
    }

    @Override
    public Answer run(BrowserSeat seat, TurnRequest request, Consumer<SeatProbe> onProbe) {
      List<Message> messages = ((TurnRequest.Chat) request).turn().messages();
      String text = messages.get(messages.size() - 1).content();
      ran.add(text);
      return new Answer(new Reply.Final("answer to " + text), null, new Answer.Usage(1, 1), List.of());
    }
  }

  /** A seat with (or without) a screen that does nothing, whose probe reads the account it is told. */
  private static final class PagedSeat implements BrowserSeat {
    final boolean withScreen;
    volatile String account = "owner@example.invalid";
    int probes;

    PagedSeat(boolean withScreen) {
      this.withScreen = withScreen;
    }

    @Override
    public Optional<SeatScreen> screen() {
      return withScreen ? Optional.of(new SeatScreen() {
        @Override
        public CompletableFuture<byte[]> png() {
          return CompletableFuture.completedFuture(new byte[0]);
        }

        @Override
        public Watch watch(Consumer<ScreenFrame> frames) {
          return () -> { };
        }

        @Override
        public CompletableFuture<Void> input(PageInput input) {
          return CompletableFuture.completedFuture(null);
        }

        @Override
        public boolean serve(Duration slice) {
          return false;
        }

        @Override
        public void onWork(Runnable wake) {
        }
      }) : Optional.empty();
    }

    @Override
    public SeatProbe probe() {
      probes++;
      return SeatProbe.ready(account);
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
      throw new UnsupportedOperationException("the runner never sends");
    }

    @Override
    public void stop() {
    }

    @Override
    public void close() {
    }
  }
}

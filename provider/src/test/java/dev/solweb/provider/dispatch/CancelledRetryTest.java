package dev.solweb.provider.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.solweb.provider.TestClock;
import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.failure.TurnFailed;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.protocol.Reply;
import dev.solweb.provider.scenario.Scenario;
import dev.solweb.provider.scenario.ScenarioPlayer;
import dev.solweb.provider.seat.BrowserSeat;
import dev.solweb.provider.seat.ForwardingSeat;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.SeatProbe;
import dev.solweb.provider.seat.TurnProgress;
import dev.solweb.provider.seat.scripted.ScriptedSeat;
import dev.solweb.provider.translate.Answer;
import dev.solweb.provider.translate.ChatInput;
import dev.solweb.provider.translate.ChatTurn;
import dev.solweb.provider.translate.Conversation;
import dev.solweb.provider.translate.Conversations;
import dev.solweb.provider.translate.Message;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 38, item 5, on the scripted seat with the dispatcher's time in the test's hand: a client
 * leaves a slow turn after its Send, nobody rejoins within the grace, solwebd clicks Stop; the
 * conversation is {@code cancelled}, not uncertain, and the client's identical retry is answered
 * by one page action (a replay into a fresh conversation) without any time passing: no wait for
 * the answer the stopped page will not finish.
 */
class CancelledRetryTest {
  /** Conversation 1: an answer, then a turn that never ends by itself; any fresh conversation answers at once. */
  private static final String SCENARIO = """
      {"default": [
        {"blocks": ["{\\"tool\\": \\"final\\", \\"text\\": \\"hi\\"}"]},
        {"fault": "hang"}
      ]}
      """;

  private final TestClock clock = new TestClock();
  private final ManualTime time = new ManualTime();
  /** As {@link #SCENARIO}, and conversation 1 has an answer left for the page's Regenerate. */
  private static final String REGENERABLE = """
      {"default": [
        {"blocks": ["{\\"tool\\": \\"final\\", \\"text\\": \\"hi\\"}"]},
        {"fault": "hang"},
        {"blocks": ["{\\"tool\\": \\"final\\", \\"text\\": \\"regenerated\\"}"]}
      ]}
      """;

  private ScenarioPlayer player = new ScenarioPlayer(Scenario.parse(SCENARIO));
  private final Conversations conversations = Conversations.inMemory(clock);
  private final ExecutorService seatThread = Executors.newSingleThreadExecutor();
  /** One permit per Send the page took (the seat's own SENT report). */
  private final Semaphore sent = new Semaphore(0);
  /** One permit per turn that left the seat. */
  private final Semaphore returned = new Semaphore(0);
  private Dispatcher dispatcher;

  @AfterEach
  void stop() {
    dispatcher.close();
    seatThread.shutdownNow();
  }

  private static ChatTurn turn(Message... messages) {
    return ChatTurn.of(new ChatInput(Effort.HIGH, List.of(messages), List.of(), Optional.empty()));
  }

  private void start() throws Exception {
    SeatTurn turns = new SeatTurn(conversations, clock);
    TurnRunner counted = new TurnRunner() {
      @Override
      public Optional<Answer> answerAtSubmit(TurnRequest request) {
        return turns.answerAtSubmit(request);
      }

      @Override
      public Optional<ProviderFailure> refusalAtSubmit(TurnRequest request) {
        return turns.refusalAtSubmit(request);
      }

      @Override
      public Optional<String> replayed(TurnRequest request) {
        return turns.replayed(request);
      }

      @Override
      public Answer run(BrowserSeat seat, TurnRequest request, Consumer<SeatProbe> onProbe) throws SeatException {
        try {
          return turns.run(seat, request, onProbe);
        } finally {
          returned.release();
        }
      }
    };
    dispatcher = new Dispatcher(index -> new ForwardingSeat(new ScriptedSeat(player, clock)) {
      @Override
      public void progress(TurnProgress listener) {
        super.progress((stage, chars) -> {
          listener.report(stage, chars);
          if (stage == TurnProgress.Stage.SENT) {
            sent.release();
          }
        });
      }
    }, counted, new Dispatcher.Settings(1, java.time.Duration.ofSeconds(300), DispatchSpacing.OFF), time,
        index -> seatThread);
    dispatcher.start().get(10, TimeUnit.SECONDS);
  }

  /** The slow turn a client left, and the handle it left. */
  private record Stopped(ChatTurn turn, Dispatcher.TurnHandle left) {}

  /** Sends "hello", then the slow turn, leaves it and lets the grace run out: Stop. */
  private Stopped stoppedAfterTheClientLeft() throws Exception {
    ChatTurn first = turn(Message.user("hello"));
    assertThat(dispatcher.submit(new TurnRequest.Chat(first)).result().get(10, TimeUnit.SECONDS).reply())
        .isEqualTo(new Reply.Final("hi"));
    ChatTurn slow = turn(Message.user("hello"), new Message(Message.Role.ASSISTANT, "hi", List.of(), null),
        Message.user("now the slow one"));
    Dispatcher.TurnHandle left = dispatcher.submit(new TurnRequest.Chat(slow));
    assertThat(sent.tryAcquire(2, 10, TimeUnit.SECONDS)).as("the page took both Sends").isTrue();
    left.release(); // the client is gone
    time.advance(Dispatcher.REJOIN_GRACE); // nobody rejoined: Stop
    assertThat(returned.tryAcquire(2, 10, TimeUnit.SECONDS)).as("the stopped turn left its seat").isTrue();
    assertThat(conversations.current(slow.sessionKey()))
        .hasValueSatisfying(c -> assertThat(c.status()).isEqualTo(Conversation.Status.CANCELLED));
    return new Stopped(slow, left);
  }

  @Test
  void theIdenticalRetryOfAStoppedTurnIsAnsweredByThePagesRegenerateInTheSameConversation() throws Exception {
    player = new ScenarioPlayer(Scenario.parse(REGENERABLE));
    start();
    ChatTurn slow = stoppedAfterTheClientLeft().turn();

    Answer answer = dispatcher.submit(new TurnRequest.Chat(slow)).result().get(10, TimeUnit.SECONDS); // no time passes

    assertThat(answer.reply()).isEqualTo(new Reply.Final("regenerated"));
    List<ScenarioPlayer.Send> sends = player.sends();
    assertThat(sends).as("nothing typed again").hasSize(2);
    assertThat(player.regenerations()).as("one page action, in the stopped turn's conversation")
        .containsExactly(sends.get(1).conversationId());
    assertThat(conversations.current(slow.sessionKey())).hasValueSatisfying(c -> {
      assertThat(c.status()).isEqualTo(Conversation.Status.READY);
      assertThat(c.url()).endsWith(sends.get(1).conversationId());
    });
    dispatcher.runBetweenTurns(seat -> null).get(10, TimeUnit.SECONDS);
    assertThat(dispatcher.views().finishedTurns()).extracting(FinishedTurn::replayed).containsOnlyNulls();
    assertThat(conversations.replays().byCause()).doesNotContainKey("cancelled");
  }

  @Test
  void aTurnStoppedAfterItsClientLeftIsCancelledAndItsRetryIsAnsweredByOneFreshSend() throws Exception {
    start();
    Stopped stopped = stoppedAfterTheClientLeft();
    ChatTurn slow = stopped.turn();
    Dispatcher.TurnHandle left = stopped.left();

    assertThat(left.result()).isCompletedExceptionally();
    assertThat(left.result().handle((ok, e) -> e instanceof CompletionException c ? c.getCause() : e).join())
        .isInstanceOfSatisfying(TurnFailed.class, f -> assertThat(f.failure().kind()).isEqualTo(ProviderFailure.Kind.CANCELLED));
    assertThat(conversations.current(slow.sessionKey())).hasValueSatisfying(c -> {
      assertThat(c.status()).isEqualTo(Conversation.Status.CANCELLED);
      assertThat(c.recoverable()).as("the stopped answer is never looked for").isFalse();
    });

    Dispatcher.TurnHandle retry = dispatcher.submit(new TurnRequest.Chat(slow));
    Answer answer = retry.result().get(10, TimeUnit.SECONDS); // no time passes on the dispatcher's clock

    assertThat(answer.reply()).isEqualTo(new Reply.Final("hi"));
    List<ScenarioPlayer.Send> sends = player.sends();
    assertThat(sends).as("one page action for the retry").hasSize(3);
    assertThat(sends.get(2).conversationId()).isNotEqualTo(sends.get(1).conversationId());
    // Seat work runs once the retry has left the seat and its record is in the turn list.
    dispatcher.runBetweenTurns(seat -> null).get(10, TimeUnit.SECONDS);
    assertThat(dispatcher.views().finishedTurns()).extracting(FinishedTurn::replayed).containsExactly("cancelled", null,
        null);
    assertThat(conversations.replays().byCause()).containsEntry("cancelled", 1L);
  }
}

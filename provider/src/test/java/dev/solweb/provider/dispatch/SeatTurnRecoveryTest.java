package dev.solweb.provider.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.solweb.provider.TestClock;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.protocol.Reply;
import dev.solweb.provider.seat.AnswerStats;
import dev.solweb.provider.seat.BrowserSeat;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.SeatProbe;
import dev.solweb.provider.seat.SeatReply;
import dev.solweb.provider.seat.SentMessage;
import dev.solweb.provider.translate.Answer;
import dev.solweb.provider.translate.ChatInput;
import dev.solweb.provider.translate.ChatTurn;
import dev.solweb.provider.translate.Conversation;
import dev.solweb.provider.translate.Conversations;
import dev.solweb.provider.translate.Message;
import dev.solweb.provider.translate.TurnOutcome;
import dev.solweb.provider.translate.TurnPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * {@link SeatTurn} on a seat it scripts: an uncertain turn is answered from its conversation with
 * nothing typed; a conversation holding none replays; a turn the page refuses because its
 * conversation is gone replays into a fresh one, once; a send the page's request proved is
 * recorded on the mark.
 */
class SeatTurnRecoveryTest {
  private static final String URL = "https://chat.invalid/c/6929a1b2-0c3d";

  private final TestClock clock = new TestClock();
  private final Conversations conversations = Conversations.inMemory(clock);
  private final SeatTurn runner = new SeatTurn(conversations, clock);

  /** A seat that records every verb; {@code recovered} is what its conversation holds. */
  private static final class Seat implements BrowserSeat {
    final List<String> calls = new ArrayList<>();
    Optional<SeatReply> recovered = Optional.empty();
    /** What the page's Regenerate answers; empty: the page offers none. */
    Optional<SeatReply> regenerated = Optional.empty();
    boolean missingOnFirstSend;
    boolean downgradeOnFirstSend;
    boolean stoppedOnFirstSend;
    Consumer<SentMessage> sent = m -> { };

    @Override
    public SeatProbe probe() {
      return SeatProbe.ready("owner@example.invalid");
    }

    @Override
    public void openNew() {
      calls.add("openNew");
    }

    @Override
    public void resume(String url) {
      calls.add("resume " + url);
    }

    @Override
    public Effort setEffort(Effort effort) {
      return effort;
    }

    @Override
    public void onSent(Consumer<SentMessage> listener) {
      sent = listener == null ? m -> { } : listener;
    }

    @Override
    public SeatReply send(String text) throws SeatException {
      calls.add("send");
      if (missingOnFirstSend) {
        missingOnFirstSend = false;
        sent.accept(new SentMessage("u-refused", URL));
        throw SeatException.conversationMissing("the page answered HTTP 404 conversation_not_found");
      }
      if (stoppedOnFirstSend) {
        // The dispatcher clicked Stop (the client left, the rejoin grace ran out) after the page took the Send.
        stoppedOnFirstSend = false;
        sent.accept(new SentMessage("u-stopped", URL));
        throw SeatException.failed(dev.solweb.provider.failure.ProviderFailure.of(
            dev.solweb.provider.failure.ProviderFailure.Kind.CANCELLED, "Stop clicked; the turn was cancelled"), true);
      }
      if (downgradeOnFirstSend) {
        downgradeOnFirstSend = false;
        sent.accept(new SentMessage("u-small", URL));
        throw SeatException.failed(dev.solweb.provider.failure.ProviderFailure.capped("the stream says the model was"
            + " adjusted (auto:smaller_model:reached_message_cap) (plan limit downgrade)", java.time.Instant.parse(
            "2026-12-04T20:00:00Z"), java.time.Instant.parse("2026-12-04T19:00:00Z")), true);
      }
      sent.accept(new SentMessage("u-2", "https://chat.invalid/c/7a00b1c2-1d4e"));
      return new SeatReply(List.of(), "typed answer", "https://chat.invalid/c/7a00b1c2-1d4e");
    }

    @Override
    public Optional<SeatReply> recover(String url, String userMessageId) {
      calls.add("recover " + url + " " + userMessageId);
      return recovered;
    }

    @Override
    public Optional<SeatReply> regenerate() {
      calls.add("regenerate");
      return regenerated;
    }

    @Override
    public void stop() {}

    @Override
    public void close() {}
  }

  private static ChatTurn turn(String text) {
    return ChatTurn.of(new ChatInput(Effort.HIGH, List.of(Message.user(text)), List.of(), Optional.empty()));
  }

  private static String text(Answer answer) {
    return ((Reply.Final) answer.reply()).text();
  }

  /** Leaves {@code turn} uncertain past a send the page's request proved (user message u-1 in URL). */
  private void uncertain(ChatTurn turn) {
    TurnPlan plan = conversations.plan(turn);
    conversations.sending(plan);
    conversations.record(plan, new TurnOutcome.Uncertain(URL, "timeout", "u-1"));
  }

  @Test
  void aTurnSolwebdStoppedIsCancelledAndItsRetryReplaysAtOnceWithoutWaitingOnThePartialAnswer() throws Exception {
    ChatTurn turn = turn("a slow one");
    Seat seat = new Seat();
    seat.stoppedOnFirstSend = true;
    seat.recovered = Optional.of(new SeatReply(List.of(), "half an ans", URL)); // what the stopped page shows

    org.assertj.core.api.Assertions.assertThatThrownBy(() -> runner.run(seat, new TurnRequest.Chat(turn), p -> { }))
        .isInstanceOf(SeatException.class);
    assertThat(conversations.current(turn.sessionKey())).hasValueSatisfying(c -> {
      assertThat(c.status()).isEqualTo(Conversation.Status.CANCELLED);
      assertThat(c.recoverable()).isFalse();
    });

    Answer answer = runner.run(seat, new TurnRequest.Chat(turn), p -> { });

    assertThat(text(answer)).isEqualTo("typed answer");
    // The page offers no Regenerate (nothing sent), so one page action for the retry: a fresh
    // conversation and its send; the stopped answer is never read.
    assertThat(seat.calls).containsExactly("openNew", "send", "resume " + URL, "regenerate", "openNew", "send");
    assertThat(runner.replayed(new TurnRequest.Chat(turn))).hasValue("cancelled");
    assertThat(conversations.replays().byCause()).containsEntry("cancelled", 1L);
  }

  @Test
  void theIdenticalRetryOfAStoppedTurnIsAnsweredByThePagesRegenerateInTheSameConversationWithNothingTyped()
      throws Exception {
    ChatTurn turn = turn("a slow one");
    Seat seat = new Seat();
    seat.stoppedOnFirstSend = true;
    seat.recovered = Optional.of(new SeatReply(List.of(), "half an ans", URL));
    seat.regenerated = Optional.of(new SeatReply(List.of(), "regenerated answer", URL));
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> runner.run(seat, new TurnRequest.Chat(turn), p -> { }))
        .isInstanceOf(SeatException.class);

    Answer answer = runner.run(seat, new TurnRequest.Chat(turn), p -> { });

    assertThat(text(answer)).isEqualTo("regenerated answer");
    assertThat(seat.calls).as("one page action, nothing typed").containsExactly("openNew", "send", "resume " + URL,
        "regenerate");
    assertThat(conversations.current(turn.sessionKey())).hasValueSatisfying(c -> {
      assertThat(c.status()).isEqualTo(Conversation.Status.READY);
      assertThat(c.url()).isEqualTo(URL);
      assertThat(c.deliveredCount()).isEqualTo(2);
    });
    assertThat(runner.replayed(new TurnRequest.Chat(turn))).isEmpty();
    assertThat(conversations.replays().byCause()).doesNotContainKey("cancelled");
  }

  @Test
  void aDifferentRequestAfterAStoppedTurnNeverRegeneratesItReplays() throws Exception {
    ChatTurn turn = turn("a slow one");
    Seat seat = new Seat();
    seat.stoppedOnFirstSend = true;
    seat.regenerated = Optional.of(new SeatReply(List.of(), "regenerated answer", URL));
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> runner.run(seat, new TurnRequest.Chat(turn), p -> { }))
        .isInstanceOf(SeatException.class);

    ChatTurn changed = ChatTurn.of(new ChatInput(Effort.HIGH, List.of(Message.user("a slow one"),
        Message.user("and one thing more")), List.of(), Optional.empty()));
    assertThat(changed.sessionKey()).isEqualTo(turn.sessionKey());
    Answer answer = runner.run(seat, new TurnRequest.Chat(changed), p -> { });

    assertThat(text(answer)).isEqualTo("typed answer");
    assertThat(seat.calls).containsExactly("openNew", "send", "openNew", "send");
  }

  @Test
  void anUncertainTurnIsAnsweredFromItsConversationWithNothingTyped() throws Exception {
    ChatTurn turn = turn("hello");
    uncertain(turn);
    Seat seat = new Seat();
    seat.recovered = Optional.of(new SeatReply(List.of(), "the answer it wrote", URL, null, List.of(), SeatReply.Source.HISTORY));
    long before = AnswerStats.GLOBAL.recoveredAnswers();

    Answer answer = runner.run(seat, new TurnRequest.Chat(turn), p -> { });

    assertThat(text(answer)).isEqualTo("the answer it wrote");
    assertThat(seat.calls).containsExactly("recover " + URL + " u-1");
    assertThat(AnswerStats.GLOBAL.recoveredAnswers() - before).isEqualTo(1);
    assertThat(conversations.current(turn.sessionKey()).orElseThrow().status()).isEqualTo(Conversation.Status.READY);
  }

  @Test
  void aConversationHoldingNoAnswerReplaysIntoAFreshOneAndTheProvenSendIsMarked() throws Exception {
    ChatTurn turn = turn("hello");
    uncertain(turn);
    Seat seat = new Seat();

    Answer answer = runner.run(seat, new TurnRequest.Chat(turn), p -> { });

    assertThat(text(answer)).isEqualTo("typed answer");
    assertThat(seat.calls).containsExactly("recover " + URL + " u-1", "openNew", "send");
    assertThat(conversations.current(turn.sessionKey()).orElseThrow().url()).isEqualTo("https://chat.invalid/c/7a00b1c2-1d4e");
  }

  /**
   * Row 51: the smaller model's answer stays in the conversation, but the capped turn is never
   * answered from it: the same request again is not recovered, it replays into a fresh one.
   */
  @Test
  void aTurnCappedAfterSendIsNeverRecoveredFromItsConversationTheRetryReplays() throws Exception {
    ChatTurn turn = turn("hello");
    Seat seat = new Seat();
    seat.downgradeOnFirstSend = true;
    seat.recovered = Optional.of(new SeatReply(List.of(), "from the smaller model", URL, "gpt-5-6-mini", List.of(),
        SeatReply.Source.HISTORY));
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> runner.run(seat, new TurnRequest.Chat(turn), p -> { }))
        .isInstanceOf(SeatException.class).hasMessageContaining("smaller_model");
    assertThat(conversations.current(turn.sessionKey()).orElseThrow().status()).isEqualTo(Conversation.Status.UNCERTAIN);

    Answer answer = runner.run(seat, new TurnRequest.Chat(turn), p -> { });

    assertThat(text(answer)).isEqualTo("typed answer");
    assertThat(seat.calls).containsExactly("openNew", "send", "openNew", "send");
  }

  @Test
  void aTurnRefusedBecauseItsConversationIsGoneReplaysIntoAFreshOneOnce() throws Exception {
    ChatTurn first = turn("hello");
    TurnPlan plan = conversations.plan(first);
    conversations.sending(plan);
    conversations.record(plan, new TurnOutcome.Replied(new Reply.Final("hi"), URL, 1, 0, 1, List.of()));
    ChatTurn second = ChatTurn.of(new ChatInput(Effort.HIGH, List.of(Message.user("hello"),
        new Message(Message.Role.ASSISTANT, "hi", List.of(), null), Message.user("more")), List.of(), Optional.empty()));
    Seat seat = new Seat();
    seat.missingOnFirstSend = true;

    Answer answer = runner.run(seat, new TurnRequest.Chat(second), p -> { });

    assertThat(text(answer)).isEqualTo("typed answer");
    assertThat(seat.calls).containsExactly("resume " + URL, "send", "openNew", "send");
    Conversation now = conversations.current(second.sessionKey()).orElseThrow();
    assertThat(now.status()).isEqualTo(Conversation.Status.READY);
    assertThat(now.url()).isNotEqualTo(URL);
  }
}

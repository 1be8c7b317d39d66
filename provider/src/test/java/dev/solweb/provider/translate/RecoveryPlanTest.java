package dev.solweb.provider.translate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.solweb.provider.TestClock;
import dev.solweb.provider.protocol.Reply;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A send the page's request proved, then left uncertain (the daemon killed right after Send, the
 * browser lost, a timeout): the same request looks for its answer in the conversation first
 * ({@link TurnPlan.Recover}), across a restart too; any other request replays as before.
 */
class RecoveryPlanTest {
  private static final String URL = "https://chat.invalid/c/6929a1b2-0c3d";

  @TempDir Path home;
  private final TestClock clock = new TestClock();

  private static ChatTurn turn(Message... messages) {
    return ConversationsTest.turn(messages);
  }

  /** Plans {@code turn}, marks it and leaves it uncertain past a send whose request named {@code userMessageId} (or none). */
  private static void uncertain(Conversations conversations, ChatTurn turn, String url, String userMessageId) {
    TurnPlan plan = conversations.plan(turn);
    conversations.sending(plan);
    conversations.record(plan, new TurnOutcome.Uncertain(url, "timeout", userMessageId));
  }

  @Test
  void aKillRightAfterAProvenSendLeavesAMarkThatTheSameRequestRecoversFromAfterTheRestart() throws Exception {
    Path file = home.resolve("registry.json");
    Conversations before = new Conversations(Registry.persistent(file), clock);
    ChatTurn first = turn(Message.user("hello"));
    TurnPlan plan = before.plan(first);
    before.sending(plan);
    before.sent(plan, "u-1", null); // the request named the user message; a new chat has no URL yet
    before.sent(plan, "u-1", URL);  // the stream named the conversation
    // kill -9 here: nothing else is written.

    Registry reloaded = Registry.persistent(file);
    Conversation left = reloaded.get(first.sessionKey()).orElseThrow();
    assertThat(left.status()).isEqualTo(Conversation.Status.UNCERTAIN);
    assertThat(left.sentMessageId()).isEqualTo("u-1");
    assertThat(left.url()).isEqualTo(URL);
    assertThat(left.recoverable()).isTrue();
    try (var marks = Files.list(home.resolve("registry.in-flight"))) {
      assertThat(marks).as("the mark was read and cleared").isEmpty();
    }

    Conversations after = new Conversations(reloaded, clock);
    TurnPlan again = after.plan(first);
    assertThat(again).isInstanceOfSatisfying(TurnPlan.Recover.class, r -> {
      assertThat(r.uncertain().sentMessageId()).isEqualTo("u-1");
      assertThat(r.text()).as("nothing is typed for it").isEmpty();
    });
    Answer answer = after.record(again, new TurnOutcome.Replied(new Reply.Final("hi"), URL, 1, 0, 5, List.of())).orElseThrow();
    assertThat(((Reply.Final) answer.reply()).text()).isEqualTo("hi");

    // The conversation carries on with the delta.
    Conversation ready = reloaded.get(first.sessionKey()).orElseThrow();
    assertThat(ready.status()).isEqualTo(Conversation.Status.READY);
    assertThat(ready.sentMessageId()).isNull();
    TurnPlan next = after.plan(ConversationsTest.extend(first, ConversationsTest.assistant("hi"), Message.user("more")));
    assertThat(next).isInstanceOfSatisfying(TurnPlan.Deliver.class, d -> assertThat(d.into().url()).isEqualTo(URL));
    assertThat(next.text()).isEqualTo("USER\nmore");
  }

  @Test
  void anotherRequestThanTheUncertainOneReplaysAndSoDoesAnUnprovenSend() {
    Registry registry = Registry.inMemory();
    Conversations conversations = new Conversations(registry, clock);
    ChatTurn first = turn(Message.user("hello"));
    uncertain(conversations, first, URL, "u-1");
    assertThat(conversations.plan(first)).isInstanceOf(TurnPlan.Recover.class);
    assertThat(conversations.plan(turn(Message.user("something else")))).isInstanceOf(TurnPlan.Replay.class);

    ChatTurn other = turn(Message.user("unproven"));
    uncertain(conversations, other, URL, null); // no request was seen
    assertThat(conversations.plan(other)).isInstanceOf(TurnPlan.Replay.class);
  }

  @Test
  void aRecoveryThatFindsNothingReplaysIntoAFreshConversation() {
    Registry registry = Registry.inMemory();
    Conversations conversations = new Conversations(registry, clock);
    ChatTurn first = turn(Message.user("hello"));
    uncertain(conversations, first, URL, "u-1");

    TurnPlan.Replay replay = conversations.replayUnrecovered((TurnPlan.Recover) conversations.plan(first));
    assertThat(replay.why()).contains("holds no answer");
    assertThat(replay.text()).startsWith("PROTOCOL").endsWith("USER\nhello");
    assertThat(replay.replaced().url()).isEqualTo(URL);
  }

  @Test
  void aTemporaryChatIsNeverRecoveredItsPageIsGone() {
    Registry registry = Registry.inMemory();
    Conversations conversations = new Conversations(registry, clock,
        new dev.solweb.provider.translate.ConversationPlace.Temporary());
    ChatTurn first = turn(Message.user("hello"));
    uncertain(conversations, first, URL + "?temporary-chat=true", "u-1");
    assertThat(conversations.plan(first)).isInstanceOf(TurnPlan.Replay.class);
  }
}

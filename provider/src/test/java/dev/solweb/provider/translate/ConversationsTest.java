package dev.solweb.provider.translate;

import dev.solweb.provider.TestClock;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.protocol.Reply;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The turn planner and recorder: translate's two verbs, on a registry and a clock the test holds. */
class ConversationsTest {
  private static final String URL = "https://chat.invalid/c/one";

  @TempDir Path home;
  private final TestClock clock = new TestClock();
  private final Registry registry = Registry.inMemory();
  private final Conversations conversations = new Conversations(registry, clock);

  static ChatTurn turn(Message... messages) {
    return ChatTurn.of(new ChatInput(Effort.HIGH, List.of(messages), List.of(), Optional.empty()));
  }

  static ChatTurn extend(ChatTurn turn, Message... more) {
    List<Message> all = new ArrayList<>(turn.messages());
    all.addAll(List.of(more));
    return turn(all.toArray(Message[]::new));
  }

  static Message assistant(String text) {
    return new Message(Message.Role.ASSISTANT, text, List.of(), null);
  }

  /** Plans {@code turn}, marks its send and records {@code reply} as the model's answer. */
  private Answer replied(ChatTurn turn, Reply reply) {
    TurnPlan plan = conversations.plan(turn);
    conversations.sending(plan);
    return conversations.record(plan, new TurnOutcome.Replied(reply, URL, 1, 0, 5, List.of())).orElseThrow();
  }

  private Answer answer(TurnPlan plan, String text) {
    conversations.sending(plan);
    return conversations.record(plan, new TurnOutcome.Replied(new Reply.Final(text), URL, 1, 0, 10, List.of()))
        .orElseThrow();
  }

  @Test
  void aSessionNotSeenBeforeReplaysThePreambleAndTheWholeHistory() {
    TurnPlan plan = conversations.plan(turn(Message.system("house rules"), Message.user("hello")));

    assertThat(plan).isInstanceOf(TurnPlan.Replay.class);
    assertThat(plan.text()).startsWith("PROTOCOL").contains("SYSTEM\nhouse rules").endsWith("USER\nhello");
    assertThat(plan.overflow()).isEmpty();
  }

  @Test
  void aTurnThatExtendsTheAnsweredHistoryDeliversOnlyTheNewMessages() {
    ChatTurn first = turn(Message.user("hello"));
    Answer one = answer(conversations.plan(first), "hi");

    TurnPlan next = conversations.plan(extend(first, assistant("hi"), Message.user("more")));

    assertThat(next).isInstanceOfSatisfying(TurnPlan.Deliver.class, deliver -> assertThat(deliver.into().url()).isEqualTo(URL));
    assertThat(next.text()).isEqualTo("USER\nmore");
    Answer two = answer(next, "done");
    assertThat(two.usage().promptTokens()).isGreaterThan(one.usage().promptTokens());
    assertThat(two.usage().completionTokens()).isEqualTo(20);
  }

  @Test
  void aToolCallIsRecordedWithAnIdAndItsResultIsDeliveredAlone() {
    ChatTurn first = turn(Message.user("read a.txt"));
    ObjectNode arguments = JsonNodeFactory.instance.objectNode().put("path", "a.txt");
    Answer call = replied(first, new Reply.ToolCall("read", arguments));

    assertThat(call.toolCallIds()).singleElement().asString().matches("call_1_[0-9a-f]{8}");
    String id = call.toolCallIds().get(0);
    ChatTurn next = extend(first,
        new Message(Message.Role.ASSISTANT, null, List.of(new Message.ToolCallRef(id, "read", arguments)), null),
        new Message(Message.Role.TOOL, "contents", List.of(), id));
    assertThat(conversations.plan(next).text()).isEqualTo("TOOL RESULT [" + id + "]\ncontents");
  }

  @Test
  void severalCallsAreOneAssistantMessageWithDistinctIdsAndTheirResultsAreOneDelta() {
    ChatTurn first = turn(Message.user("read a and b"));
    ObjectNode a = JsonNodeFactory.instance.objectNode().put("path", "a.txt");
    ObjectNode b = JsonNodeFactory.instance.objectNode().put("path", "b.txt");
    Answer calls = replied(first, Reply.of(List.of(new Reply.ToolCall("read", a), new Reply.ToolCall("read", b))));

    assertThat(calls.toolCallIds()).hasSize(2).doesNotHaveDuplicates()
        .allMatch(id -> id.matches("call_1_[0-9a-f]{8}"));
    assertThat(calls.calls()).extracting(Answer.Call::name).containsExactly("read", "read");
    assertThat(conversations.remembered(first)).as("a re-send gets the same calls and ids").contains(calls);
    String idA = calls.toolCallIds().get(0);
    String idB = calls.toolCallIds().get(1);
    ChatTurn next = extend(first, new Message(Message.Role.ASSISTANT, null,
            List.of(new Message.ToolCallRef(idA, "read", a), new Message.ToolCallRef(idB, "read", b)), null),
        new Message(Message.Role.TOOL, "B", List.of(), idB), new Message(Message.Role.TOOL, "A", List.of(), idA));
    TurnPlan delta = conversations.plan(next);
    assertThat(delta).isInstanceOf(TurnPlan.Deliver.class);
    assertThat(delta.text()).isEqualTo("TOOL RESULT [" + idA + "]\nA\n\nTOOL RESULT [" + idB + "]\nB");
  }

  @Test
  void anIdenticalReSendIsRememberedAndADifferentTurnIsNot() {
    ChatTurn first = turn(Message.user("hello"));
    Answer one = answer(conversations.plan(first), "hi");

    assertThat(conversations.remembered(turn(Message.user("hello")))).contains(one);
    assertThat(conversations.remembered(turn(Message.user("hello"), assistant("hi"), Message.user("more")))).isEmpty();
  }

  @Test
  void aRememberedAnswerExpiresAfterItsAge() {
    ChatTurn first = turn(Message.user("hello"));
    answer(conversations.plan(first), "hi");

    clock.advance(Conversations.MAX_ANSWER_AGE);
    assertThat(conversations.remembered(first)).isPresent();
    clock.advance(Duration.ofSeconds(1));
    assertThat(conversations.remembered(first)).isEmpty();
  }

  @Test
  void anAnswerOverTheSizeBoundIsNotRemembered() {
    ChatTurn first = turn(Message.user("hello"));
    answer(conversations.plan(first), "x".repeat(Conversations.MAX_ANSWER_CHARS + 1));

    assertThat(conversations.remembered(first)).isEmpty();
  }

  @Test
  void aSendMarkedInFlightIsOnDiskAndAfterARestartTheConversationIsReplaced() {
    Registry persistent = Registry.persistent(home.resolve("registry.json"));
    Conversations before = new Conversations(persistent, clock);
    ChatTurn first = turn(Message.user("hello"));
    TurnPlan plan = before.plan(first);
    before.sending(plan);
    before.record(plan, new TurnOutcome.Replied(new Reply.Final("hi"), URL, 1, 0, 10, List.of()));
    ChatTurn second = extend(first, assistant("hi"), Message.user("more"));
    before.sending(before.plan(second)); // ... and the daemon is killed here

    Conversations after = new Conversations(Registry.persistent(home.resolve("registry.json")), clock);
    TurnPlan resent = after.plan(second);

    assertThat(resent).isInstanceOfSatisfying(TurnPlan.Replay.class,
        replay -> assertThat(replay.why()).contains("uncertain"));
    assertThat(resent.text()).contains("USER\nhello", "ASSISTANT\nhi", "USER\nmore");
    assertThat(after.remembered(first)).as("the turn before still answers its own re-send").isPresent();
  }

  @Test
  void aFailurePastSendLeavesTheConversationUncertain() {
    ChatTurn first = turn(Message.user("hello"));
    answer(conversations.plan(first), "hi");
    ChatTurn second = extend(first, assistant("hi"), Message.user("more"));
    TurnPlan plan = conversations.plan(second);
    conversations.sending(plan);

    conversations.record(plan, new TurnOutcome.Uncertain(null, "browser lost"));

    assertThat(registry.get(second.sessionKey()).orElseThrow().status()).isEqualTo(Conversation.Status.UNCERTAIN);
    assertThat(conversations.plan(second)).isInstanceOf(TurnPlan.Replay.class);
  }

  @Test
  void aFailureBeforeSendLeavesTheConversationAsItWas() {
    ChatTurn first = turn(Message.user("hello"));
    answer(conversations.plan(first), "hi");
    Conversation held = registry.get(first.sessionKey()).orElseThrow();
    ChatTurn second = extend(first, assistant("hi"), Message.user("more"));
    TurnPlan plan = conversations.plan(second);
    conversations.sending(plan);

    conversations.record(plan, new TurnOutcome.NotSent());

    assertThat(registry.get(first.sessionKey())).contains(held);
    assertThat(conversations.plan(second)).isInstanceOf(TurnPlan.Deliver.class);
  }

  @Test
  void aNewSessionThatFailedBeforeSendLeavesNoEntry() {
    ChatTurn first = turn(Message.user("hello"));
    TurnPlan plan = conversations.plan(first);
    conversations.sending(plan);

    conversations.record(plan, new TurnOutcome.NotSent());

    assertThat(registry.get(first.sessionKey())).isEmpty();
  }

  @Test
  void aRetiredConversationIsReplacedOnItsNextTurn() {
    ChatTurn first = turn(Message.user("hello"));
    TurnPlan plan = conversations.plan(first);
    answer(plan, "hi");

    conversations.record(plan, new TurnOutcome.Retired("the conversation is full"));

    TurnPlan next = conversations.plan(extend(first, assistant("hi"), Message.user("more")));
    assertThat(next).isInstanceOfSatisfying(TurnPlan.Replay.class, replay -> assertThat(replay.why()).contains("retired"));
  }

  @Test
  void aConversationMissingFromThePageIsReplayedFresh() {
    ChatTurn first = turn(Message.user("hello"));
    answer(conversations.plan(first), "hi");
    TurnPlan.Deliver deliver = (TurnPlan.Deliver) conversations.plan(extend(first, assistant("hi"), Message.user("more")));

    TurnPlan.Replay replay = conversations.replayMissing(deliver);

    assertThat(replay.text()).startsWith("PROTOCOL").contains("USER\nhello", "USER\nmore");
    assertThat(replay.replaced()).isEqualTo(deliver.into());
  }

  @Test
  void aDeltaThatWouldOverflowTheWindowIsRefusedByThePlan() {
    ChatTurn first = turn(Message.user("hello"));
    answer(conversations.plan(first), "hi");
    String huge = "x".repeat((int) ContextBudget.INPUT_CEILING);

    TurnPlan next = conversations.plan(extend(first, assistant("hi"), Message.user(huge)));

    assertThat(next.overflow()).hasValueSatisfying(
        failure -> assertThat(failure.kind()).isEqualTo(ProviderFailure.Kind.CONTEXT_OVERFLOW));
  }
}

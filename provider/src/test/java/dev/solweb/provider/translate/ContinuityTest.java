package dev.solweb.provider.translate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.TestClock;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.platform.Json;
import dev.solweb.provider.protocol.Reply;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A client's re-serialization of solwebd's own answer never forces a replay; a real rewrite of
 * what the client owns replays once, counted and logged with the first message that differs.
 */
class ContinuityTest {
  private static final String URL = "https://chat.invalid/c/one";

  private final TestClock clock = new TestClock();
  private final Conversations conversations = new Conversations(Registry.inMemory(), clock);
  private final List<String> logged = new ArrayList<>();
  private final Handler handler = new Handler() {
    @Override
    public void publish(LogRecord record) {
      logged.add(record.getMessage());
    }

    @Override
    public void flush() { }

    @Override
    public void close() { }
  };

  @BeforeEach
  void listen() {
    Logger.getLogger(Conversations.class.getName()).addHandler(handler);
  }

  @AfterEach
  void stopListening() {
    Logger.getLogger(Conversations.class.getName()).removeHandler(handler);
  }

  private static ChatTurn turn(List<Message> messages) {
    return ChatTurn.of(new ChatInput(Effort.HIGH, messages, List.of(), Optional.empty()));
  }

  private static List<Message> plus(List<Message> history, Message... more) {
    List<Message> all = new ArrayList<>(history);
    all.addAll(List.of(more));
    return all;
  }

  /** Plans, sends and records {@code reply} for {@code messages}; the plan it ran. */
  private TurnPlan answered(List<Message> messages, Reply reply) {
    TurnPlan plan = conversations.plan(turn(messages));
    conversations.sending(plan);
    conversations.record(plan, new TurnOutcome.Replied(reply, URL, 1, 0, 5, List.of())).orElseThrow();
    return plan;
  }

  private Answer answer(List<Message> messages, Reply reply) {
    answered(messages, reply);
    return conversations.remembered(turn(messages)).orElseThrow();
  }

  private static ObjectNode json(String text) throws Exception {
    return (ObjectNode) Json.MAPPER.readTree(text);
  }

  private static Message chat(String json) throws Exception {
    return Message.fromJson(Json.MAPPER.readTree(json), 0);
  }

  private static Message tool(String id, String text) {
    return new Message(Message.Role.TOOL, text, List.of(), id);
  }

  private static Message echo(String id, String name, JsonNode arguments) {
    return new Message(Message.Role.ASSISTANT, "", List.of(new Message.ToolCallRef(id, name, arguments)), null);
  }

  /** Asks for the edit, answers it with one Edit call, and says what solwebd minted. */
  private Answer editAnswered(List<Message> start) throws Exception {
    return answer(start, new Reply.ToolCall("Edit", json("{\"file_path\": \"a.txt\", \"old_string\": \"x\","
        + " \"new_string\": \"y\"}")));
  }

  private void assertContinues(List<Message> next, String typed) {
    TurnPlan plan = conversations.plan(turn(next));
    assertThat(plan).as("plan for a re-serialized echo").isInstanceOf(TurnPlan.Deliver.class);
    assertThat(plan.text()).isEqualTo(typed);
    assertThat(conversations.replays().total()).isZero();
  }

  @Test
  void anEditEchoedWithReplaceAllFalseAddedContinues() throws Exception {
    List<Message> start = List.of(Message.system("rules"), Message.user("fix a.txt"));
    Answer edit = editAnswered(start);
    String id = edit.toolCallIds().get(0);

    // Claude Code 2.1.33x echoes Edit with the default it fills in.
    Message echoed = echo(id, "Edit", json("{\"replace_all\": false, \"new_string\": \"y\", \"old_string\": \"x\","
        + " \"file_path\": \"a.txt\"}"));

    assertContinues(plus(start, echoed, tool(id, "edited")), "TOOL RESULT [" + id + "]\nedited");
  }

  @Test
  void nullsDroppedAndKeysReorderedContinue() throws Exception {
    List<Message> start = List.of(Message.user("run it"));
    Answer bash = answer(start, new Reply.ToolCall("bash", json("{\"command\": \"make\", \"timeout\": null, \"cwd\": \"/w\"}")));
    String id = bash.toolCallIds().get(0);

    Message echoed = chat("{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"" + id + "\",\"type\":"
        + "\"function\",\"function\":{\"name\":\"bash\",\"arguments\":\"{\\\"cwd\\\":\\\"/w\\\",\\\"command\\\":\\\"make\\\"}\"}}]}");

    assertContinues(plus(start, echoed, tool(id, "ok")), "TOOL RESULT [" + id + "]\nok");
  }

  @Test
  void aFinalAnswerReWrappedTrimmedAndSentAsBlocksWithCacheMarkersContinues() throws Exception {
    List<Message> start = List.of(Message.user("explain"));
    answer(start, new Reply.Final("The build fails because the header is missing.\n\nAdd it first."));

    Message echoed = chat("{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"  The build fails because"
        + " the\\nheader is missing. \"},{\"type\":\"text\",\"text\":\"Add it first.\\n\","
        + "\"cache_control\":{\"type\":\"ephemeral\"}}]}");

    assertContinues(plus(start, echoed, Message.user("thanks")), "USER\nthanks");
  }

  @Test
  void thinkingDroppedOrAddedAsItsOwnMessageContinues() throws Exception {
    List<Message> start = List.of(Message.user("fix a.txt"));
    Answer edit = editAnswered(start);
    String id = edit.toolCallIds().get(0);
    // A thinking block kept as a message of its own reads as an assistant message without text or calls.
    Message thinkingOnly = new Message(Message.Role.ASSISTANT, "", List.of(), null);
    Message echoed = echo(id, "Edit", json("{\"file_path\": \"a.txt\", \"old_string\": \"x\", \"new_string\": \"y\"}"));

    assertContinues(plus(start, thinkingOnly, echoed, tool(id, "edited")), "TOOL RESULT [" + id + "]\nedited");
  }

  @Test
  void oneReplysCallsSplitIntoMessagesAdjacentOrBetweenTheirResultsContinue() throws Exception {
    List<Message> start = List.of(Message.user("read both"));
    Answer two = answer(start, new Reply.ToolCalls(List.of(
        new Reply.ToolCall("Read", json("{\"file_path\": \"a.txt\"}")),
        new Reply.ToolCall("Read", json("{\"file_path\": \"b.txt\"}")))));
    String a = two.toolCallIds().get(0);
    String b = two.toolCallIds().get(1);
    Message callA = echo(a, "Read", json("{\"file_path\": \"a.txt\"}"));
    Message callB = echo(b, "Read", json("{\"file_path\": \"b.txt\"}"));
    String typed = "TOOL RESULT [" + a + "]\nA\n\nTOOL RESULT [" + b + "]\nB";

    assertContinues(plus(start, callA, callB, tool(a, "A"), tool(b, "B")), typed);
    assertContinues(plus(start, callA, tool(a, "A"), callB, tool(b, "B")), typed);
  }

  @Test
  void anEditedUserMessageReplaysOnceNamingTheFirstMessageThatDiffers() throws Exception {
    // The first user message keys the session (SessionKey): an edit of a later one is a rewrite of this session.
    List<Message> start = List.of(Message.system("rules"), Message.user("task: the a files"), Message.user("fix a.txt"));
    String id = editAnswered(start).toolCallIds().get(0);
    Message echoed = echo(id, "Edit", json("{\"file_path\": \"a.txt\", \"old_string\": \"x\", \"new_string\": \"y\"}"));

    List<Message> edited = List.of(Message.system("rules"), Message.user("task: the a files"), Message.user("fix b.txt"),
        echoed, tool(id, "edited"));
    TurnPlan replay = answered(edited, new Reply.Final("done"));

    assertThat(replay).isInstanceOfSatisfying(TurnPlan.Replay.class, r -> {
      assertThat(r.cause()).isEqualTo(ReplayCause.REWRITTEN);
      assertThat(r.why()).contains("message 2 (user) differs in content");
    });
    assertThat(logged).anySatisfy(line -> assertThat(line).contains("replay (rewritten)")
        .contains("message 2 (user) differs in content"));
    assertThat(conversations.replays().byCause()).isEqualTo(Map.of("rewritten", 1L));

    // Once: the fresh conversation holds the rewritten history, and the next turn extends it.
    TurnPlan next = conversations.plan(turn(plus(edited, new Message(Message.Role.ASSISTANT, "done", List.of(), null),
        Message.user("and c.txt"))));
    assertThat(next).isInstanceOf(TurnPlan.Deliver.class);
  }

  @Test
  void aChangedToolResultReplaysNamingIt() throws Exception {
    List<Message> start = List.of(Message.user("fix a.txt"));
    String id = editAnswered(start).toolCallIds().get(0);
    Message echoed = echo(id, "Edit", json("{\"file_path\": \"a.txt\", \"old_string\": \"x\", \"new_string\": \"y\"}"));
    answered(plus(start, echoed, tool(id, "edited")), new Reply.Final("done"));

    TurnPlan replay = conversations.plan(turn(plus(start, echoed, tool(id, "edited, 2 lines"),
        new Message(Message.Role.ASSISTANT, "done", List.of(), null), Message.user("next"))));

    assertThat(replay).isInstanceOfSatisfying(TurnPlan.Replay.class, r -> {
      assertThat(r.cause()).isEqualTo(ReplayCause.REWRITTEN);
      assertThat(r.why()).contains("message 2 (tool) differs in content");
    });
  }

  @Test
  void aCompactionReplaysOnceAndIsCountedApart() throws Exception {
    List<Message> start = List.of(Message.system("rules"), Message.user("fix a.txt"));
    String id = editAnswered(start).toolCallIds().get(0);
    Message echoed = echo(id, "Edit", json("{\"file_path\": \"a.txt\", \"old_string\": \"x\", \"new_string\": \"y\"}"));
    List<Message> longer = plus(start, echoed, tool(id, "edited"));
    answered(longer, new Reply.Final("done"));

    // The task stays (it keys the session); what came after it is summed up in one message.
    List<Message> compacted = List.of(Message.system("rules"), Message.user("fix a.txt"),
        Message.user("Summary: a.txt was fixed. Go on."));
    TurnPlan replay = answered(compacted, new Reply.Final("ok"));

    assertThat(replay).isInstanceOfSatisfying(TurnPlan.Replay.class, r -> {
      assertThat(r.cause()).isEqualTo(ReplayCause.COMPACTED);
      assertThat(r.why()).contains("message 2 (assistant) differs in role");
    });
    assertThat(conversations.replays().byCause()).isEqualTo(Map.of("compacted", 1L));
    TurnPlan next = conversations.plan(turn(plus(compacted, new Message(Message.Role.ASSISTANT, "ok", List.of(), null),
        Message.user("go"))));
    assertThat(next).isInstanceOf(TurnPlan.Deliver.class);
    assertThat(conversations.replays().total()).isEqualTo(1);
  }

  @Test
  void aReplyAfterACompactionNeverSharesItsNumberWithAKeptReplyAndTheTaskContinues() throws Exception {
    // Pi's compaction keeps the latest calls and sums up the rest, so the history is shorter than
    // the replies it holds are numbered: a reply numbered by its place alone took a kept reply's
    // number, Continuity joined the two, and every later turn replayed (the kill gate's long task).
    List<Message> start = List.of(Message.system("rules"), Message.user("fix a.txt"));
    List<Message> history = new ArrayList<>(start);
    for (int i = 0; i < 3; i++) {
      String id = editAnswered(history).toolCallIds().get(0);
      history.add(echo(id, "Edit", json("{\"file_path\": \"a.txt\", \"old_string\": \"x\", \"new_string\": \"y\"}")));
      history.add(tool(id, "edited " + i));
    }
    // Kept after the summary: the second and third replies (call_2_..., call_3_...) and their results,
    // so the next reply's place in the history is 3 again.
    List<Message> compacted = plus(List.of(Message.system("rules"), Message.user("fix a.txt"),
        Message.user("Summary: one edit was made. Go on.")), history.subList(history.size() - 4, history.size())
        .toArray(Message[]::new));
    String kept = compacted.get(5).toolCalls().get(0).id();
    assertThat(kept).startsWith("call_3_");
    String next = editAnswered(compacted).toolCallIds().get(0);

    assertThat(next).isNotEqualTo(kept);
    assertThat(next.split("_")[1]).as("the new reply's number is past the kept one's (%s)", kept)
        .isNotEqualTo(kept.split("_")[1]);
    long replays = conversations.replays().total();
    assertContinuesAfter(plus(compacted, echo(next, "Edit", json("{\"file_path\": \"a.txt\", \"old_string\": \"x\","
        + " \"new_string\": \"y\", \"replace_all\": false}")), tool(next, "edited 3")), replays);
  }

  private void assertContinuesAfter(List<Message> history, long replaysBefore) {
    assertThat(conversations.plan(turn(history))).isInstanceOf(TurnPlan.Deliver.class);
    assertThat(conversations.replays().total()).isEqualTo(replaysBefore);
  }

  @Test
  void aReplayRefusedBeforeSendIsNotCounted() {
    List<Message> start = List.of(Message.user("hello"));
    answered(start, new Reply.Final("hi"));
    TurnPlan replay = conversations.plan(turn(List.of(Message.user("hello, edited"))));
    conversations.sending(replay);

    conversations.record(replay, new TurnOutcome.NotSent());

    assertThat(replay).isInstanceOf(TurnPlan.Replay.class);
    assertThat(conversations.replays().total()).isZero();
  }

  @Test
  void aSystemMessageInsideTheHistoryKeysTheSameWhateverItsWhitespace() {
    List<Message> blocks = List.of(Message.user("go"), Message.system("# Environment\ncwd: /work\nplatform: linux"));
    List<Message> string = List.of(Message.user("go"), Message.system("# Environment\n\ncwd: /work\nplatform: linux\n"));

    assertThat(turn(string).sessionKey()).isEqualTo(turn(blocks).sessionKey());
    assertThat(turn(string).historyDigest()).isEqualTo(turn(blocks).historyDigest());
  }

  @Test
  void aStoppedTurnIsCancelledAndItsRetryReplaysAtOnce() {
    List<Message> start = List.of(Message.user("hello"));
    answered(start, new Reply.Final("hi"));
    List<Message> second = plus(start, new Message(Message.Role.ASSISTANT, "hi", List.of(), null), Message.user("slow one"));
    TurnPlan plan = conversations.plan(turn(second));
    conversations.sending(plan);
    conversations.sent(plan, "u-1", URL);

    conversations.record(plan, new TurnOutcome.Cancelled(URL, "Stop clicked; the turn was cancelled"));

    assertThat(conversations.current(turn(second).sessionKey())).hasValueSatisfying(c -> {
      assertThat(c.status()).isEqualTo(Conversation.Status.CANCELLED);
      assertThat(c.recoverable()).isFalse();
    });
    TurnPlan retry = conversations.plan(turn(second));
    assertThat(retry).isInstanceOfSatisfying(TurnPlan.Replay.class, r -> assertThat(r.cause()).isEqualTo(ReplayCause.CANCELLED));
  }

  @Test
  void splitMergesOnlyWhatOneReplyMinted() throws Exception {
    ObjectNode none = Json.MAPPER.createObjectNode();
    Message first = echo("call_2_0000000a", "Read", none);
    Message result = tool("call_2_0000000a", "A");
    Message other = echo("call_3_0000000b", "Read", none);

    assertThat(Continuity.merged(List.of(Message.user("u"), first, result, other))).hasSize(4);
    assertThat(Continuity.merged(List.of(Message.user("u"), first, result, echo("call_2_0000000c", "Read", none))))
        .hasSize(3);
  }
}

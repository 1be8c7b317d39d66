package dev.solweb.provider.translate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.protocol.Reply;
import dev.solweb.provider.protocol.ReplyParser;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DeliveryTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String CALL_ID = "call_1_0a1b2c3d";

  private static ObjectNode arguments() {
    ObjectNode args = JsonNodeFactory.instance.objectNode();
    args.put("path", "src/a.txt");
    args.put("limit", 200);
    return args;
  }

  /** What the daemon delivered: the client's first request plus its own tool-call answer. */
  private static List<Message> delivered() {
    return List.of(
        Message.system("You are a coding agent."),
        Message.user("read src/a.txt"),
        new Message(Message.Role.ASSISTANT, "", List.of(new Message.ToolCallRef(CALL_ID, "read", arguments())), null));
  }

  private static Conversation conversationHolding(List<Message> delivered) {
    return new Conversation("0123456789abcdef", "https://chat.invalid/c/abc", Effort.HIGH, delivered.size(),
        HistoryDigest.of(delivered), 1, 1_700_000_000L, Conversation.Status.READY, null, 1000, 50, null);
  }

  /**
   * What production types for {@code request} when the registry holds {@code held} for its
   * session: {@link Conversations#plan}, the only caller of {@link Delivery#deliver}.
   *
   * @throws ReplayNeeded (with the plan's reason) when the plan replays instead
   */
  private static String deliver(Conversation held, List<Message> request) throws ReplayNeeded {
    ChatTurn turn = ChatTurn.of(new ChatInput(Effort.HIGH, request, List.of(), Optional.empty()));
    Registry registry = Registry.inMemory();
    registry.put(new Conversation(turn.sessionKey(), held.url(), held.effort(), held.deliveredCount(),
        held.deliveredDigest(), held.turns(), held.openedAtEpochSecond(), held.status(), null,
        held.estimatedInput(), held.estimatedOutput(), null));
    TurnPlan plan = new Conversations(registry, Clock.systemUTC()).plan(turn);
    if (plan instanceof TurnPlan.Replay replay) {
      throw new ReplayNeeded(replay.cause(), replay.why());
    }
    return plan.text();
  }

  private static List<Message> extend(List<Message> prefix, Message... more) {
    List<Message> all = new ArrayList<>(prefix);
    all.addAll(List.of(more));
    return all;
  }

  private static Message toolResult(String id, String content) {
    return new Message(Message.Role.TOOL, content, List.of(), id);
  }

  private static Message parse(String json, int index) throws BadRequest {
    try {
      return Message.fromJson(JSON.readTree(json), index);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void matchingPrefixDeliversOnlyTheRenderedSuffixInThePinnedEnvelope() throws Exception {
    List<Message> request = extend(delivered(), toolResult(CALL_ID, "line one\nline two"), Message.user("now test it"));

    String typed = deliver(conversationHolding(delivered()), request);

    assertThat(typed).isEqualTo("TOOL RESULT [" + CALL_ID + "]\nline one\nline two\n\nUSER\nnow test it");
  }

  @Test
  void rewrittenHistoryNeedsAReplay() {
    List<Message> rewritten = new ArrayList<>(delivered());
    rewritten.set(1, Message.user("read src/b.txt"));
    rewritten.add(toolResult(CALL_ID, "content"));

    assertThatThrownBy(() -> deliver(conversationHolding(delivered()), rewritten))
        .isInstanceOf(ReplayNeeded.class)
        .hasMessageContaining("does not extend");
  }

  @Test
  void compactedHistoryThatDropsTheFirstMessagesNeedsAReplay() {
    List<Message> compacted = List.of(Message.system("You are a coding agent."), Message.user("summary of it all"),
        toolResult(CALL_ID, "x"), Message.user("go on"));

    assertThatThrownBy(() -> deliver(conversationHolding(delivered()), compacted))
        .isInstanceOf(ReplayNeeded.class);
  }

  @Test
  void historyThatAddsNothingNeedsAReplay() {
    assertThatThrownBy(() -> deliver(conversationHolding(delivered()), delivered()))
        .isInstanceOf(ReplayNeeded.class)
        .hasMessageContaining("adds nothing");
  }

  @Test
  void shorterHistoryNeedsAReplay() {
    assertThatThrownBy(() -> deliver(conversationHolding(delivered()), delivered().subList(0, 2)))
        .isInstanceOf(ReplayNeeded.class);
  }

  @Test
  void suffixContainingAnAssistantMessageNeedsAReplay() {
    List<Message> request = extend(delivered(), toolResult(CALL_ID, "ok"),
        new Message(Message.Role.ASSISTANT, "I wrote this myself", List.of(), null), Message.user("continue"));

    assertThatThrownBy(() -> deliver(conversationHolding(delivered()), request))
        .isInstanceOf(ReplayNeeded.class)
        .hasMessageContaining("assistant");
  }

  @Test
  void suffixContainingASystemMessageNeedsAReplay() {
    List<Message> request = extend(delivered(), Message.system("new rules"), Message.user("continue"));

    assertThatThrownBy(() -> deliver(conversationHolding(delivered()), request))
        .isInstanceOf(ReplayNeeded.class)
        .hasMessageContaining("system");
  }

  @Test
  void prefixReSerializedByTheClientStillMatches() throws Exception {
    // The client echoes our answer with content null, arguments as a string with other key order and
    // spacing, the system prompt as a developer message, and text-part arrays carrying cache_control.
    List<Message> request = List.of(
        parse("{\"role\":\"developer\",\"content\":[{\"type\":\"text\",\"text\":\"You are a coding agent.\","
            + "\"cache_control\":{\"type\":\"ephemeral\"}}]}", 0),
        parse("{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"read src/a.txt\"}]}", 1),
        parse("{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"" + CALL_ID + "\",\"type\":\"function\","
            + "\"function\":{\"name\":\"read\",\"arguments\":\"{ \\\"limit\\\": 200, \\\"path\\\": \\\"src/a.txt\\\" }\"}}]}", 2),
        parse("{\"role\":\"tool\",\"tool_call_id\":\"" + CALL_ID + "\",\"content\":[{\"type\":\"text\",\"text\":\"hello\"}]}", 3));

    String typed = deliver(conversationHolding(delivered()), request);

    assertThat(typed).isEqualTo("TOOL RESULT [" + CALL_ID + "]\nhello");
  }

  @Test
  void prefixWhoseArgumentNumbersTheClientReSerializedStillMatches() throws Exception {
    // The daemon records the call as the model wrote it (ReplyParser's object); a JavaScript client
    // echoes 30.0 as 30.
    Reply.ToolCall call = (Reply.ToolCall) ReplyParser.parse(
        List.of("{\"tool\": \"bash\", \"arguments\": {\"command\": \"make\", \"timeout\": 30.0}}"), "", Set.of("bash"));
    List<Message> delivered = List.of(Message.user("build it"),
        new Message(Message.Role.ASSISTANT, "", List.of(new Message.ToolCallRef(CALL_ID, call.name(), call.arguments())), null));
    List<Message> request = List.of(Message.user("build it"),
        parse("{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"" + CALL_ID + "\",\"type\":\"function\","
            + "\"function\":{\"name\":\"bash\",\"arguments\":\"{\\\"command\\\":\\\"make\\\",\\\"timeout\\\":30}\"}}]}", 1),
        toolResult(CALL_ID, "ok"));

    assertThat(deliver(conversationHolding(delivered), request)).isEqualTo("TOOL RESULT [" + CALL_ID + "]\nok");
  }

  @Test
  void anEchoOfSolwebdsOwnCallWithOtherArgumentsStillContinues() throws Exception {
    // The call carries the id solwebd minted: whatever the client did to its arguments, it is solwebd's answer.
    List<Message> request = List.of(
        Message.system("You are a coding agent."),
        Message.user("read src/a.txt"),
        parse("{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"" + CALL_ID + "\",\"type\":\"function\","
            + "\"function\":{\"name\":\"read\",\"arguments\":\"{\\\"limit\\\":201,\\\"path\\\":\\\"src/a.txt\\\"}\"}}]}", 2),
        toolResult(CALL_ID, "hello"));

    assertThat(deliver(conversationHolding(delivered()), request)).isEqualTo("TOOL RESULT [" + CALL_ID + "]\nhello");
  }

  @Test
  void aCallSolwebdDidNotMintWithADifferentArgumentValueDoesNotMatch() throws Exception {
    String foreign = "toolu_01AbCdEf";
    List<Message> held = List.of(Message.user("read src/a.txt"),
        new Message(Message.Role.ASSISTANT, "", List.of(new Message.ToolCallRef(foreign, "read", arguments())), null));
    List<Message> request = List.of(
        Message.user("read src/a.txt"),
        parse("{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"" + foreign + "\",\"type\":\"function\","
            + "\"function\":{\"name\":\"read\",\"arguments\":\"{\\\"limit\\\":201,\\\"path\\\":\\\"src/a.txt\\\"}\"}}]}", 1),
        toolResult(foreign, "hello"));

    assertThatThrownBy(() -> deliver(conversationHolding(held), request))
        .isInstanceOf(ReplayNeeded.class);
  }

  @Test
  void deliverAllRendersUserAssistantToolCallsAndToolResultsAndSkipsSystem() {
    List<Message> history = List.of(
        Message.system("SYSTEM-RULES-MARKER"),
        Message.user("read src/a.txt"),
        new Message(Message.Role.ASSISTANT, null, List.of(new Message.ToolCallRef(CALL_ID, "read", arguments())), null),
        toolResult(CALL_ID, "hello"),
        new Message(Message.Role.ASSISTANT, "It says hello.", List.of(), null),
        Message.user("thanks"));

    String typed = Delivery.deliverAll(history);

    assertThat(typed).isEqualTo("USER\nread src/a.txt\n\n"
        + "ASSISTANT\n```json\n{\"tool\": \"read\", \"arguments\": {\"path\":\"src/a.txt\",\"limit\":200}}\n```\n\n"
        + "TOOL RESULT [" + CALL_ID + "]\nhello\n\n"
        + "ASSISTANT\nIt says hello.\n\n"
        + "USER\nthanks");
    assertThat(typed).doesNotContain("SYSTEM-RULES-MARKER");
  }

  @Test
  void deliverAllRendersAToolCallTheReplyParserReadsBackAsTheSameCall() {
    String typed = Delivery.deliverAll(List.of(
        new Message(Message.Role.ASSISTANT, "", List.of(new Message.ToolCallRef(CALL_ID, "read", arguments())), null)));
    String block = typed.substring(typed.indexOf("```json\n") + "```json\n".length(), typed.lastIndexOf("\n```"));

    Reply reply = ReplyParser.parse(List.of(block), "", Set.of("read"));

    assertThat(reply).isEqualTo(new Reply.ToolCall("read", arguments()));
  }

  @Test
  void deliverAllNeverRaisesEvenForHistoriesDeliverWouldRefuse() {
    List<Message> odd = List.of(
        new Message(Message.Role.ASSISTANT, "I start", List.of(), null),
        toolResult("", ""),
        Message.system("late system"));

    assertThat(Delivery.deliverAll(odd)).isEqualTo("ASSISTANT\nI start\n\nTOOL RESULT []\n");
    assertThat(Delivery.deliverAll(List.of())).isEmpty();
  }

  // The calls of one reply and their results.

  private static Message.ToolCallRef call(String id, String path) {
    return new Message.ToolCallRef(id, "read", JsonNodeFactory.instance.objectNode().put("path", path));
  }

  private static final List<Message.ToolCallRef> THREE = List.of(call("call_2_aaaaaaaa", "a.txt"),
      call("call_2_bbbbbbbb", "b.txt"), call("call_2_cccccccc", "c.txt"));

  private static List<Message> batchDelivered() {
    return List.of(Message.user("read a, b and c"), new Message(Message.Role.ASSISTANT, "", THREE, null));
  }

  private static List<Message> withResults(List<Message> delivered, Message... results) {
    List<Message> request = new ArrayList<>(delivered);
    request.addAll(List.of(results));
    return request;
  }

  @Test
  void theResultsOfOneReplyAreTypedTogetherInCallOrderWhateverOrderTheyArriveIn() throws Exception {
    // Claude Code through ccr sends them as its tools finish: measured b, a, c.
    List<Message> request = withResults(batchDelivered(), toolResult("call_2_bbbbbbbb", "B"),
        toolResult("call_2_aaaaaaaa", "A"), toolResult("call_2_cccccccc", "C"));

    String typed = deliver(conversationHolding(batchDelivered()), request);

    assertThat(typed).isEqualTo("TOOL RESULT [call_2_aaaaaaaa]\nA\n\nTOOL RESULT [call_2_bbbbbbbb]\nB\n\n"
        + "TOOL RESULT [call_2_cccccccc]\nC");
  }

  @Test
  void aPartialSetIsTypedWithANoteNamingTheCallsWithoutAResult() throws Exception {
    List<Message> request = withResults(batchDelivered(), toolResult("call_2_cccccccc", "C"),
        toolResult("call_2_aaaaaaaa", "A"));

    String typed = deliver(conversationHolding(batchDelivered()), request);

    assertThat(typed).isEqualTo("TOOL RESULT [call_2_aaaaaaaa]\nA\n\nTOOL RESULT [call_2_cccccccc]\nC\n\n"
        + "NOTE\n2 of 3 results arrived; the agent sent none for call_2_bbbbbbbb (read). Call again whatever of it you"
        + " still need.");
  }

  @Test
  void aUserTurnAfterTheResultsFollowsThemInTheSameTurn() throws Exception {
    List<Message> request = withResults(batchDelivered(), toolResult("call_2_aaaaaaaa", "A"),
        toolResult("call_2_bbbbbbbb", "B"), toolResult("call_2_cccccccc", "C"), Message.user("then stop"));

    assertThat(deliver(conversationHolding(batchDelivered()), request)).endsWith("TOOL RESULT [call_2_cccccccc]\nC\n\n"
        + "USER\nthen stop").startsWith("TOOL RESULT [call_2_aaaaaaaa]\nA\n\n");
  }

  @Test
  void theResultsOfOneReplyShareOneBoundAndSmallOnesStayWhole() throws Exception {
    String small = "listing\n".repeat(100);
    String large = "x".repeat(50_000);
    List<Message> request = withResults(batchDelivered(), toolResult("call_2_aaaaaaaa", large),
        toolResult("call_2_bbbbbbbb", small), toolResult("call_2_cccccccc", large.replace('x', 'y')));

    String typed = deliver(conversationHolding(batchDelivered()), request);

    int share = (TurnEnvelope.MAX_TURN_RESULT_CHARS - small.length()) / 2;
    assertThat(typed).contains("TOOL RESULT [call_2_bbbbbbbb]\n" + small + "\n\n");
    assertThat(typed).contains("x".repeat(share / 2) + "\n…" + (50_000 - share) + " chars elided…\n");
    assertThat(typed.length()).isLessThan(TurnEnvelope.MAX_TURN_RESULT_CHARS + 200);
  }

  @Test
  void aReplayKeepsTheCallsOfOneReplyInOneBlockThatParsesBackToTheSameCalls() {
    List<Message> history = withResults(batchDelivered(), toolResult("call_2_cccccccc", "C"),
        toolResult("call_2_aaaaaaaa", "A"), toolResult("call_2_bbbbbbbb", "B"));

    String typed = Delivery.deliverAll(history);

    assertThat(typed).isEqualTo("USER\nread a, b and c\n\nASSISTANT\n```json\n{\"calls\": ["
        + "{\"tool\": \"read\", \"arguments\": {\"path\":\"a.txt\"}}, {\"tool\": \"read\", \"arguments\": {\"path\":\"b.txt\"}}, "
        + "{\"tool\": \"read\", \"arguments\": {\"path\":\"c.txt\"}}]}\n```\n\n"
        + "TOOL RESULT [call_2_aaaaaaaa]\nA\n\nTOOL RESULT [call_2_bbbbbbbb]\nB\n\nTOOL RESULT [call_2_cccccccc]\nC");
    String block = typed.substring(typed.indexOf("```json\n") + "```json\n".length(), typed.lastIndexOf("\n```"));
    assertThat(ReplyParser.parse(List.of(block), "", Set.of("read")).calls())
        .extracting(c -> c.arguments().path("path").asText()).containsExactly("a.txt", "b.txt", "c.txt");
  }
}

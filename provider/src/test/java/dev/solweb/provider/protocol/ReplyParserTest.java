package dev.solweb.provider.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ReplyParserTest {
  private static final Set<String> TOOLS = Set.of("read", "write", "bash");

  private static Reply parse(String... blocks) {
    return ReplyParser.parse(List.of(blocks), "", TOOLS);
  }

  private static String reasonOf(Reply reply) {
    assertThat(reply).isInstanceOf(Reply.Malformed.class);
    return ((Reply.Malformed) reply).reason();
  }

  @Test
  void oneBlockNamingAKnownToolIsAToolCallWithObjectArguments() {
    Reply reply = parse("{\"tool\": \"write\", \"arguments\": {\"path\": \"hello.txt\", \"content\": \"hi\"}}");

    assertThat(reply).isInstanceOfSatisfying(Reply.ToolCall.class, call -> {
      assertThat(call.name()).isEqualTo("write");
      assertThat(call.arguments().isObject()).isTrue();
      assertThat(call.arguments().get("path").asText()).isEqualTo("hello.txt");
      assertThat(call.arguments().get("content").asText()).isEqualTo("hi");
    });
  }

  @Test
  void emptyArgumentsObjectIsAToolCall() {
    assertThat(parse("{\"tool\":\"bash\",\"arguments\":{}}")).isInstanceOfSatisfying(Reply.ToolCall.class,
        call -> assertThat(call.arguments().size()).isZero());
  }

  @Test
  void finalBlockIsTheFinalAnswer() {
    assertThat(parse("{\"tool\": \"final\", \"text\": \"Created hello.txt.\"}"))
        .isEqualTo(new Reply.Final("Created hello.txt."));
  }

  @Test
  void zeroBlocksIsTheProseStrippedAsTheFinalAnswer() {
    Reply reply = ReplyParser.parse(List.of(), "\n  The answer is 42.  \n", TOOLS);

    assertThat(reply).isEqualTo(new Reply.Final("The answer is 42."));
  }

  @Test
  void twoBlocksAreMalformedNamingTheCount() {
    Reply reply = parse("{\"tool\":\"read\",\"arguments\":{\"path\":\"a\"}}", "{\"tool\":\"final\",\"text\":\"done\"}");

    assertThat(reasonOf(reply)).contains("2 code blocks").contains("exactly one");
  }

  @Test
  void invalidJsonIsMalformed() {
    assertThat(reasonOf(parse("{\"tool\": \"read\", \"arguments\": {\"path\": \"a\"}"))).contains("not valid JSON");
  }

  @Test
  void twoJsonObjectsInOneBlockAreMalformedNotASilentlyDroppedSecondCall() {
    String reason = reasonOf(parse("{\"tool\": \"read\", \"arguments\": {\"path\": \"a\"}}\n"
        + "{\"tool\": \"bash\", \"arguments\": {\"command\": \"rm -rf build\"}}"));

    assertThat(reason).contains("not valid JSON");
  }

  @Test
  void trailingTextAfterTheJsonObjectIsMalformed() {
    assertThat(reasonOf(parse("{\"tool\": \"final\", \"text\": \"done\"}}"))).contains("not valid JSON");
    assertThat(reasonOf(parse("{\"tool\": \"final\", \"text\": \"done\"} and more"))).contains("not valid JSON");
  }

  @Test
  void trailingWhitespaceAfterTheJsonObjectIsFine() {
    assertThat(parse("\n  {\"tool\": \"final\", \"text\": \"done\"}\n\n  ")).isEqualTo(new Reply.Final("done"));
  }

  @Test
  void unknownToolIsMalformedNamingItAndTheKnownTools() {
    String reason = reasonOf(parse("{\"tool\": \"rm_rf\", \"arguments\": {}}"));

    assertThat(reason).contains("unknown tool \"rm_rf\"").contains("bash, read, write, final");
  }

  @Test
  void nonObjectArgumentsAreMalformed() {
    assertThat(reasonOf(parse("{\"tool\": \"read\", \"arguments\": \"{\\\"path\\\": \\\"a\\\"}\"}")))
        .contains("\"arguments\" for tool \"read\" must be a JSON object");
    assertThat(reasonOf(parse("{\"tool\": \"read\", \"arguments\": [\"a\"]}")))
        .contains("must be a JSON object");
  }

  @Test
  void missingArgumentsAreMalformed() {
    assertThat(reasonOf(parse("{\"tool\": \"read\"}"))).contains("\"arguments\"").contains("JSON object");
  }

  @Test
  void missingToolKeyIsMalformed() {
    assertThat(reasonOf(parse("{\"name\": \"read\", \"arguments\": {}}"))).contains("no string \"tool\" key");
  }

  @Test
  void nonStringToolKeyIsMalformed() {
    assertThat(reasonOf(parse("{\"tool\": 7, \"arguments\": {}}"))).contains("\"tool\" key");
  }

  @Test
  void topLevelJsonThatIsNotAnObjectIsMalformed() {
    assertThat(reasonOf(parse("[{\"tool\": \"read\", \"arguments\": {}}]"))).contains("one JSON object");
  }

  @Test
  void finalWithoutStringTextIsMalformed() {
    assertThat(reasonOf(parse("{\"tool\": \"final\", \"answer\": \"done\"}"))).contains("\"text\"");
  }

  // Several calls in one reply.

  private static final String READ_SCHEMA = "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"},"
      + "\"limit\":{\"type\":\"integer\"}},\"required\":[\"path\"],\"additionalProperties\":false}";

  private static ReplyRules rules(boolean parallel, int cap) throws Exception {
    com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
    return ReplyRules.of(List.of(
        new dev.solweb.provider.protocol.ToolSpec("read", "", json.readTree(READ_SCHEMA)),
        new dev.solweb.provider.protocol.ToolSpec("bash", "", json.readTree(
            "{\"type\":\"object\",\"properties\":{\"command\":{\"type\":\"string\"}},\"required\":[\"command\"]}"))),
        parallel, cap);
  }

  private static Reply parse(ReplyRules rules, String block) {
    return ReplyParser.parse(List.of(block), "", rules);
  }

  @Test
  void aCallsListIsEveryCallInOrder() throws Exception {
    Reply reply = parse(rules(true, 8), "{\"calls\": [{\"tool\": \"read\", \"arguments\": {\"path\": \"a\"}},"
        + " {\"tool\": \"bash\", \"arguments\": {\"command\": \"ls\"}}, {\"tool\": \"read\", \"arguments\": {\"path\": \"b\"}}]}");

    assertThat(reply).isInstanceOf(Reply.ToolCalls.class);
    assertThat(reply.calls()).extracting(Reply.ToolCall::name).containsExactly("read", "bash", "read");
    assertThat(reply.calls()).extracting(call -> call.arguments().toString())
        .containsExactly("{\"path\":\"a\"}", "{\"command\":\"ls\"}", "{\"path\":\"b\"}");
  }

  @Test
  void aCallsListOfOneIsTheSameToolCallAsTheSingleShape() throws Exception {
    Reply listed = parse(rules(true, 8), "{\"calls\": [{\"tool\": \"read\", \"arguments\": {\"path\": \"a\"}}]}");
    Reply single = parse(rules(true, 8), "{\"tool\": \"read\", \"arguments\": {\"path\": \"a\"}}");

    assertThat(listed).isInstanceOf(Reply.ToolCall.class).isEqualTo(single);
    assertThat(listed.calls()).containsExactly((Reply.ToolCall) single);
  }

  @Test
  void anEmptyCallsListIsMalformed() throws Exception {
    assertThat(reasonOf(parse(rules(true, 8), "{\"calls\": []}"))).contains("\"calls\" is an empty list");
    assertThat(reasonOf(parse(rules(true, 8), "{\"calls\": {\"tool\": \"read\"}}"))).contains("must be a JSON array");
  }

  @Test
  void anUnknownToolAmongCallsIsMalformedNamingItsEntry() throws Exception {
    String reason = reasonOf(parse(rules(true, 8), "{\"calls\": [{\"tool\": \"read\", \"arguments\": {\"path\": \"a\"}},"
        + " {\"tool\": \"grep\", \"arguments\": {}}]}"));

    assertThat(reason).startsWith("calls[1] unknown tool \"grep\"").contains("bash, read, final");
  }

  @Test
  void finalAmongCallsIsMalformedNamingItsEntry() throws Exception {
    String reason = reasonOf(parse(rules(true, 8), "{\"calls\": [{\"tool\": \"read\", \"arguments\": {\"path\": \"a\"}},"
        + " {\"tool\": \"final\", \"text\": \"done\"}]}"));

    assertThat(reason).startsWith("calls[1] is the final answer").contains("never goes among calls");
  }

  @Test
  void argumentsAgainstTheSchemaAreMalformedNamingTheEntryAndTheArgument() throws Exception {
    ReplyRules rules = rules(true, 8);

    assertThat(reasonOf(parse(rules, "{\"calls\": [{\"tool\": \"read\", \"arguments\": {\"path\": \"a\"}},"
        + " {\"tool\": \"read\", \"arguments\": {\"file\": \"b\"}}]}")))
        .startsWith("calls[1] tool \"read\": missing required argument \"path\"");
    assertThat(reasonOf(parse(rules, "{\"tool\": \"read\", \"arguments\": {\"path\": \"a\", \"mode\": \"x\"}}")))
        .startsWith("tool \"read\": unknown argument \"mode\"").contains("allows only path, limit");
    assertThat(reasonOf(parse(rules, "{\"tool\": \"read\", \"arguments\": {\"path\": [\"a\", \"b\"]}}")))
        .contains("argument \"path\" must be string, got an array");
  }

  @Test
  void aScalarOfAnotherTypeIsLeftToTheClientWhichCoercesIt() throws Exception {
    // Pi's validateToolArguments turns "100" into 100; a refusal here would cost a page turn for nothing.
    Reply reply = parse(rules(true, 8), "{\"tool\": \"read\", \"arguments\": {\"path\": \"a\", \"limit\": \"100\"}}");

    assertThat(reply).isInstanceOf(Reply.ToolCall.class);
  }

  @Test
  void moreCallsThanTheCapAreMalformedSayingHowManyGoInOneReply() throws Exception {
    String call = "{\"tool\": \"read\", \"arguments\": {\"path\": \"a\"}}";
    String three = "{\"calls\": [" + call + ", " + call + ", " + call + "]}";

    assertThat(parse(rules(true, 3), three).calls()).hasSize(3);
    assertThat(reasonOf(parse(rules(true, 2), three)))
        .isEqualTo("the reply had 3 calls; at most 2 go in one reply: make the first 2 now and the rest after their results");
  }

  @Test
  void parallelToolCallsFalseAllowsOneCallPerReply() throws Exception {
    String call = "{\"tool\": \"read\", \"arguments\": {\"path\": \"a\"}}";

    assertThat(parse(rules(false, 8), call)).isInstanceOf(Reply.ToolCall.class);
    assertThat(parse(rules(false, 8), "{\"calls\": [" + call + "]}")).isInstanceOf(Reply.ToolCall.class);
    assertThat(reasonOf(parse(rules(false, 8), "{\"calls\": [" + call + ", " + call + "]}")))
        .contains("the reply had 2 calls").contains("parallel_tool_calls: false")
        .contains("make only the first call now");
    assertThat(reasonOf(parse(rules(true, 1), "{\"calls\": [" + call + ", " + call + "]}")))
        .contains("SOLWEBD_MAX_CALLS=1");
  }

  @Test
  void twoBlocksOfOneCallEachAreStillMalformedAndTheReasonShowsTheOneBlockShape() throws Exception {
    String reason = reasonOf(ReplyParser.parse(List.of("{\"tool\":\"read\",\"arguments\":{\"path\":\"a\"}}",
        "{\"tool\":\"read\",\"arguments\":{\"path\":\"b\"}}"), "", rules(true, 8)));

    assertThat(reason).contains("2 code blocks").contains("{\"calls\": [...]}");
  }
}

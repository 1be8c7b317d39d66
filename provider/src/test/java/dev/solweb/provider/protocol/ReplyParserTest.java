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
}

package dev.solweb.provider.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

class PreambleTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SYSTEM = "You are Pi. Always run the tests. SYSTEM-MARKER";

  private static List<ToolSpec> tools() throws Exception {
    return List.of(
        new ToolSpec("read", "Read a file from disk.",
            JSON.readTree("{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"}},\"required\":[\"path\"]}")),
        new ToolSpec("bash", "Run a shell command.",
            JSON.readTree("{\"type\":\"object\",\"properties\":{\"command\":{\"type\":\"string\"},"
                + "\"timeout\":{\"type\":\"integer\"}}}")));
  }

  @Test
  void containsTheProtocolContractInBothReplyShapes() throws Exception {
    String preamble = Preamble.render(SYSTEM, tools());

    assertThat(preamble)
        .startsWith("PROTOCOL\n")
        .contains("exactly ONE fenced ```json code block")
        .contains("{\"tool\": \"<tool name>\", \"arguments\": {")
        .contains("{\"tool\": \"final\", \"text\": \"<your answer>\"}")
        // the envelope the model will receive, as TurnEnvelope types it
        .contains("TOOL RESULT [<id>]")
        .contains("\"USER\"");
  }

  @Test
  void containsEveryToolsNameDescriptionAndSchemaJson() throws Exception {
    String preamble = Preamble.render(SYSTEM, tools());

    for (ToolSpec tool : tools()) {
      assertThat(preamble)
          .contains("## " + tool.name() + "\n")
          .contains(tool.description())
          .contains("Schema: " + JSON.writeValueAsString(tool.parameters()));
    }
  }

  @Test
  void systemPromptComesAfterTheTools() throws Exception {
    String preamble = Preamble.render(SYSTEM, tools());

    assertThat(preamble).contains(SYSTEM);
    assertThat(preamble.indexOf(SYSTEM)).isGreaterThan(preamble.indexOf("## bash"))
        .isGreaterThan(preamble.indexOf("\"timeout\""))
        .isGreaterThan(preamble.indexOf("TOOLS\n"));
  }

  @Test
  void noToolsStillStatesTheFinalShape() {
    String preamble = Preamble.render("", List.of());

    assertThat(preamble).contains("TOOLS\n(none: answer with the final shape)").doesNotContain("SYSTEM\n")
        .as("nothing to call, so no calls shape to teach").doesNotContain("\"calls\"");
  }

  @Test
  void correctionNamesTheExactReason() {
    String reason = "the reply had 3 code blocks; exactly one is allowed";

    String correction = Preamble.correction(new Reply.Malformed(reason));

    assertThat(correction).startsWith("PROTOCOL ERROR\n" + reason + "\n")
        .contains("exactly one fenced ```json block");
  }

  @Test
  void severalCallsAreTaughtWithTheCapAndTheRuleForDependentCalls() throws Exception {
    String preamble = Preamble.render(SYSTEM, ReplyRules.of(tools(), true, 5));

    assertThat(preamble)
        .contains("in one of three shapes")
        .contains("To call several tools at once (at most 5):")
        .contains("{\"calls\": [{\"tool\": \"<tool name>\", \"arguments\": {...}}, {\"tool\": \"<tool name>\", \"arguments\": {...}}]}")
        .contains("Put calls that do not depend on each other in one reply")
        .contains("a call that needs another call's result waits for\nthat result and goes in a later reply")
        .contains("in the order of your calls")
        .contains("share one bound of\n60000 characters").contains("read a large file in a reply of its own")
        .doesNotContain("Call one tool per reply");
    assertThat(Preamble.render(SYSTEM, tools())).contains("(at most " + ReplyRules.DEFAULT_MAX_CALLS + ")");
  }

  @Test
  void oneCallPerReplyIsTaughtWhenTheRequestAsksForIt() throws Exception {
    String preamble = Preamble.render(SYSTEM, ReplyRules.of(tools(), false, 8));

    assertThat(preamble).contains("in one of two shapes").contains("Call one tool per reply and wait for its result.")
        .doesNotContain("\"calls\"");
  }

  @Test
  void theCorrectionShowsTheCallsShapeOnlyWhereSeveralAreAllowed() {
    Reply.Malformed malformed = new Reply.Malformed("calls[1] unknown tool \"grep\"");

    assertThat(Preamble.correction(malformed, 8)).contains("{\"calls\": [").contains("(at most 8)");
    assertThat(Preamble.correction(malformed, 1)).doesNotContain("calls\"");
  }
}

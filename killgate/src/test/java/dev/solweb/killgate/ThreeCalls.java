package dev.solweb.killgate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.scenario.ScenarioPlayer;
import java.nio.file.Path;
import java.util.List;

/**
 * Issue 24 end to end with a real client on fakesol: a scripted reply that makes three calls in
 * one block, each writing {@code a.txt}, {@code b.txt}, {@code c.txt} with {@code K24-A} and so
 * on, then a final answer; and what the page must have received.
 */
final class ThreeCalls {
  static final String FINAL = "three files written";
  private static final ObjectMapper JSON = new ObjectMapper();

  private ThreeCalls() {}

  /** The scenario: one reply calling {@code tool} with each of {@code arguments}, in order, then {@link #FINAL}. */
  static String scenario(String tool, ObjectNode... arguments) {
    ObjectNode block = JSON.createObjectNode();
    ArrayNode calls = block.putArray("calls");
    for (ObjectNode args : arguments) {
      calls.addObject().put("tool", tool).set("arguments", args);
    }
    ObjectNode root = JSON.createObjectNode().put("account", "owner@solweb.invalid");
    ArrayNode replies = root.putArray("default");
    replies.addObject().putArray("blocks").add(block.toString());
    replies.addObject().putArray("blocks").add(JSON.createObjectNode().put("tool", "final").put("text", FINAL).toString());
    return root.toString();
  }

  static ObjectNode args() {
    return JSON.createObjectNode();
  }

  /** Every call ran: the three files hold what they were given. */
  static void filesWritten(Path workspace) {
    for (String name : List.of("a", "b", "c")) {
      assertThat(workspace.resolve(name + ".txt")).hasContent("K24-" + name.toUpperCase(java.util.Locale.ROOT));
    }
  }

  /**
   * The page received the reply's turn and then ONE turn with the three results, in call order
   * (each result shows {@code marks[i]}), each under its own TOOL RESULT header, no partial-set note.
   */
  static void resultsInOneTurn(List<ScenarioPlayer.Send> sends, String... marks) {
    assertThat(sends).as("the reply with three calls, then ONE turn with their three results").hasSize(2);
    String results = sends.get(1).text();
    assertThat(results.split("TOOL RESULT \\[call_1_", -1)).hasSize(4);
    assertThat(results).doesNotContain("NOTE\n");
    int at = 0;
    for (String mark : marks) {
      assertThat(results.indexOf(mark, at)).as(mark + " after the result before it").isGreaterThan(at);
      at = results.indexOf(mark, at);
    }
    assertThat(sends.get(1).conversationId()).isEqualTo(sends.get(0).conversationId());
  }
}

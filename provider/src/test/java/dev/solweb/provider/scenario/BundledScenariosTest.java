package dev.solweb.provider.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.solweb.provider.protocol.Reply;
import dev.solweb.provider.protocol.ReplyParser;
import dev.solweb.provider.scenario.Scenario;
import dev.solweb.provider.scenario.ScenarioPlayer;
import dev.solweb.provider.scenario.ScriptedReply;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Every bundled scenario loads by name; pi-demo scripts exactly what bin/demo's Pi run needs. */
class BundledScenariosTest {

  private static final Set<String> PI_TOOLS = Set.of("read", "bash", "edit", "write");

  @Test
  void everyBundledNameLoads() {
    for (String name : Scenario.bundled()) {
      assertThat(Scenario.load(name)).as(name).isNotNull();
    }
  }

  @Test
  void piDemoWritesHelloTxtWithPisWriteArgumentsThenReportsDone() throws Exception {
    ScenarioPlayer player = new ScenarioPlayer(Scenario.load("pi-demo"));
    String conversation = player.openConversation("<preamble>\nuser: create hello.txt containing hi\n");

    Reply write = parse(player.next(conversation).orElseThrow());
    assertThat(write).isInstanceOf(Reply.ToolCall.class);
    Reply.ToolCall call = (Reply.ToolCall) write;
    assertThat(call.name()).isEqualTo("write");
    assertThat(call.arguments().toString()).isEqualTo("{\"path\":\"hello.txt\",\"content\":\"hi\\n\"}");

    Reply done = parse(player.next(conversation).orElseThrow());
    assertThat(done).isInstanceOf(Reply.Final.class);
    String text = ((Reply.Final) done).text();
    String report = text.substring(text.lastIndexOf('{'));
    assertThat(new ObjectMapper().readTree(report).toString())
        .isEqualTo("{\"status\":\"done\",\"files_changed\":[\"hello.txt\"]}");
    assertThat(player.next(conversation)).isEmpty();
  }

  @Test
  void piDemoAnswersAnyOtherTaskWithABlockedReportAndNoToolCall() {
    ScenarioPlayer player = new ScenarioPlayer(Scenario.load("pi-demo"));
    String conversation = player.openConversation("user: refactor the billing module");
    Reply reply = parse(player.next(conversation).orElseThrow());
    assertThat(reply).isInstanceOf(Reply.Final.class);
    assertThat(((Reply.Final) reply).text()).contains("\"status\": \"blocked\"");
  }

  @Test
  void batchMakesThreeCallsInOneReplyThenAnswers() {
    ScenarioPlayer player = new ScenarioPlayer(Scenario.load("batch"));
    String conversation = player.openConversation("user: anything");

    Reply calls = parse(player.next(conversation).orElseThrow());
    assertThat(calls).isInstanceOf(Reply.ToolCalls.class);
    assertThat(calls.calls()).extracting(Reply.ToolCall::name).containsExactly("read", "read", "bash");
    assertThat(parse(player.next(conversation).orElseThrow())).isInstanceOf(Reply.Final.class);
  }

  private static Reply parse(ScriptedReply reply) {
    return ReplyParser.parse(reply.blocks(), reply.prose(), PI_TOOLS);
  }
}

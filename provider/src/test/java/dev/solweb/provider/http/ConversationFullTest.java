package dev.solweb.provider.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.solweb.provider.scenario.Scenario;
import dev.solweb.provider.scenario.ScenarioPlayer;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * ChatGPT's "You've reached the maximum length for this conversation" (REAL-PAGE row 8): the turn
 * that meets it fails typed and is not re-sent; the conversation takes no further turn, so the
 * session's next request replays its history into a fresh conversation.
 */
class ConversationFullTest {

  @Test
  void aFullConversationFailsThatTurnAsContextOverflowAndTheNextTurnReplaysIntoAFreshOne() throws Exception {
    ScenarioPlayer player = new ScenarioPlayer(Scenario.parse("{\"conversations\": [{\"match\": \"USER\\nfirst\","
        + " \"replies\": [{\"prose\": \"one\"}, {\"fault\": \"conversation_full\"}, {\"prose\": \"never typed\"}]}],"
        + " \"default\": [{\"prose\": \"replayed answer\"}]}"));
    String turn1 = Requests.chat("sol-web-high").user("first").json();
    String turn2 = Requests.chat("sol-web-high").user("first").assistantText("one").user("second").json();
    try (TestDaemon daemon = new TestDaemon(player, TestDaemon.Options.defaults())) {
      assertThat(daemon.post(turn1).statusCode()).isEqualTo(200);

      HttpResponse<String> full = daemon.post(turn2);
      assertThat(full.statusCode()).as(full.body()).isEqualTo(400);
      assertThat(TestDaemon.json(full.body()).path("error").path("type").asText()).isEqualTo("context_overflow");
      assertThat(player.sends()).hasSize(2);

      HttpResponse<String> again = daemon.post(turn2);
      assertThat(again.statusCode()).as(again.body()).isEqualTo(200);
      assertThat(TestDaemon.json(again.body()).path("choices").get(0).path("message").path("content").asText())
          .isEqualTo("replayed answer");
      List<ScenarioPlayer.Send> sends = player.sends();
      assertThat(sends).hasSize(3);
      String full1 = sends.get(0).conversationId();
      assertThat(sends.get(1).conversationId()).isEqualTo(full1);
      assertThat(sends.get(2).conversationId()).isNotEqualTo(full1);
      assertThat(sends.get(2).text()).contains("USER\nfirst", "ASSISTANT\none", "USER\nsecond");
    }
  }
}

package dev.solweb.provider.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.solweb.provider.seat.scripted.ScenarioPlayer;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * REAL-PAGE row 8: "You've reached the maximum length for this conversation". The turn that hits
 * it is a typed context_overflow and nothing is re-sent; the session's next turn goes to a fresh
 * conversation with the whole history replayed, never into the full one.
 */
class ConversationFullTest {

  @Test
  void theTurnThatHitsTheLimitIsContextOverflowAndTheNextTurnReplaysIntoAFreshConversation() throws Exception {
    String scenario = """
        {"conversations": [{"replies": [{"prose": "a"}, {"fault": "conversation_full"}]}],
         "default": [{"prose": "fresh"}]}
        """;
    try (TestDaemon daemon = new TestDaemon(scenario)) {
      assertThat(daemon.post(Requests.chat("sol-web-high").user("task").json()).statusCode()).isEqualTo(200);
      String second = Requests.chat("sol-web-high").user("task").assistantText("a").user("next").json();

      HttpResponse<String> full = daemon.post(second);
      JsonNode error = TestDaemon.json(full.body()).get("error");
      assertThat(error.get("type").asText()).isEqualTo("context_overflow");
      assertThat(daemon.player.sends()).hasSize(2); // nothing re-sent

      HttpResponse<String> again = daemon.post(second);
      assertThat(again.statusCode()).isEqualTo(200);
      List<ScenarioPlayer.Send> sends = daemon.player.sends();
      assertThat(sends).hasSize(3);
      assertThat(sends.get(1).conversationId()).isEqualTo(sends.get(0).conversationId());
      assertThat(sends.get(2).conversationId()).isNotEqualTo(sends.get(0).conversationId());
      assertThat(sends.get(2).text()).contains("USER\ntask").contains("next");
    }
  }
}

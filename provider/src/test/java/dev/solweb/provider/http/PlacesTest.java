package dev.solweb.provider.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.solweb.provider.daemon.HistorySettings;
import dev.solweb.provider.scenario.Scenario;
import dev.solweb.provider.scenario.ScenarioPlayer;
import dev.solweb.provider.translate.Conversation;
import dev.solweb.provider.translate.ConversationPlace;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SOLWEBD_PROJECT and SOLWEBD_TEMPORARY on a scripted daemon: where fresh conversations open, and what is resumed. */
class PlacesTest {
  private static final String SCENARIO = "{\"default\": [{\"prose\": \"one\"}, {\"prose\": \"two\"}, {\"prose\": \"three\"}]}";
  private static final ConversationPlace.Project MY_WORK = new ConversationPlace.Project("My Work");

  @TempDir Path home;
  private final ScenarioPlayer player = new ScenarioPlayer(Scenario.parse(SCENARIO));

  private TestDaemon.Options in(ConversationPlace place) {
    return TestDaemon.Options.defaults().home(home).history(new HistorySettings(place, null));
  }

  private static String first() {
    return Requests.chat("sol-web-high").system("rules").user("hello").json();
  }

  private static String second() {
    return Requests.chat("sol-web-high").system("rules").user("hello").assistantText("one").user("more").json();
  }

  @Test
  void aProjectDaemonOpensNewConversationsInTheProjectAndResumesThem() throws Exception {
    try (TestDaemon daemon = new TestDaemon(player, in(MY_WORK))) {
      assertThat(daemon.post(first()).statusCode()).isEqualTo(200);
      assertThat(daemon.post(second()).statusCode()).isEqualTo(200);

      assertThat(player.placesOpened()).containsExactly(MY_WORK);
      assertThat(player.conversationsOpened()).as("the second turn resumed it").isEqualTo(1);
      JsonNode listed = TestDaemon.json(daemon.get("/v1/conversations").body()).path("data").get(0);
      assertThat(listed.path("project").asText()).isEqualTo("0-my-work");
      assertThat(listed.path("url").asText()).contains("/g/g-p-0-my-work/c/");
    }
  }

  @Test
  void aConversationOutsideTheProjectIsReplayedIntoTheProjectAfterARestart() throws Exception {
    try (TestDaemon daemon = new TestDaemon(player, in(ConversationPlace.HISTORY))) {
      daemon.post(first());
    }
    try (TestDaemon daemon = new TestDaemon(player, in(MY_WORK))) {
      HttpResponse<String> next = daemon.post(second());

      assertThat(next.statusCode()).as(next.body()).isEqualTo(200);
      assertThat(player.placesOpened()).containsExactly(ConversationPlace.HISTORY, MY_WORK);
      assertThat(player.sends().get(1).text()).as("replayed whole").startsWith("PROTOCOL").contains("USER\nhello", "USER\nmore");
      assertThat(daemon.conversations.list().iterator().next().project()).isEqualTo("0-my-work");
    }
  }

  @Test
  void aProjectThePageDoesNotShowIsATypedUnavailableBeforeAnythingIsTyped() throws Exception {
    player.refuseProject("Missing");
    try (TestDaemon daemon = new TestDaemon(player, in(new ConversationPlace.Project("Missing")))) {
      HttpResponse<String> refused = daemon.post(first());

      assertThat(refused.statusCode()).isEqualTo(503);
      assertThat(TestDaemon.json(refused.body()).path("error").path("message").asText())
          .contains("Missing", "nothing was typed");
      assertThat(player.sends()).isEmpty();
      assertThat(daemon.conversations.count()).isZero();
      assertThat(daemon.get("/healthz").statusCode()).isEqualTo(200);
    }
  }

  @Test
  void temporaryChatsAreMarkedAndAfterARestartListedExpiredAndReplayed() throws Exception {
    try (TestDaemon daemon = new TestDaemon(player, in(new ConversationPlace.Temporary()))) {
      daemon.post(first());
      assertThat(daemon.conversations.list()).singleElement().satisfies(c -> assertThat(c.temporary()).isTrue());
      assertThat(player.placesOpened()).containsExactly(new ConversationPlace.Temporary());
    }
    try (TestDaemon daemon = new TestDaemon(player, in(new ConversationPlace.Temporary()))) {
      JsonNode listed = TestDaemon.json(daemon.get("/v1/conversations").body()).path("data").get(0);
      assertThat(listed.path("status").asText()).isEqualTo("expired");
      assertThat(listed.path("temporary").asBoolean()).isTrue();

      HttpResponse<String> next = daemon.post(second());

      assertThat(next.statusCode()).as(next.body()).isEqualTo(200);
      assertThat(player.conversationsOpened()).isEqualTo(2);
      assertThat(player.sends().get(1).text()).startsWith("PROTOCOL");
      assertThat(daemon.conversations.list().iterator().next().status()).isEqualTo(Conversation.Status.READY);
    }
  }

  @Test
  void aOneShotAskOpensInTheConfiguredPlaceToo() throws Exception {
    try (TestDaemon daemon = new TestDaemon(player, in(new ConversationPlace.Temporary()))) {
      String body = TestDaemon.JSON.createObjectNode().put("prompt", "one question").put("effort", "high")
          .put("output_dir", home.resolve("out").toString()).toString();
      HttpResponse<String> answer = daemon.post("/v1/ask", body, java.util.Map.of("Content-Type", "application/json"));

      assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
      assertThat(player.placesOpened()).containsExactly(new ConversationPlace.Temporary());
    }
  }
}

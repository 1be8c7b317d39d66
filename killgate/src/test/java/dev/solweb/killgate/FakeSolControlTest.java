package dev.solweb.killgate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.solweb.killgate.fakesol.FakeSol;
import dev.solweb.provider.scenario.Scenario;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * fakesol's backend without a browser: what the page posts is what /control reports, and a
 * Retry click is a second submission (which is why the seat must never click it).
 */
class FakeSolControlTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private final HttpClient http = HttpClient.newHttpClient();
  private FakeSol sol;

  @AfterEach
  void stop() {
    sol.close();
  }

  private JsonNode call(String path, String body) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(sol.url().resolve(path));
    b = body == null ? b.GET() : b.header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
    HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    return JSON.readTree(r.body());
  }

  @Test
  void controlReportsEverySubmissionWithItsEffortAndConversationAndRetryResubmits() throws Exception {
    sol = FakeSol.start(Scenario.parse("{\"default\": [{\"fault\": \"something_went_wrong\"}]}"), 0);
    JsonNode draft = call("/api/precheck", "{\"text\": \"hello\"}");
    String conversation = draft.path("conversation_id").asText();
    assertThat(draft.path("outcome").asText()).isEqualTo("ok");

    JsonNode plan = call("/api/send", JSON.createObjectNode().put("conversation_id", conversation)
        .put("text", "hello").put("effort_label", "Extra High").toString());
    assertThat(plan.path("fault").asText()).isEqualTo("something_went_wrong");
    call("/api/retry", JSON.createObjectNode().put("conversation_id", conversation).toString());

    JsonNode control = call("/control", null);
    assertThat(control.path("send_count").asInt()).isEqualTo(2);
    assertThat(control.path("retry_clicks").asInt()).isEqualTo(1);
    for (JsonNode send : control.path("sends")) {
      assertThat(send.path("text").asText()).isEqualTo("hello");
      assertThat(send.path("conversation_id").asText()).isEqualTo(conversation);
    }
    assertThat(control.path("sends").get(0).path("effort").asText()).isEqualTo("xhigh");
    assertThat(control.path("sends").get(0).path("effort_label").asText()).isEqualTo("Extra High");
  }

  @Test
  void preSendFaultsAreDecidedAtPrecheckAndRecordNothing() throws Exception {
    sol = FakeSol.start(Scenario.parse("{\"default\": [{\"fault\": \"too_long\"}]}"), 0);
    assertThat(call("/api/precheck", "{\"text\": \"x\"}").path("outcome").asText()).isEqualTo("too_long");
    assertThat(call("/control", null).path("send_count").asInt()).isZero();
  }

  /** What a conversation's JSON answers once it is gone: the page's own taxonomy (REAL-PAGE row 20), not a "deleted" text. */
  @Test
  void aDeletedConversationAnswersConversationNotFound() throws Exception {
    sol = FakeSol.start(Scenario.parse("{\"default\": []}"), 0);
    String mine = sol.history().personal("Mine");
    assertThat(call("/api/conversation/" + mine, null).path("turns")).hasSize(2);
    call("/api/delete", JSON.createObjectNode().put("conversation_id", mine).toString());
    JsonNode gone = call("/api/conversation/" + mine, null);
    assertThat(gone.path("detail").path("code").asText()).isEqualTo("conversation_not_found");
    assertThat(gone.path("detail").path("message").asText()).isEqualTo("Conversation not found");
    assertThat(call("/api/conversation/never-was-here", null).path("detail").path("code").asText())
        .isEqualTo("conversation_not_found");
  }

  /** A project chat names its project by id in conversation_mode, with or without the slug (REAL-PAGE rows 17, 23). */
  @Test
  void aProjectIsMatchedByItsIdWithTheSlugOptional() throws Exception {
    sol = FakeSol.start(Scenario.parse("{\"default\": [{\"prose\": \"one\"}, {\"prose\": \"two\"}]}"), 0);
    String slug = sol.history().project("Solweb work");
    assertThat(slug).matches("g-p-[0-9a-f]{32}-solweb-work");
    String id = slug.substring(0, "g-p-".length() + 32);
    for (String gizmo : List.of(id, slug)) {
      JsonNode body = JSON.readTree("{\"action\": \"next\", \"supported_encodings\": [\"v1\"], \"messages\": [{\"id\": \""
          + java.util.UUID.randomUUID() + "\", \"content\": {\"parts\": [\"in " + gizmo + "\"]}}],"
          + " \"conversation_mode\": {\"kind\": \"gizmo_interaction\", \"gizmo_id\": \"" + gizmo + "\"}}");
      http.send(HttpRequest.newBuilder(sol.url().resolve("/backend-api/f/conversation")).header("content-type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build(), HttpResponse.BodyHandlers.ofString());
    }
    JsonNode conversations = call("/control", null).path("conversations");
    assertThat(conversations).hasSize(2);
    conversations.forEach(c -> assertThat(c.path("project").asText()).isEqualTo(slug));
  }
}

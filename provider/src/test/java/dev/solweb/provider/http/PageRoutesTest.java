package dev.solweb.provider.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * GET /v1/doctor and /v1/capture on the HTTP surface: bearer auth, input checks, and the typed
 * refusal of a seat with no page to read. (The read itself runs in killgate's DoctorFakesolTest.)
 */
class PageRoutesTest {
  private static TestDaemon daemon;

  @BeforeAll
  static void start() throws Exception {
    daemon = new TestDaemon("{\"default\": [{\"prose\": \"hi\"}]}");
  }

  @AfterAll
  static void stop() {
    daemon.close();
  }

  @ParameterizedTest
  @ValueSource(strings = {"/v1/doctor", "/v1/capture"})
  void refusesWithoutTheToken(String path) throws Exception {
    HttpResponse<String> response = daemon.http.send(HttpRequest.newBuilder(daemon.uri(path)).GET().build(),
        HttpResponse.BodyHandlers.ofString());

    assertThat(response.statusCode()).isEqualTo(401);
    assertThat(TestDaemon.json(response.body()).path("error").path("type").asText()).isEqualTo("unauthorized");
  }

  @ParameterizedTest
  @ValueSource(strings = {"/v1/doctor?effort_menu=true", "/v1/capture"})
  void aScriptedSeatIsRefusedTypedAndTheDaemonStaysReady(String path) throws Exception {
    HttpResponse<String> response = daemon.get(path);

    assertThat(response.statusCode()).isEqualTo(503);
    JsonNode error = TestDaemon.json(response.body()).path("error");
    assertThat(error.path("type").asText()).isEqualTo("unavailable");
    assertThat(error.path("message").asText()).contains("ScriptedSeat", "doctor and capture need --seat playwright");
    assertThat(TestDaemon.json(daemon.get("/healthz").body()).path("state").asText()).isEqualTo("ready");
    assertThat(daemon.player.sends()).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"/v1/doctor?url=not-a-url", "/v1/capture?url=%2Fc%2Fabc"})
  void aRelativeUrlIsABadRequest(String path) throws Exception {
    HttpResponse<String> response = daemon.get(path);

    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(TestDaemon.json(response.body()).path("error").path("message").asText()).startsWith("url must be an absolute");
  }
}

package dev.solweb.provider.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The operator page's seat routes on the HTTP surface with a scripted seat (no page): bearer auth,
 * typed refusals, bad input, the module served from the jar; the daemon stays ready throughout.
 * (The picture, live view and control on a real page run in killgate's SeatLiveFakesolTest.)
 */
class SeatRoutesTest {
  private static TestDaemon daemon;

  @BeforeAll
  static void start() throws Exception {
    daemon = new TestDaemon("{\"default\": [{\"prose\": \"hi\"}]}");
  }

  @AfterAll
  static void stop() {
    daemon.close();
  }

  private static HttpResponse<String> send(String method, String path, String body) throws Exception {
    return daemon.http.send(daemon.request(path).method(method, body == null ? HttpRequest.BodyPublishers.noBody()
        : HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static JsonNode error(HttpResponse<String> response) throws Exception {
    return TestDaemon.json(response.body()).path("error");
  }

  @ParameterizedTest
  @ValueSource(strings = {"/ui/api/seats/0/screen.png", "/ui/api/seats/0/control", "/ui/seat-live.js"})
  void refusesWithoutTheToken(String path) throws Exception {
    HttpResponse<String> response = daemon.http.send(HttpRequest.newBuilder(daemon.uri(path)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(401);
  }

  @ParameterizedTest
  @CsvSource({"GET,/ui/api/seats/0/screen.png", "POST,/ui/api/seats/0/control"})
  void aSeatWithoutAPageIsRefusedTypedAndTheDaemonStaysReady(String method, String path) throws Exception {
    HttpResponse<String> response = send(method, path, null);
    assertThat(response.statusCode()).isEqualTo(409);
    assertThat(error(response).path("type").asText()).isEqualTo("no_page");
    assertThat(error(response).path("message").asText()).contains("seat 0 has no page");
    JsonNode health = TestDaemon.json(daemon.get("/healthz").body());
    assertThat(health.path("state").asText()).isEqualTo("ready");
    assertThat(health.path("controlled")).isEmpty();
  }

  @Test
  void aFreeSeatSaysSoAndHasNothingToGiveBackOrTakeInput() throws Exception {
    assertThat(TestDaemon.json(daemon.get("/ui/api/seats/0/control").body()).path("state").asText()).isEqualTo("free");
    HttpResponse<String> back = send("DELETE", "/ui/api/seats/0/control", null);
    assertThat(back.statusCode()).isEqualTo(409);
    assertThat(error(back).path("type").asText()).isEqualTo("not_controlled");
    HttpResponse<String> input = send("POST", "/ui/api/seats/0/input", "{\"type\": \"text\", \"text\": \"hello\"}");
    assertThat(input.statusCode()).isEqualTo(409);
    assertThat(error(input).path("message").asText()).contains("take control first");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "not json|the body is not JSON",
      "{\"type\": \"mouse\", \"action\": \"jump\", \"x\": 1, \"y\": 1}|move, down, up or click",
      "{\"type\": \"mouse\", \"action\": \"click\", \"x\": \"one\", \"y\": 1}|\"x\" as a number",
      "{\"type\": \"key\", \"action\": \"press\", \"key\": \"a\"}|down or up",
      "{\"type\": \"paint\"}|mouse, wheel, key or text",
      "{\"events\": []}|1 to 64 events",
      "{\"type\": \"mouse\", \"action\": \"click\", \"x\": 1, \"y\": 1, \"button\": \"fourth\"}|button must be one of"})
  void badInputIsA400ThatSaysWhatIsWrong(String body, String says) throws Exception {
    HttpResponse<String> response = send("POST", "/ui/api/seats/0/input", body);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
    assertThat(error(response).path("message").asText()).contains(says);
  }

  @ParameterizedTest
  @ValueSource(strings = {"/ui/api/seats/1/screen.png", "/ui/api/seats/x/control", "/ui/api/seats/-1/control"})
  void anUnknownSeatIsA404(String path) throws Exception {
    HttpResponse<String> response = daemon.get(path);
    assertThat(response.statusCode()).isEqualTo(404);
    assertThat(error(response).path("type").asText()).isEqualTo("no_such_seat");
  }

  @Test
  void theModuleIsServedFromTheJar() throws Exception {
    HttpResponse<String> response = daemon.get("/ui/seat-live.js");
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("content-type")).contains("text/javascript; charset=utf-8");
    assertThat(response.body()).contains("export function mountSeatLive(element, seatIndex, api = {})")
        .doesNotContain("http://").doesNotContain("https://");
  }

  @Test
  void aLiveViewThatIsNoWebSocketIsA400() throws Exception {
    HttpResponse<String> response = daemon.get("/ui/api/seats/0/live");
    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(error(response).path("message").asText()).contains("WebSocket");
  }

  @Test
  void aLiveViewFromAForeignOriginIsRefused() throws Exception {
    HttpResponse<String> response = daemon.http.send(daemon.request("/ui/api/seats/0/live")
        .header("Origin", "http://evil.example").GET().build(), HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(403);
    assertThat(error(response).path("type").asText()).isEqualTo("cross_origin");
    assertThat(error(response).path("message").asText()).contains("http://evil.example");
  }
}

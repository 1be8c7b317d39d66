package dev.solweb.provider.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every route, /healthz included, refuses a missing or wrong bearer token with a typed 401. */
class AuthTest {
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
  @CsvSource({
      "POST, /v1/chat/completions, ",
      "GET, /v1/models, ",
      "GET, /healthz, ",
      "POST, /shutdown, ",
      "GET, /nowhere, ",
      "POST, /v1/chat/completions, Bearer wrong",
      "GET, /healthz, Bearer wrong",
      "POST, /shutdown, Basic " + TestDaemon.TOKEN,
      "GET, /v1/models, Bearer " + TestDaemon.TOKEN + "x",
      "GET, /v1/conversations, ",
      "GET, /v1/conversations, Bearer wrong",
      "POST, /v1/conversations/delete, ",
      "POST, /v1/conversations/delete, Bearer " + TestDaemon.TOKEN + "x"})
  void refusesWithoutTheRightToken(String method, String path, String authorization) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(daemon.uri(path))
        .method(method, HttpRequest.BodyPublishers.ofString(Requests.chat("sol-web-high").user("hi").json()));
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    HttpResponse<String> response = daemon.http.send(request.build(), HttpResponse.BodyHandlers.ofString());

    assertThat(response.statusCode()).isEqualTo(401);
    assertThat(TestDaemon.json(response.body()).path("error").path("type").asText()).isEqualTo("unauthorized");
    assertThat(response.body()).doesNotContain(TestDaemon.TOKEN);
    assertThat(daemon.player.sends()).isEmpty();
    assertThat(daemon.get("/healthz").statusCode()).isEqualTo(200);
  }
}

package dev.solweb.provider.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Bad input gets a typed 4xx naming the offender, reaches no seat, and leaves the daemon healthy. */
class BadInputTest {
  private static final long MAX_BODY = 64 * 1024;
  private static TestDaemon daemon;

  @BeforeAll
  static void start() throws Exception {
    daemon = new TestDaemon("{\"default\": [{\"prose\": \"hi\"}, {\"prose\": \"hi\"}]}",
        TestDaemon.Options.defaults().maxBody(MAX_BODY));
  }

  @AfterAll
  static void stop() {
    daemon.close();
  }

  static Stream<Arguments> badBodies() {
    String user = "[{\"role\":\"user\",\"content\":\"hi\"}]";
    return Stream.of(
        Arguments.of("not JSON", "{\"model\": ", "not valid JSON"),
        Arguments.of("empty body", "", "body is empty"),
        Arguments.of("empty content parts", "{\"model\":\"sol-web-high\",\"messages\":[{\"role\":\"user\",\"content\":[]}]}",
            "content is an empty array"),
        Arguments.of("tool parameters not an object", "{\"model\":\"sol-web-high\",\"messages\":" + user
            + ",\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"read\",\"parameters\":\"a string\"}}]}",
            "parameters must be a JSON Schema object"),
        Arguments.of("not an object", "[1,2]", "JSON object"),
        Arguments.of("missing model", "{\"messages\":" + user + "}", "model is required"),
        Arguments.of("model of wrong type", "{\"model\":7,\"messages\":" + user + "}", "model is required"),
        Arguments.of("unknown model", "{\"model\":\"gpt-4o\",\"messages\":" + user + "}", "unknown model gpt-4o"),
        Arguments.of("unknown effort suffix", "{\"model\":\"sol-web-max\",\"messages\":" + user + "}", "unknown model sol-web-max"),
        Arguments.of("missing messages", "{\"model\":\"sol-web-high\"}", "messages is required"),
        Arguments.of("messages not an array", "{\"model\":\"sol-web-high\",\"messages\":\"hi\"}", "messages is required"),
        Arguments.of("empty messages", "{\"model\":\"sol-web-high\",\"messages\":[]}", "must not be empty"),
        Arguments.of("message not an object", "{\"model\":\"sol-web-high\",\"messages\":[3]}", "messages[0] must be an object"),
        Arguments.of("unknown role", "{\"model\":\"sol-web-high\",\"messages\":[{\"role\":\"robot\",\"content\":\"x\"}]}", "role must be"),
        Arguments.of("stream not boolean", "{\"model\":\"sol-web-high\",\"stream\":\"yes\",\"messages\":" + user + "}", "stream must be a boolean"),
        Arguments.of("tools not an array", "{\"model\":\"sol-web-high\",\"tools\":{},\"messages\":" + user + "}", "tools must be an array"),
        Arguments.of("image content", "{\"model\":\"sol-web-high\",\"messages\":[{\"role\":\"user\",\"content\":"
            + "[{\"type\":\"image_url\",\"image_url\":{\"url\":\"data:image/png;base64,AAAA\"}}]}]}", "no type the page takes"),
        Arguments.of("tool result answering no call", "{\"model\":\"sol-web-high\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"},"
            + "{\"role\":\"tool\",\"tool_call_id\":\"call_9\",\"content\":\"x\"}]}", "no earlier assistant message called"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badBodies")
  void refusesWithTyped400(String why, String body, String messageFragment) throws Exception {
    HttpResponse<String> response = daemon.post(body);

    assertThat(response.statusCode()).isEqualTo(400);
    JsonNode error = TestDaemon.json(response.body()).path("error");
    assertThat(error.path("message").asText()).contains(messageFragment);
    assertThat(error.path("type").asText()).isNotBlank();
    assertHealthyAndUntouched();
  }

  @Test
  void bodyOverTheLimitIs413() throws Exception {
    String huge = Requests.chat("sol-web-high").user("x".repeat((int) MAX_BODY + 10)).json();

    HttpResponse<String> response = daemon.post(huge);

    assertThat(response.statusCode()).isEqualTo(413);
    assertThat(TestDaemon.json(response.body()).path("error").path("type").asText()).isEqualTo("request_too_large");
    assertHealthyAndUntouched();
  }

  @Test
  void anOverLongUrlIsATyped414() throws Exception {
    // HTTP/1.1 as curl speaks it (the JDK client's h2c upgrade attempt is refused by Vert.x before the router).
    HttpClient http11 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    HttpResponse<String> response = http11.send(daemon.request("/v1/models?pad=" + "x".repeat(8192)).GET().build(),
        HttpResponse.BodyHandlers.ofString());

    assertThat(response.statusCode()).as(response.body()).isEqualTo(414);
    assertThat(TestDaemon.json(response.body()).path("error").path("type").asText()).isEqualTo("uri_too_long");
    assertHealthyAndUntouched();
  }

  @Test
  void clientSessionHeaderOfTheWrongShapeIs400EvenBeforeAnOversizedBodyIsRead() throws Exception {
    String huge = Requests.chat("sol-web-high").user("x".repeat((int) MAX_BODY + 10)).json();

    HttpResponse<String> response = daemon.post(huge,
        Map.of(ChatRequest.CLIENT_SESSION_HEADER, "OVERDECK_PI_CLIENT_SESSION"));

    assertThat(response.statusCode()).isEqualTo(400);
    JsonNode error = TestDaemon.json(response.body()).path("error");
    assertThat(error.path("type").asText()).isEqualTo("invalid_client_session");
    assertThat(error.path("message").asText()).doesNotContain("OVERDECK_PI_CLIENT_SESSION\"").contains("v1");
    assertHealthyAndUntouched();
  }

  @Test
  void wellFormedClientSessionHeaderIsAccepted() throws Exception {
    String session = "v1." + "A".repeat(43);

    HttpResponse<String> response = daemon.post(Requests.chat("sol-web-high").user("hello").json(),
        Map.of(ChatRequest.CLIENT_SESSION_HEADER, session));

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).doesNotContain(session);
  }

  private static void assertHealthyAndUntouched() throws Exception {
    HttpResponse<String> health = daemon.get("/healthz");
    assertThat(health.statusCode()).isEqualTo(200);
    assertThat(TestDaemon.json(health.body()).path("state").asText()).isEqualTo("ready");
    assertThat(daemon.player.sends()).allSatisfy(send -> assertThat(send.text()).contains("hello"));
  }
}

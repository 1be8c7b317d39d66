package dev.solweb.provider.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.platform.Poll;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Each failure kind, before the stream is committed (status, headers, body) and after it (one
 * SSE error event, then a close with no finish_reason and no [DONE]).
 */
class FailuresTest {
  private static final String TOOL_CALL = "{\\\"tool\\\": \\\"write\\\", \\\"arguments\\\": {}}";

  @Test
  void capAfterCommitIsAnErrorEventWithoutDoneThenNewTurnsFailFastWith429() throws Exception {
    String resumeAt = Instant.now().plusSeconds(3600).toString().replaceAll("\\.\\d+Z", "Z");
    try (TestDaemon daemon = new TestDaemon("{\"default\": [{\"fault\": \"cap\", \"delay_ms\": 150, \"resume_at\": \"" + resumeAt + "\"}]}")) {
      TestDaemon.Stream stream = daemon.stream(Requests.chat("sol-web-high").user("one").stream(true).json());

      ProviderFailure streamed = assertErrorEventWithoutDone(stream, "capped");
      assertThat(streamed.resumeAt()).isEqualTo(resumeAt);
      assertThat(streamed.retryAfterSeconds()).isBetween(3500L, 3600L);

      HttpResponse<String> next = daemon.post(Requests.chat("sol-web-medium").user("another task").stream(true).json());
      assertThat(next.statusCode()).isEqualTo(429);
      assertThat(next.headers().firstValue("x-should-retry")).hasValue("false");
      assertThat(Long.parseLong(next.headers().firstValue("retry-after").orElseThrow())).isBetween(3500L, 3600L);
      JsonNode error = TestDaemon.json(next.body()).path("error");
      assertThat(error.path("type").asText()).isEqualTo("capped");
      assertThat(error.path("resume_at").asText()).isEqualTo(resumeAt);
      assertThat(error.path("message").asText()).startsWith("capped: ").endsWith(" resume_at=" + resumeAt);
      assertThat(ProviderFailure.fromJson(error.path("metadata").path("raw").asText()).kind()).isEqualTo(ProviderFailure.Kind.CAPPED);
      assertThat(daemon.player.sends()).hasSize(1);

      JsonNode health = TestDaemon.json(daemon.get("/healthz").body());
      assertThat(health.path("state").asText()).isEqualTo("capped");
      assertThat(health.path("ok").asBoolean()).isFalse();
      assertThat(health.path("cap_resume_at").asText()).isEqualTo(resumeAt);
    }
  }

  @Test
  void loggedOutIs503BeforeCommitAndAnErrorEventAfter() throws Exception {
    try (TestDaemon daemon = new TestDaemon(
        "{\"default\": [{\"fault\": \"logged_out\", \"delay_ms\": 150}]}")) {
      HttpResponse<String> plain = daemon.post(Requests.chat("sol-web-high").user("a").json());
      assertTyped(plain, 503, "unavailable");

      TestDaemon.Stream stream = daemon.stream(Requests.chat("sol-web-high").user("b").stream(true).json());
      assertErrorEventWithoutDone(stream, "unavailable");
      assertThat(daemon.player.sends()).isEmpty();
    }
  }

  @Test
  void malformedTwiceIsOneCorrectionThenProtocol502() throws Exception {
    String twoBlocks = "{\"blocks\": [\"{}\", \"{}\"]}";
    try (TestDaemon daemon = new TestDaemon("{\"default\": [" + twoBlocks + ", {\"blocks\": [\"not json\"]}]}")) {
      HttpResponse<String> response = daemon.post(Requests.chat("sol-web-high").user("a").tool("write").json());

      ProviderFailure failure = assertTyped(response, 502, "protocol");
      assertThat(failure.detail()).contains("not valid JSON");
      assertThat(daemon.player.sends()).hasSize(2);
      assertThat(daemon.player.sends().get(1).text()).startsWith("PROTOCOL ERROR\nthe reply had 2 code blocks");
    }
  }

  @Test
  void malformedOnceIsRepairedInTheSameConversation() throws Exception {
    try (TestDaemon daemon = new TestDaemon("{\"default\": [{\"blocks\": [\"{\\\"tool\\\": \\\"nope\\\"}\"]}, {\"blocks\": [\""
        + TOOL_CALL + "\"]}]}")) {
      HttpResponse<String> response = daemon.post(Requests.chat("sol-web-high").user("a").tool("write").json());

      assertThat(response.statusCode()).isEqualTo(200);
      assertThat(TestDaemon.json(response.body()).path("choices").get(0).path("finish_reason").asText()).isEqualTo("tool_calls");
      List<dev.solweb.provider.scenario.ScenarioPlayer.Send> sends = daemon.player.sends();
      assertThat(sends).hasSize(2);
      assertThat(sends.get(1).text()).contains("unknown tool \"nope\"");
      assertThat(sends.get(1).conversationId()).isEqualTo(sends.get(0).conversationId());
    }
  }

  @Test
  void protocolFailureAfterCommitIsAnErrorEvent() throws Exception {
    try (TestDaemon daemon = new TestDaemon(
        "{\"default\": [{\"blocks\": [\"x\"], \"delay_ms\": 150}, {\"blocks\": [\"y\"]}]}")) {
      assertErrorEventWithoutDone(daemon.stream(Requests.chat("sol-web-high").user("a").stream(true).json()), "protocol");
    }
  }

  @Test
  void hungSeatIsEndedByTheTurnTimeoutWith504AndTheStreamIsClosedByTheDaemon() throws Exception {
    TestDaemon.Options options = TestDaemon.Options.defaults().turnTimeout(Duration.ofMillis(700)).keepAlive(Duration.ofMillis(200));
    try (TestDaemon daemon = new TestDaemon("{\"default\": [{\"fault\": \"hang\"}, {\"fault\": \"hang\"}]}", options)) {
      assertTyped(daemon.post(Requests.chat("sol-web-high").user("a").json()), 504, "timeout");

      TestDaemon.Stream stream = daemon.stream(Requests.chat("sol-web-high").user("b").stream(true).json());
      assertErrorEventWithoutDone(stream, "timeout");
      assertThat(stream.events().get(stream.events().size() - 1).atMillis()).isLessThan(10_000);
      // The seat was stopped and is free again: health shows nothing active (the error event is
      // written before the seat's Stop is through, so health is asked until it says so, within a bound).
      Optional<Integer> idle = Poll.until(Duration.ofSeconds(10), Duration.ofMillis(20), () -> {
        int active = TestDaemon.json(daemon.get("/healthz").body()).path("active").asInt(-1);
        return active == 0 ? Optional.of(active) : Optional.<Integer>empty();
      });
      assertThat(idle).as("no active turn on /healthz after the timeout").isPresent();
    }
  }

  @Test
  void contextOverflowIs400WithThePhrasePiCompactsOnAndNothingIsSent() throws Exception {
    try (TestDaemon daemon = new TestDaemon("{\"default\": [{\"prose\": \"never\"}]}")) {
      String big = "x".repeat(110_000);
      HttpResponse<String> response = daemon.post(Requests.chat("sol-web-high").user(big).json());

      ProviderFailure failure = assertTyped(response, 400, "context_overflow");
      assertThat(TestDaemon.json(response.body()).path("error").path("message").asText()).contains("exceeds the context window");
      assertThat(failure.kind()).isEqualTo(ProviderFailure.Kind.CONTEXT_OVERFLOW);
      assertThat(daemon.player.sends()).isEmpty();
    }
  }

  @Test
  void contextOverflowOfAStreamedTurnIsAnErrorEventCarryingThePhrase() throws Exception {
    try (TestDaemon daemon = new TestDaemon("{\"default\": [{\"prose\": \"never\"}]}")) {
      ProviderFailure failure = assertErrorEventWithoutDone(
          daemon.stream(Requests.chat("sol-web-high").user("y".repeat(110_000)).stream(true).json()), "context_overflow");

      assertThat(failure.message()).contains("exceeds the context window");
      assertThat(daemon.player.sends()).isEmpty();
    }
  }

  @Test
  void systemRulesAndToolSchemasOverTheCeilingFailExplicitlyAndAreNeverTruncated() throws Exception {
    try (TestDaemon daemon = new TestDaemon("{\"default\": [{\"prose\": \"never\"}]}")) {
      HttpResponse<String> response = daemon.post(Requests.chat("sol-web-high").system("r".repeat(105_000)).user("hi").json());

      ProviderFailure failure = assertTyped(response, 400, "context_overflow");
      assertThat(failure.detail()).contains("system rules and tool schemas", "nothing was truncated");
      assertThat(daemon.player.sends()).isEmpty();
    }
  }

  static ProviderFailure assertTyped(HttpResponse<String> response, int status, String kind) throws Exception {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    assertThat(response.headers().firstValue("x-should-retry")).hasValue("false");
    JsonNode error = TestDaemon.json(response.body()).path("error");
    assertThat(error.path("type").asText()).isEqualTo(kind);
    assertThat(error.path("message").asText()).startsWith(kind + ": ");
    ProviderFailure raw = ProviderFailure.fromJson(error.path("metadata").path("raw").asText());
    assertThat(raw.kind().wireName()).isEqualTo(kind);
    return raw;
  }

  static ProviderFailure assertErrorEventWithoutDone(TestDaemon.Stream stream, String kind) throws Exception {
    assertThat(stream.response().statusCode()).isEqualTo(200);
    List<TestDaemon.Event> events = stream.events();
    assertThat(events).noneMatch(TestDaemon.Event::done);
    assertThat(events).noneMatch(e -> e.data().contains("\"finish_reason\":\"") );
    JsonNode last = events.get(events.size() - 1).json();
    JsonNode error = last.path("error");
    assertThat(error.path("type").asText()).isEqualTo(kind);
    assertThat(events.subList(0, events.size() - 1)).noneMatch(e -> e.data().contains("\"error\""));
    return ProviderFailure.fromJson(error.path("metadata").path("raw").asText());
  }
}

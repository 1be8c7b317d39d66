package dev.solweb.provider.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.scenario.ScenarioPlayer;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Dispatch through the whole HTTP daemon: sessions, efforts, never typing a turn twice, rebuilds,
 * cancellation. Ordering, FIFO, spacing and timeouts are proven on a hand-driven clock in
 * {@code dispatch.DispatcherTest}.
 */
class DispatchTest {

  @Test
  void identicalPromptsFromTwoClientSessionsGetTwoConversationsAndWithoutTheHeaderTheyShareOne() throws Exception {
    String scenario = "{\"default\": [{\"prose\": \"x\"}, {\"prose\": \"y\"}]}";
    try (TestDaemon daemon = new TestDaemon(scenario)) {
      String body = Requests.chat("sol-web-high").system("s").user("same prompt").json();
      daemon.post(body, Map.of(ChatRequest.CLIENT_SESSION_HEADER, "v1." + "a".repeat(43)));
      daemon.post(body, Map.of(ChatRequest.CLIENT_SESSION_HEADER, "v1." + "b".repeat(43)));

      assertThat(daemon.player.sends()).extracting(ScenarioPlayer.Send::conversationId).doesNotHaveDuplicates().hasSize(2);
    }
    try (TestDaemon daemon = new TestDaemon(scenario)) {
      String body = Requests.chat("sol-web-high").system("s").user("same prompt").json();
      daemon.post(body);
      daemon.post(Requests.chat("sol-web-high").system("s").user("same prompt").assistantText("x").user("more").json());

      assertThat(daemon.player.sends()).extracting(ScenarioPlayer.Send::conversationId).containsOnly(
          daemon.player.sends().get(0).conversationId());
    }
  }

  @Test
  void twoEffortsNeverShareAConversation() throws Exception {
    try (TestDaemon daemon = new TestDaemon("{\"default\": [{\"prose\": \"x\"}]}")) {
      daemon.post(Requests.chat("sol-web-high").user("same").json());
      daemon.post(Requests.chat("sol-web-pro").user("same").json());

      List<ScenarioPlayer.Send> sends = daemon.player.sends();
      assertThat(sends).hasSize(2);
      assertThat(sends.get(0).conversationId()).isNotEqualTo(sends.get(1).conversationId());
      assertThat(sends.get(1).effortLabel()).isEqualTo("Pro");
    }
  }

  @Test
  void aResendOfTheLastAnsweredTurnIsAnsweredFromMemoryWithNoBrowserSend() throws Exception {
    try (TestDaemon daemon = new TestDaemon("{\"default\": [{\"prose\": \"first answer\"}, {\"prose\": \"second\"}]}")) {
      String body = Requests.chat("sol-web-high").user("hello").json();
      HttpResponse<String> first = daemon.post(body);
      // Claude Code's watchdog re-sends the same turn as stream:false; Pi may re-send it streaming.
      HttpResponse<String> again = daemon.post(body);
      TestDaemon.Stream streamed = daemon.stream(Requests.chat("sol-web-high").user("hello").stream(true).json());

      assertThat(daemon.player.sends()).hasSize(1);
      assertThat(TestDaemon.json(again.body()).path("choices").get(0).path("message").path("content").asText())
          .isEqualTo("first answer").isEqualTo(TestDaemon.json(first.body()).path("choices").get(0).path("message").path("content").asText());
      assertThat(streamed.data()).anyMatch(d -> d.contains("first answer")).last().isEqualTo("[DONE]");
    }
  }

  @Test
  void aResendOfATurnInFlightAttachesToItAndTheSeatSendsOnce() throws Exception {
    try (TestDaemon daemon = new TestDaemon("{\"default\": [{\"prose\": \"slow answer\", \"delay_ms\": 600}]}")) {
      String body = Requests.chat("sol-web-high").user("hello").json();
      CompletableFuture<HttpResponse<String>> first = async(daemon, Requests.chat("sol-web-high").user("hello").stream(false).json(), null);
      awaitHealth(daemon, h -> h.path("active").asInt() == 1);
      HttpResponse<String> second = daemon.post(body);

      assertThat(second.statusCode()).isEqualTo(200);
      assertThat(first.get(5, TimeUnit.SECONDS).body()).contains("slow answer");
      assertThat(second.body()).contains("slow answer");
      assertThat(daemon.player.sends()).hasSize(1);
    }
  }

  @Test
  void theEffortLabelIsReadAtSendTimeAndAMismatchSendsNothing() throws Exception {
    try (TestDaemon daemon = new TestDaemon("{\"default\": [{\"prose\": \"x\"}]}")) {
      daemon.post(Requests.chat("sol-web-xhigh").user("a").json());
      assertThat(daemon.player.sends()).singleElement().satisfies(send -> assertThat(send.effortLabel()).isEqualTo("Extra High"));
    }
    String resume = "{\"conversations\": [{\"match\": \"a\", \"replies\": [{\"prose\": \"x\"}, {\"prose\": \"y\", \"effort_label\": \"Medium\"}]}]}";
    try (TestDaemon daemon = new TestDaemon(resume)) {
      daemon.post(Requests.chat("sol-web-high").user("a").json());
      HttpResponse<String> second = daemon.post(Requests.chat("sol-web-high").user("a").assistantText("x").user("b").json());

      ProviderFailure failure = FailuresTest.assertTyped(second, 503, "unavailable");
      assertThat(failure.detail()).contains("\"Medium\"", "sol-web-high");
      assertThat(daemon.player.sends()).hasSize(1);
    }
  }

  @Test
  void aBrokenSeatBeforeSendIsRebuiltOnceAndTheTurnRunsOnce() throws Exception {
    try (TestDaemon daemon = new TestDaemon("{\"conversations\": [{\"replies\": [{\"fault\": \"crash_before_send\"}]}],"
        + " \"default\": [{\"prose\": \"after rebuild\"}]}")) {
      HttpResponse<String> response = daemon.post(Requests.chat("sol-web-high").user("a").json());

      assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
      assertThat(response.body()).contains("after rebuild");
      assertThat(daemon.seatsCreated.get()).isEqualTo(2);
      assertThat(daemon.player.sends()).hasSize(1);
    }
  }

  @Test
  void aBrokenSeatAfterSendIsNotResentItsRetryIsAnsweredFromMemoryAndTheNextTurnReplaysIntoAFreshConversation()
      throws Exception {
    try (TestDaemon daemon = new TestDaemon("{\"conversations\": [{\"match\": \"a\", \"replies\": [{\"prose\": \"x\"}, {\"fault\": \"crash\"}]}],"
        + " \"default\": [{\"prose\": \"replayed\"}]}")) {
      daemon.post(Requests.chat("sol-web-high").user("a").json());
      String second = Requests.chat("sol-web-high").user("a").assistantText("x").user("b").json();
      FailuresTest.assertTyped(daemon.post(second), 503, "unavailable");
      assertThat(daemon.player.sends()).hasSize(2);

      // The client's retry of exactly that request spends no second message (issue 32).
      HttpResponse<String> retried = daemon.post(second);
      FailuresTest.assertTyped(retried, 503, "unavailable");
      assertThat(retried.body()).contains("answers it from memory");
      assertThat(daemon.player.sends()).hasSize(2);

      // The person's next turn goes on, replayed whole into a fresh conversation.
      HttpResponse<String> next = daemon.post(Requests.chat("sol-web-high").user("a").assistantText("x").user("b")
          .user("go on").json());
      assertThat(next.body()).contains("replayed");
      List<ScenarioPlayer.Send> sends = daemon.player.sends();
      assertThat(sends).hasSize(3);
      assertThat(sends.get(2).conversationId()).isNotEqualTo(sends.get(1).conversationId());
      assertThat(sends.get(2).text()).contains("USER\na", "ASSISTANT\nx", "USER\nb", "go on");
      JsonNode health = TestDaemon.json(daemon.get("/healthz").body());
      assertThat(health.path("state").asText()).isEqualTo("ready");
    }
  }

  @Test
  void aSecondBreakLeavesTheSeatDeadAndHealthDegraded() throws Exception {
    try (TestDaemon daemon = new TestDaemon("{\"default\": [{\"fault\": \"crash\"}, {\"fault\": \"crash\"}]}")) {
      FailuresTest.assertTyped(daemon.post(Requests.chat("sol-web-high").user("a").json()), 503, "unavailable");
      FailuresTest.assertTyped(daemon.post(Requests.chat("sol-web-high").user("b").json()), 503, "unavailable");

      JsonNode health = TestDaemon.json(daemon.get("/healthz").body());
      assertThat(health.path("state").asText()).isEqualTo("degraded");
      assertThat(health.path("ok").asBoolean()).isFalse();
      FailuresTest.assertTyped(daemon.post(Requests.chat("sol-web-high").user("c").json()), 503, "unavailable");
      assertThat(daemon.player.sends()).hasSize(2);
    }
  }

  @Test
  void aClientThatLeavesCancelsItsTurnAndAQueuedTurnWhoseClientLeftNeverReachesTheSeat() throws Exception {
    try (TestDaemon daemon = new TestDaemon(
        "{\"conversations\": [{\"match\": \"USER\\na\", \"replies\": [{\"fault\": \"hang\"}]}], \"default\": [{\"prose\": \"later\"}]}")) {
      CompletableFuture<HttpResponse<String>> running = async(daemon, Requests.chat("sol-web-high").user("a").stream(true).json(), null);
      awaitHealth(daemon, h -> h.path("active").asInt() == 1);
      CompletableFuture<HttpResponse<String>> queued = async(daemon, Requests.chat("sol-web-high").user("b").stream(true).json(), null);
      awaitHealth(daemon, h -> h.path("queue").asInt() == 1);

      queued.cancel(true);
      running.cancel(true);
      awaitHealth(daemon, h -> h.path("active").asInt() == 0 && h.path("queue").asInt() == 0);

      HttpResponse<String> next = daemon.post(Requests.chat("sol-web-high").user("c").json());
      assertThat(next.statusCode()).isEqualTo(200);
      assertThat(daemon.player.sends()).extracting(s -> s.text().contains("USER\nb")).containsOnly(false);
      assertThat(daemon.player.sends()).hasSize(2);
    }
  }

  @Test
  void keepAliveChunksAreWellFormedEmptyDeltasAtTheConfiguredCadence() throws Exception {
    TestDaemon.Options options = TestDaemon.Options.defaults().keepAlive(Duration.ofMillis(200));
    try (TestDaemon daemon = new TestDaemon("{\"default\": [{\"prose\": \"late\", \"delay_ms\": 1300}]}", options)) {
      TestDaemon.Stream stream = daemon.stream(Requests.chat("sol-web-high").user("a").stream(true).json());

      List<TestDaemon.Event> events = stream.events();
      assertThat(events.get(0).atMillis()).isLessThan(500);
      assertThat(events.get(0).json().path("choices").get(0).path("delta").path("role").asText()).isEqualTo("assistant");
      List<TestDaemon.Event> keepAlives = events.stream().filter(e -> !e.done()
          && e.json().path("choices").path(0).path("delta").isEmpty()
          && e.json().path("choices").path(0).path("finish_reason").isNull()).toList();
      assertThat(keepAlives).hasSizeBetween(4, 7);
      for (TestDaemon.Event keepAlive : keepAlives) {
        assertThat(keepAlive.json().path("object").asText()).isEqualTo("chat.completion.chunk");
      }
      assertThat(stream.data()).noneMatch(d -> d.startsWith("NON-DATA"));
    }
  }

  private static void awaitHealth(TestDaemon daemon, java.util.function.Predicate<JsonNode> condition) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < deadline) {
      if (condition.test(TestDaemon.json(daemon.get("/healthz").body()))) {
        return;
      }
      Thread.sleep(50);
    }
    throw new AssertionError("health never reached the condition: " + daemon.get("/healthz").body());
  }

  private static CompletableFuture<HttpResponse<String>> async(TestDaemon daemon, String body, String session) {
    HttpRequest.Builder request = daemon.request("/v1/chat/completions").POST(HttpRequest.BodyPublishers.ofString(body));
    if (session != null) {
      request.header(ChatRequest.CLIENT_SESSION_HEADER, session);
    }
    return daemon.http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}

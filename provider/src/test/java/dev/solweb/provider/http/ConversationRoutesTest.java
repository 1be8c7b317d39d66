package dev.solweb.provider.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.solweb.provider.scenario.Scenario;
import dev.solweb.provider.scenario.ScenarioPlayer;
import dev.solweb.provider.seat.ForwardingSeat;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.SeatReply;
import dev.solweb.provider.seat.scripted.ScriptedSeat;
import dev.solweb.provider.translate.Conversation;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * GET /v1/conversations and POST /v1/conversations/delete on a real daemon over ScriptedSeats:
 * the player is the account, so what was deleted (and what was not) is what the page saw.
 */
class ConversationRoutesTest {
  private static final String MARKER = "PROMPT-MARKER-77c1";
  private static final String SCENARIO = "{\"default\": [{\"prose\": \"answer one\"}, {\"prose\": \"answer two\"},"
      + " {\"prose\": \"answer three\"}]}";

  private final CountDownLatch entered = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);
  private TestDaemon daemon;

  @AfterEach
  void close() {
    release.countDown();
    if (daemon != null) {
      daemon.close();
    }
  }

  /** A seat whose send of a text holding HANG waits for the test: a turn in flight. */
  private TestDaemon.Options gated(TestDaemon.Options options) {
    return options.seatWrapper(seat -> new ForwardingSeat(seat) {
      @Override
      public SeatReply send(String text) throws SeatException {
        if (text.contains("HANG")) {
          entered.countDown();
          try {
            release.await(30, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }
        return super.send(text);
      }
    });
  }

  private void start(TestDaemon.Options options) throws Exception {
    daemon = new TestDaemon(new ScenarioPlayer(Scenario.parse(SCENARIO)), gated(options));
  }

  private HttpResponse<String> turn(String first) throws Exception {
    return daemon.post(Requests.chat("sol-web-high").system("rules").user(first + " " + MARKER).json());
  }

  private Conversation managed(String first) {
    return daemon.conversations.list().stream().filter(c -> daemon.player.sends().stream()
        .anyMatch(s -> s.text().contains(first) && c.url().endsWith(s.conversationId()))).findFirst().orElseThrow();
  }

  private JsonNode delete(String body) throws Exception {
    HttpResponse<String> response = daemon.post("/v1/conversations/delete", body, java.util.Map.of());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return TestDaemon.json(response.body());
  }

  private static List<String> results(JsonNode report) {
    return java.util.stream.StreamSupport.stream(report.path("results").spliterator(), false)
        .map(r -> r.path("result").asText()).toList();
  }

  @Test
  void theListShowsEveryManagedConversationAndNoPromptText() throws Exception {
    start(TestDaemon.Options.defaults());
    assertThat(turn("first").statusCode()).isEqualTo(200);
    assertThat(turn("second").statusCode()).isEqualTo(200);

    HttpResponse<String> list = daemon.get("/v1/conversations");

    assertThat(list.statusCode()).isEqualTo(200);
    assertThat(list.body()).doesNotContain(MARKER).doesNotContain("answer one").doesNotContain("rules");
    JsonNode data = TestDaemon.json(list.body()).path("data");
    assertThat(data).hasSize(2);
    for (JsonNode c : data) {
      assertThat(c.path("status").asText()).isEqualTo("live");
      assertThat(c.path("effort").asText()).isEqualTo("high");
      assertThat(c.path("turns").asInt()).isEqualTo(1);
      assertThat(c.path("url").asText()).startsWith(ScriptedSeat.URL_PREFIX).endsWith(c.path("id").asText());
      assertThat(c.path("temporary").asBoolean()).isFalse();
      assertThat(c.path("project").isNull()).isTrue();
      assertThat(c.path("occupancy").asDouble()).isGreaterThan(0).isLessThan(1);
    }
  }

  @Test
  void deleteAllDeletesExactlyTheManagedOnesKeepsTombstonesAndARepeatIsANoOp() throws Exception {
    start(TestDaemon.Options.defaults());
    String personal = daemon.player.openConversation("the owner's own chat");
    turn("first");
    turn("second");
    List<String> managedUrls = daemon.conversations.list().stream().map(Conversation::url).toList();

    JsonNode report = delete("{\"all\": true}");

    assertThat(results(report)).containsExactly("deleted", "deleted");
    assertThat(report.path("ok").asBoolean()).isTrue();
    assertThat(report.path("summary").path("deleted").asInt()).isEqualTo(2);
    assertThat(daemon.player.deleted()).containsExactlyInAnyOrderElementsOf(managedUrls);
    assertThat(daemon.player.exists(personal)).as("the personal conversation is untouched").isTrue();
    assertThat(daemon.conversations.list()).allSatisfy(c -> {
      assertThat(c.status()).isEqualTo(Conversation.Status.DELETED);
      assertThat(c.url()).isIn(managedUrls);
      assertThat(c.deletedAtEpochSecond()).isPositive();
    });

    JsonNode again = delete("{\"all\": true}");

    assertThat(results(again)).containsExactly("already_deleted", "already_deleted");
    assertThat(again.path("ok").asBoolean()).isTrue();
    assertThat(daemon.player.deleteRequests()).as("a repeat opens no page").hasSize(2);
  }

  @Test
  void theNextRequestOfADeletedSessionOpensAFreshConversationAndReplays() throws Exception {
    start(TestDaemon.Options.defaults());
    turn("first");
    String deletedUrl = daemon.conversations.list().iterator().next().url();
    delete("{\"all\": true}");

    HttpResponse<String> next = daemon.post(Requests.chat("sol-web-high").system("rules").user("first " + MARKER)
        .assistantText("answer one").user("and then").json());

    assertThat(next.statusCode()).as(next.body()).isEqualTo(200);
    assertThat(daemon.player.conversationsOpened()).isEqualTo(2);
    ScenarioPlayer.Send replay = daemon.player.sends().get(1);
    assertThat(replay.text()).as("the whole history is replayed").contains("first " + MARKER, "and then");
    assertThat(deletedUrl).doesNotEndWith(replay.conversationId());
    Conversation now = daemon.conversations.list().iterator().next();
    assertThat(now.status()).isEqualTo(Conversation.Status.READY);
    assertThat(now.url()).isNotEqualTo(deletedUrl);
  }

  @Test
  void aConversationWithATurnInFlightIsSkippedAndTheOthersAreDeleted() throws Exception {
    start(TestDaemon.Options.defaults().seats(2));
    turn("first");
    turn("busy");
    Conversation busy = managed("busy");
    CompletableFuture<HttpResponse<String>> inFlight = daemon.http.sendAsync(daemon.request("/v1/chat/completions")
        .POST(HttpRequest.BodyPublishers.ofString(Requests.chat("sol-web-high").system("rules").user("busy " + MARKER)
            .assistantText("answer one").user("HANG here").json())).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();

    JsonNode report = delete("{\"all\": true}");

    assertThat(report.path("ok").asBoolean()).isFalse();
    assertThat(report.path("summary").path("deleted").asInt()).isEqualTo(1);
    JsonNode skipped = java.util.stream.StreamSupport.stream(report.path("results").spliterator(), false)
        .filter(r -> r.path("result").asText().equals("skipped")).findFirst().orElseThrow();
    assertThat(skipped.path("session").asText()).isEqualTo(busy.sessionKey());
    assertThat(skipped.path("detail").asText()).contains("in flight");
    assertThat(daemon.player.deleteRequests()).doesNotContain(busy.url());

    release.countDown();
    assertThat(inFlight.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
    assertThat(daemon.conversations.current(busy.sessionKey()).orElseThrow().status()).isEqualTo(Conversation.Status.READY);
  }

  @Test
  void aDeleteThePageDidNotDoRecordsNoTombstone() throws Exception {
    start(TestDaemon.Options.defaults());
    turn("first");
    daemon.player.failDeletes("the confirmation never appeared");

    JsonNode report = delete("{\"all\": true}");

    assertThat(results(report)).containsExactly("failed");
    assertThat(report.path("results").get(0).path("detail").asText())
        .contains("the confirmation never appeared", "no tombstone recorded");
    assertThat(report.path("ok").asBoolean()).isFalse();
    assertThat(daemon.conversations.list()).allSatisfy(c -> assertThat(c.status()).isEqualTo(Conversation.Status.READY));
  }

  @Test
  void aDryRunDeletesNothing() throws Exception {
    start(TestDaemon.Options.defaults());
    turn("first");
    turn("second");

    JsonNode report = delete("{\"all\": true, \"dry_run\": true}");

    assertThat(results(report)).containsExactly("would_delete", "would_delete");
    assertThat(report.path("dry_run").asBoolean()).isTrue();
    assertThat(daemon.player.deleteRequests()).isEmpty();
    assertThat(daemon.conversations.list()).allSatisfy(c -> assertThat(c.status()).isEqualTo(Conversation.Status.READY));
  }

  @Test
  void anIdThatIsNotManagedRefusesTheWholeRequest() throws Exception {
    start(TestDaemon.Options.defaults());
    String personal = daemon.player.openConversation("the owner's own chat");
    turn("first");
    String managedId = daemon.conversations.list().iterator().next().conversationId();

    HttpResponse<String> refused = daemon.post("/v1/conversations/delete",
        "{\"ids\": [\"" + managedId + "\", \"" + personal + "\"]}", java.util.Map.of());

    assertThat(refused.statusCode()).isEqualTo(400);
    assertThat(TestDaemon.json(refused.body()).path("error").path("message").asText())
        .contains("not a managed conversation: " + personal, "nothing was deleted");
    assertThat(daemon.player.deleteRequests()).isEmpty();

    HttpResponse<String> both = daemon.post("/v1/conversations/delete", "{\"all\": true, \"idle_days\": 3}", java.util.Map.of());
    assertThat(both.statusCode()).isEqualTo(400);
    HttpResponse<String> unknown = daemon.post("/v1/conversations/delete", "{\"everything\": true}", java.util.Map.of());
    assertThat(unknown.statusCode()).isEqualTo(400);

    JsonNode byId = delete("{\"ids\": [\"" + managedId + "\"]}");
    assertThat(results(byId)).containsExactly("deleted");
    assertThat(daemon.player.exists(personal)).isTrue();
  }

  @Test
  void oneClientSessionsConversationsAreListedAndDeletedByItsHeaderValue() throws Exception {
    start(TestDaemon.Options.defaults());
    String mine = "v1." + "a".repeat(43);
    String other = "v1." + "b".repeat(43);
    String body = Requests.chat("sol-web-high").system("rules").user("same task " + MARKER).json();
    assertThat(daemon.post(body, java.util.Map.of("X-Overdeck-Client-Session", mine)).statusCode()).isEqualTo(200);
    assertThat(daemon.post(body, java.util.Map.of("X-Overdeck-Client-Session", other)).statusCode()).isEqualTo(200);
    assertThat(daemon.conversations.list()).allSatisfy(c -> assertThat(c.clientSession()).isNotNull()
        .doesNotContain(mine.substring(3)).doesNotContain(other.substring(3)));

    JsonNode listed = TestDaemon.json(daemon.get("/v1/conversations?client_session=" + mine).body()).path("data");
    assertThat(listed).hasSize(1);

    JsonNode report = delete("{\"client_session\": \"" + mine + "\"}");

    assertThat(results(report)).containsExactly("deleted");
    assertThat(daemon.player.deleted()).containsExactly(listed.get(0).path("url").asText());
    assertThat(TestDaemon.json(daemon.get("/v1/conversations?client_session=" + other).body())
        .path("data").get(0).path("status").asText()).isEqualTo("live");
  }
}

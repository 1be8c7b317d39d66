package dev.solweb.killgate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.killgate.FakesolDaemons.Running;
import dev.solweb.killgate.fakesol.FakeSol;
import dev.solweb.provider.scenario.Scenario;
import dev.solweb.provider.scenario.ScenarioPlayer;
import dev.solweb.provider.seat.playwright.PlaywrightOptions;
import dev.solweb.provider.seat.playwright.browser.OrphanReaper;
import dev.solweb.provider.translate.Conversation;
import dev.solweb.provider.translate.Conversations;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real daemon ({@code solwebd --seat playwright --headless --chat-url <fakesol>}) as a
 * separate process, driven over HTTP like Pi drives it: the whole tool loop, a restart after a
 * kill -9 that continues the same conversation, an identical re-send after a restart answered
 * without typing, a kill -9 after Send whose re-send never types into that conversation again,
 * and a second daemon refused on the profile.
 */
class DaemonPlaywrightTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SCENARIO = """
      {"account": "owner@example.invalid",
       "default": [
        {"blocks": ["{\\"tool\\": \\"write\\", \\"arguments\\": {\\"path\\": \\"hello.txt\\", \\"content\\": \\"hi\\"}}"]},
        {"blocks": ["{\\"tool\\": \\"final\\", \\"text\\": \\"done: hello.txt\\"}"]}
      ]}
      """;

  private static final String ACCOUNT = "owner@example.invalid";
  private static final String CLIENT_SESSION = "v1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

  @TempDir Path home;
  private FakeSol sol;
  private FakesolDaemons daemons;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @BeforeEach
  void startFakesol() {
    sol = FakeSol.start(Scenario.parse(SCENARIO), 0);
    daemons = new FakesolDaemons(home, sol.url());
  }

  @AfterEach
  void stopAll() throws Exception {
    daemons.close();
    sol.close();
  }

  private Running startDaemon() throws Exception {
    return daemons.start(ACCOUNT);
  }

  private HttpResponse<String> get(Running d, String path) throws Exception {
    return daemons.get(d, path);
  }

  private JsonNode chat(Running d, ObjectNode body) throws Exception {
    return daemons.chat(d, CLIENT_SESSION, body);
  }

  private static ObjectNode firstRequest() {
    ObjectNode body = JSON.createObjectNode().put("model", "sol-web-high");
    ArrayNode messages = body.putArray("messages");
    messages.addObject().put("role", "system").put("content", "You are terse.");
    messages.addObject().put("role", "user").put("content", "create hello.txt");
    ObjectNode fn = body.putArray("tools").addObject().put("type", "function").putObject("function");
    fn.put("name", "write").put("description", "write a file").putObject("parameters").put("type", "object");
    return body;
  }

  private static ObjectNode secondRequest(JsonNode call) {
    ObjectNode body = firstRequest();
    ArrayNode messages = (ArrayNode) body.get("messages");
    ObjectNode assistant = messages.addObject().put("role", "assistant");
    assistant.putNull("content");
    assistant.putArray("tool_calls").add(call.deepCopy());
    messages.addObject().put("role", "tool").put("tool_call_id", call.path("id").asText()).put("content", "wrote 2 bytes");
    return body;
  }

  @Test
  void theWholeToolLoopRunsOverHttpThroughThePlaywrightSeat() throws Exception {
    Running daemon = startDaemon();

    JsonNode first = chat(daemon, firstRequest());
    JsonNode call = first.path("choices").get(0).path("message").path("tool_calls").get(0);
    assertThat(first.path("choices").get(0).path("finish_reason").asText()).isEqualTo("tool_calls");
    assertThat(call.path("function").path("name").asText()).isEqualTo("write");
    assertThat(JSON.readTree(call.path("function").path("arguments").asText()))
        .isEqualTo(JSON.readTree("{\"path\":\"hello.txt\",\"content\":\"hi\"}"));

    JsonNode second = chat(daemon, secondRequest(call));
    assertThat(second.path("choices").get(0).path("finish_reason").asText()).isEqualTo("stop");
    assertThat(second.path("choices").get(0).path("message").path("content").asText()).contains("done: hello.txt");

    List<ScenarioPlayer.Send> sends = sol.sends();
    assertThat(sends).hasSize(2);
    assertThat(sends.get(1).conversationId()).isEqualTo(sends.get(0).conversationId());
    assertThat(sends.get(0).text()).contains("You are terse.").contains("create hello.txt");
    assertThat(sends.get(1).text()).contains("wrote 2 bytes").doesNotContain("You are terse.");

    // Both answers came from the page's own stream, and the DOM agreed with it.
    JsonNode answers = JSON.readTree(get(daemon, "/healthz").body()).path("answers");
    assertThat(answers.path("stream").asInt()).isEqualTo(2);
    assertThat(answers.path("dom").asInt()).isZero();
    assertThat(answers.path("disagreements").asInt()).isZero();
  }

  /** solwebctl on the daemon's own home, as a user would run it beside the daemon. */
  private String[] ctl(String... args) {
    FakesolDaemons.CtlRun run = daemons.ctl(args);
    return new String[] {Integer.toString(run.code()), run.out(), run.err()};
  }

  @Test
  void doctorAndCaptureReadTheDaemonsPageBetweenTurnsAndTheConversationGoesOn() throws Exception {
    Running daemon = startDaemon();
    JsonNode call = chat(daemon, firstRequest()).path("choices").get(0).path("message").path("tool_calls").get(0);
    String conversation = sol.url() + "c/" + sol.sends().get(0).conversationId();

    String[] doctor = ctl("doctor", "--json");
    Path capture = home.resolve("capture.html");
    String[] captured = ctl("capture", "--out", capture.toString());

    assertThat(doctor[2]).isEmpty();
    JsonNode report = JSON.readTree(doctor[1]);
    assertThat(report.path("url").asText()).isEqualTo(conversation);
    assertThat(report.path("turns").asInt()).isEqualTo(2);
    assertThat(report.path("state").asText()).isEqualTo("ready");
    assertThat(report.path("last_reply").path("code_blocks").get(0).asText()).contains("\"tool\": \"write\"");
    assertThat(doctor[0]).isEqualTo(report.path("ok").asBoolean() ? "0" : "1");
    assertThat(captured[0]).as(captured[2]).isEqualTo("0");
    assertThat(Files.readString(capture)).doesNotContain("create hello.txt", "You are terse.", "owner@example.invalid")
        .contains("data-turn-key=", "data-composer-markdown"); // fakesol's default page is October's (REAL-PAGE rows 13, 27)
    assertThat(sol.sends()).hasSize(1);

    JsonNode answer = chat(daemon, secondRequest(call));
    assertThat(answer.path("choices").get(0).path("message").path("content").asText()).contains("done: hello.txt");
    assertThat(sol.sends()).hasSize(2);
    assertThat(sol.sends().get(1).conversationId()).isEqualTo(sol.sends().get(0).conversationId());
  }

  @Test
  void aDaemonRestartedAfterKillMinusNineContinuesTheSameConversation() throws Exception {
    Running first = startDaemon();
    JsonNode call = chat(first, firstRequest()).path("choices").get(0).path("message").path("tool_calls").get(0);
    long firstPid = first.process().pid();
    assertThat(first.process().destroyForcibly().waitFor(30, TimeUnit.SECONDS)).as("solwebd ends on kill -9").isTrue();
    // Whether the killed daemon's Chromium outlives it is up to the OS and the driver's timing: the
    // worst case is made here, not hoped for. Its leftovers go, and a Chromium that no daemon owns
    // holds the profile.
    OrphanReaper.reap(home.resolve("profile"));
    Process orphan = OrphanChromium.start(PlaywrightOptions.DEFAULT_CHROMIUM, home.resolve("profile"));

    Running second = startDaemon();
    assertThat(second.process().pid()).isNotEqualTo(firstPid);
    assertThat(orphan.waitFor(30, TimeUnit.SECONDS)).as("the Chromium orphaned on the profile is ended at the next start").isTrue();
    JsonNode answer = chat(second, secondRequest(call));

    assertThat(answer.path("choices").get(0).path("message").path("content").asText()).contains("done: hello.txt");
    List<ScenarioPlayer.Send> sends = sol.sends();
    assertThat(sends).hasSize(2);
    assertThat(sends.get(1).conversationId()).as("continued, not replayed").isEqualTo(sends.get(0).conversationId());
    assertThat(sends.get(1).text()).doesNotContain("You are terse.");
    assertThat(sol.player().conversationsOpened()).isEqualTo(1);
  }

  @Test
  void anIdenticalReSendAfterACleanRestartIsAnsweredWithOneSubmissionOnThePage() throws Exception {
    Running first = startDaemon();
    JsonNode answered = chat(first, firstRequest()).path("choices").get(0).path("message");
    HttpResponse<String> stop = http.send(HttpRequest.newBuilder(first.base().resolve("/shutdown"))
        .header("Authorization", "Bearer " + first.token()).POST(HttpRequest.BodyPublishers.noBody()).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(stop.statusCode()).isEqualTo(200);
    assertThat(first.process().waitFor(30, TimeUnit.SECONDS)).as("solwebd exits after POST /shutdown").isTrue();

    Running second = startDaemon();
    JsonNode again = chat(second, firstRequest()).path("choices").get(0).path("message");

    assertThat(again.path("tool_calls")).isEqualTo(answered.path("tool_calls"));
    assertThat(sol.sends()).as("browser submissions for answer, restart, identical re-send").hasSize(1);
  }

  @Test
  void afterAKillMinusNinePastSendTheReSendReplaysIntoAFreshConversationAndNothingIsTypedTwice() throws Exception {
    sol.close();
    sol = FakeSol.start(Scenario.parse("""
        {"account": "owner@example.invalid",
         "conversations": [{"match": "create hello.txt", "replies": [
          {"blocks": ["{\\"tool\\": \\"write\\", \\"arguments\\": {\\"path\\": \\"hello.txt\\", \\"content\\": \\"hi\\"}}"]},
          {"fault": "hang"},
          {"blocks": ["{\\"tool\\": \\"final\\", \\"text\\": \\"meant for the next turn\\"}"]}]}],
         "default": [{"blocks": ["{\\"tool\\": \\"final\\", \\"text\\": \\"done after the replay\\"}"]}]}
        """), 0);
    daemons = new FakesolDaemons(home, sol.url());
    Running first = startDaemon();
    JsonNode call = chat(first, firstRequest()).path("choices").get(0).path("message").path("tool_calls").get(0);
    http.sendAsync(HttpRequest.newBuilder(first.base().resolve("/v1/chat/completions"))
        .header("Authorization", "Bearer " + first.token()).header("content-type", "application/json")
        .header("X-Overdeck-Client-Session", CLIENT_SESSION)
        .POST(HttpRequest.BodyPublishers.ofString(secondRequest(call).toString())).build(),
        HttpResponse.BodyHandlers.discarding());
    assertThat(sol.player().awaitSends(2, Duration.ofSeconds(60))).as("the second turn reached the page").isTrue();
    // The page recorded the Send, so its in-flight mark was on disk before it: a daemon starting now reads it as uncertain.
    assertThat(Conversations.snapshot(home.resolve("registry.json")))
        .as("the Send is marked in flight on disk").filteredOn(c -> c.status() == Conversation.Status.UNCERTAIN).hasSize(1);
    first.process().destroyForcibly().waitFor(10, TimeUnit.SECONDS);

    Running second = startDaemon();
    JsonNode answer = chat(second, secondRequest(call));

    assertThat(answer.path("choices").get(0).path("message").path("content").asText()).isEqualTo("done after the replay");
    List<ScenarioPlayer.Send> sends = sol.sends();
    assertThat(sends).hasSize(3);
    String killed = sends.get(0).conversationId();
    assertThat(sends.get(1).conversationId()).isEqualTo(killed);
    assertThat(sends.get(2).conversationId()).as("a fresh conversation").isNotEqualTo(killed);
    assertThat(sends.get(2).text()).contains("You are terse.", "create hello.txt", "wrote 2 bytes");
    assertThat(sends).filteredOn(send -> send.conversationId().equals(killed) && send.text().contains("wrote 2 bytes"))
        .as("typed once into the killed conversation").hasSize(1);
  }

  @Test
  void aSecondDaemonOnTheProfileFailsFastNamingTheLockAndTheHolder() throws Exception {
    Running first = startDaemon();
    List<String> output = new ArrayList<>();
    Process second = daemons.launch(output, java.util.Map.of());
    assertThat(second.waitFor(60, TimeUnit.SECONDS)).as("the second daemon exits").isTrue();
    String all = daemons.outputOf(second, output);

    assertThat(second.exitValue()).isEqualTo(3);
    assertThat(all).contains(home.resolve("profile.lock").toString()).contains("pid " + first.process().pid())
        .doesNotContain("ProcessSingleton");
    // How fast it fails is a benchmark's business (it once asserted under 10 s, which a loaded machine
    // can miss); the refusal names the lock, not Chromium's ProcessSingleton: no browser was launched.
    assertThat(JSON.readTree(get(first, "/healthz").body()).path("state").asText()).isEqualTo("ready");
  }
}

package dev.solweb.killgate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.killgate.fakesol.FakeSol;
import dev.solweb.provider.seat.playwright.OrphanReaper;
import dev.solweb.provider.seat.scripted.Scenario;
import dev.solweb.provider.seat.scripted.ScenarioPlayer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
  private static final Pattern LISTENING = Pattern.compile("listening on (http://127\\.0\\.0\\.1:\\d+)");
  private static final String SCENARIO = """
      {"account": "owner@example.invalid",
       "default": [
        {"blocks": ["{\\"tool\\": \\"write\\", \\"arguments\\": {\\"path\\": \\"hello.txt\\", \\"content\\": \\"hi\\"}}"]},
        {"blocks": ["{\\"tool\\": \\"final\\", \\"text\\": \\"done: hello.txt\\"}"]}
      ]}
      """;

  @TempDir Path home;
  private FakeSol sol;
  private final List<Process> daemons = new ArrayList<>();
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @BeforeEach
  void startFakesol() {
    sol = FakeSol.start(Scenario.parse(SCENARIO), 0);
  }

  @AfterEach
  void stopAll() throws Exception {
    for (Process daemon : daemons) {
      daemon.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    OrphanReaper.reap(home.resolve("profile"));
    sol.close();
  }

  /** A running daemon: its base URL and the token it created. */
  private record Daemon(Process process, URI base, String token) {}

  private Process launch(List<String> output) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ProcessBuilder pb = new ProcessBuilder(java, "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
        "dev.solweb.provider.daemon.Solwebd", "--seat", "playwright", "--headless", "--chat-url", sol.url().toString(),
        "--port", "0", "--home", home.toString())
        .redirectErrorStream(true);
    pb.environment().put("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1");
    pb.environment().put("SOLWEBD_KEEPALIVE_S", "0");
    Process process = pb.start();
    daemons.add(process);
    Thread reader = new Thread(() -> {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = in.readLine()) != null) {
          synchronized (output) {
            output.add(line);
            output.notifyAll();
          }
        }
      } catch (Exception ignored) {
        // The process ended.
      }
    });
    reader.setDaemon(true);
    reader.start();
    return process;
  }

  private Daemon startDaemon() throws Exception {
    List<String> output = new ArrayList<>();
    Process process = launch(output);
    URI base = null;
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (base == null) {
      synchronized (output) {
        for (String line : output) {
          Matcher m = LISTENING.matcher(line);
          if (m.find()) {
            base = URI.create(m.group(1));
          }
        }
        if (base == null) {
          assertThat(process.isAlive()).as("solwebd exited: %s", output).isTrue();
          assertThat(System.nanoTime()).as("solwebd did not listen: %s", output).isLessThan(deadline);
          output.wait(200);
        }
      }
    }
    String token = Files.readString(home.resolve("solwebd.token")).strip();
    Daemon daemon = new Daemon(process, base, token);
    while (true) {
      JsonNode health = JSON.readTree(get(daemon, "/healthz").body());
      if ("ready".equals(health.path("state").asText())) {
        assertThat(health.path("account").asText()).isEqualTo("owner@example.invalid");
        return daemon;
      }
      assertThat(System.nanoTime()).as("never ready: %s", health).isLessThan(deadline);
      Thread.sleep(100);
    }
  }

  private HttpResponse<String> get(Daemon d, String path) throws Exception {
    return http.send(HttpRequest.newBuilder(d.base().resolve(path)).header("Authorization", "Bearer " + d.token())
        .timeout(Duration.ofSeconds(30)).GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  private JsonNode chat(Daemon d, ObjectNode body) throws Exception {
    HttpResponse<String> response = http.send(HttpRequest.newBuilder(d.base().resolve("/v1/chat/completions"))
        .header("Authorization", "Bearer " + d.token()).header("content-type", "application/json")
        .header("X-Overdeck-Client-Session", "v1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")
        .timeout(Duration.ofSeconds(60)).POST(HttpRequest.BodyPublishers.ofString(body.toString())).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return JSON.readTree(response.body());
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
    Daemon daemon = startDaemon();

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
    java.util.Map<String, String> env = new java.util.HashMap<>();
    env.put("HOME", home.toString());
    env.put("PATH", System.getenv("PATH"));
    env.put("SOLWEBD_HOME", home.toString());
    java.io.StringWriter out = new java.io.StringWriter();
    java.io.StringWriter err = new java.io.StringWriter();
    int code = dev.solweb.provider.ctl.Solwebctl.execute(dev.solweb.provider.ctl.CtlEnv.of(env, null),
        new java.io.PrintWriter(out), new java.io.PrintWriter(err), args);
    return new String[] {Integer.toString(code), out.toString(), err.toString()};
  }

  @Test
  void doctorAndCaptureReadTheDaemonsPageBetweenTurnsAndTheConversationGoesOn() throws Exception {
    Daemon daemon = startDaemon();
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
        .contains("data-testid=\"conversation-turn-", "id=\"prompt-textarea\"");
    assertThat(sol.sends()).hasSize(1);

    JsonNode answer = chat(daemon, secondRequest(call));
    assertThat(answer.path("choices").get(0).path("message").path("content").asText()).contains("done: hello.txt");
    assertThat(sol.sends()).hasSize(2);
    assertThat(sol.sends().get(1).conversationId()).isEqualTo(sol.sends().get(0).conversationId());
  }

  @Test
  void aDaemonRestartedAfterKillMinusNineContinuesTheSameConversation() throws Exception {
    Daemon first = startDaemon();
    JsonNode call = chat(first, firstRequest()).path("choices").get(0).path("message").path("tool_calls").get(0);
    long firstPid = first.process().pid();
    first.process().destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    assertThat(OrphanReaper.find(home.resolve("profile"))).as("the killed daemon's Chromium lives on").isNotEmpty();

    Daemon second = startDaemon();
    assertThat(second.process().pid()).isNotEqualTo(firstPid);
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
    Daemon first = startDaemon();
    JsonNode answered = chat(first, firstRequest()).path("choices").get(0).path("message");
    HttpResponse<String> stop = http.send(HttpRequest.newBuilder(first.base().resolve("/shutdown"))
        .header("Authorization", "Bearer " + first.token()).POST(HttpRequest.BodyPublishers.noBody()).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(stop.statusCode()).isEqualTo(200);
    assertThat(first.process().waitFor(30, TimeUnit.SECONDS)).as("solwebd exits after POST /shutdown").isTrue();

    Daemon second = startDaemon();
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
    Daemon first = startDaemon();
    JsonNode call = chat(first, firstRequest()).path("choices").get(0).path("message").path("tool_calls").get(0);
    http.sendAsync(HttpRequest.newBuilder(first.base().resolve("/v1/chat/completions"))
        .header("Authorization", "Bearer " + first.token()).header("content-type", "application/json")
        .header("X-Overdeck-Client-Session", "v1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")
        .POST(HttpRequest.BodyPublishers.ofString(secondRequest(call).toString())).build(),
        HttpResponse.BodyHandlers.discarding());
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (sol.sends().size() < 2) {
      assertThat(System.nanoTime()).as("the second turn never reached the page").isLessThan(deadline);
      Thread.sleep(100);
    }
    try (java.util.stream.Stream<Path> marks = Files.list(home.resolve("registry.in-flight"))) {
      assertThat(marks).as("the Send is marked in flight on disk").hasSize(1);
    }
    first.process().destroyForcibly().waitFor(10, TimeUnit.SECONDS);

    Daemon second = startDaemon();
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
    Daemon first = startDaemon();
    List<String> output = new ArrayList<>();
    long start = System.nanoTime();
    Process second = launch(output);
    assertThat(second.waitFor(20, TimeUnit.SECONDS)).isTrue();
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    Thread.sleep(200); // let the reader drain the last lines

    assertThat(second.exitValue()).isEqualTo(3);
    String all;
    synchronized (output) {
      all = String.join("\n", output);
    }
    assertThat(all).contains(home.resolve("profile.lock").toString()).contains("pid " + first.process().pid())
        .doesNotContain("ProcessSingleton");
    assertThat(took).isLessThan(Duration.ofSeconds(10)); // a JVM start, no browser launch
    assertThat(JSON.readTree(get(first, "/healthz").body()).path("state").asText()).isEqualTo("ready");
  }
}

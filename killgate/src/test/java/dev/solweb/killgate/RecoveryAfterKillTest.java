package dev.solweb.killgate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.killgate.FakesolDaemons.Running;
import dev.solweb.killgate.fakesol.FakeSol;
import dev.solweb.provider.scenario.Scenario;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23's figure, kill-gate style: {@code solwebd} killed with SIGKILL right after Send (the
 * page's turn request proved it and the in-flight mark names the user message and the
 * conversation), while fakesol's server goes on writing the answer; the client's identical
 * re-send to a restarted daemon is answered from that conversation's own history, and the page
 * got exactly one submission per run. {@code -Dsolweb.recoveryRuns=N} (default 3) sets the runs;
 * each prints one line, and the last a summary.
 */
@Timeout(900)
class RecoveryAfterKillTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ACCOUNT = "owner@example.invalid";
  private static final int RUNS = Integer.getInteger("solweb.recoveryRuns", 3);

  @TempDir Path home;
  private FakeSol sol;
  private FakesolDaemons daemons;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @AfterEach
  void stopAll() throws Exception {
    if (daemons != null) {
      daemons.close();
    }
    if (sol != null) {
      sol.close();
    }
  }

  private static String scenario(int runs) {
    StringBuilder conversations = new StringBuilder();
    for (int i = 0; i < runs; i++) {
      // Slow answers: the server is still writing some of them when the restarted daemon looks.
      conversations.append(i == 0 ? "" : ",").append("{\"match\": \"task ").append(i).append("\", \"replies\": [{\"prose\": \"done ")
          .append(i).append("\", \"stream_ms\": ").append(i % 2 == 0 ? 6000 : 1500).append("}]}");
    }
    return "{\"account\": \"" + ACCOUNT + "\", \"conversations\": [" + conversations + "]}";
  }

  private static ObjectNode request(int run) {
    ObjectNode body = JSON.createObjectNode().put("model", "sol-web-high");
    body.putArray("messages").addObject().put("role", "user").put("content", "task " + run);
    return body;
  }

  private static String session(int run) {
    return "v1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" + (char) ('A' + run % 26);
  }

  /** The in-flight mark names the Send's user message and its conversation URL: the Send is proven. */
  private boolean provenMark() throws Exception {
    Path dir = home.resolve("registry.in-flight");
    if (!Files.isDirectory(dir)) {
      return false;
    }
    for (String text : markTexts(dir).values()) {
      if (text.contains("\"sent_message_id\"") && text.contains("\"url\":\"http")) {
        return true;
      }
    }
    return false;
  }

  /**
   * Each mark's text by its name. The registry writes a mark as a {@code .tmp} it then renames, and
   * clears it when the turn ends: a file listed a moment ago may be gone when it is read.
   */
  private static Map<String, String> markTexts(Path dir) throws Exception {
    Map<String, String> out = new TreeMap<>();
    try (Stream<Path> marks = Files.list(dir)) {
      for (Path mark : marks.toList()) {
        if (mark.getFileName().toString().endsWith(".tmp")) {
          continue;
        }
        try {
          out.put(mark.getFileName().toString(), Files.readString(mark));
        } catch (NoSuchFileException gone) {
          // cleared between the listing and the read
        }
      }
    }
    return out;
  }

  private String marks() throws Exception {
    Path dir = home.resolve("registry.in-flight");
    if (!Files.isDirectory(dir)) {
      return "no mark directory";
    }
    List<String> out = new ArrayList<>();
    markTexts(dir).forEach((name, text) -> out.add(name + "=" + text));
    return out.toString();
  }

  @Test
  void killedRightAfterSendTheReSendIsAnsweredFromTheConversationWithOneSubmission() throws Exception {
    sol = FakeSol.start(Scenario.parse(scenario(RUNS)), 0);
    daemons = new FakesolDaemons(home, sol.url());
    Running daemon = daemons.start(ACCOUNT);
    int answered = 0;
    List<Integer> submissions = new ArrayList<>();
    List<Long> recoveryMillis = new ArrayList<>();
    for (int run = 0; run < RUNS; run++) {
      int sendsBefore = sol.sends().size();
      http.sendAsync(HttpRequest.newBuilder(daemon.base().resolve("/v1/chat/completions"))
          .header("Authorization", "Bearer " + daemon.token()).header("content-type", "application/json")
          .header("X-Overdeck-Client-Session", session(run))
          .POST(HttpRequest.BodyPublishers.ofString(request(run).toString())).build(), HttpResponse.BodyHandlers.discarding());
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (!(sol.sends().size() > sendsBefore && provenMark())) {
        assertThat(System.nanoTime()).as("run %d: the Send was never proven on the mark: %s (sends %d)", run, marks(),
            sol.sends().size()).isLessThan(deadline);
        Thread.sleep(20);
      }
      daemon.process().destroyForcibly().waitFor(10, TimeUnit.SECONDS); // kill -9 right after Send

      long restarted = System.nanoTime();
      daemon = daemons.start(ACCOUNT);
      JsonNode answer = daemons.chat(daemon, session(run), request(run));
      recoveryMillis.add((System.nanoTime() - restarted) / 1_000_000);
      String content = answer.path("choices").get(0).path("message").path("content").asText();
      JsonNode health = JSON.readTree(daemons.get(daemon, "/healthz").body());
      boolean fromConversation = content.equals("done " + run) && health.path("answers").path("recovered").asLong() == 1;
      String task = "task " + run;
      int typed = (int) sol.sends().stream().filter(s -> s.text().contains(task)).count();
      answered += fromConversation ? 1 : 0;
      submissions.add(typed);
      System.out.printf("recovery run %d: answered from the conversation %s, page submissions %d, restart+answer %d ms%n",
          run + 1, fromConversation, typed, recoveryMillis.get(run));
    }
    System.out.printf("recoveries after kill -9 right after Send: %d of %d answered from the conversation; page submissions"
        + " per run %s%n", answered, RUNS, submissions);
    assertThat(answered).isEqualTo(RUNS);
    assertThat(submissions).containsOnly(1);
    assertThat(sol.sends()).hasSize(RUNS);
  }
}

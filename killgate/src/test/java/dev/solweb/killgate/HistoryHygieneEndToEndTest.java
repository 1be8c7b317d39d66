package dev.solweb.killgate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.killgate.FakesolDaemons.CtlRun;
import dev.solweb.killgate.FakesolDaemons.Running;
import dev.solweb.killgate.fakesol.ChatHistory;
import dev.solweb.killgate.fakesol.FakeSol;
import dev.solweb.provider.scenario.Scenario;
import dev.solweb.provider.scenario.ScenarioPlayer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 14 end to end: the real solwebd with the Playwright seat on fakesol, whose sidebar also
 * holds one of the owner's own conversations. {@code solwebctl conversations} lists and deletes
 * only what solwebd created (fakesol's own record of deletes proves it), tombstones stop a deleted
 * conversation from being resumed, and {@code SOLWEBD_PROJECT} / {@code SOLWEBD_TEMPORARY} place
 * new conversations where they say, refusing before anything is typed when they cannot.
 */
class HistoryHygieneEndToEndTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ACCOUNT = "owner@example.invalid";
  private static final String SESSION_A = "v1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
  private static final String SESSION_B = "v1.BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB";
  private static final String SCENARIO = """
      {"account": "owner@example.invalid",
       "default": [
        {"blocks": ["{\\"tool\\": \\"final\\", \\"text\\": \\"first answer\\"}"]},
        {"blocks": ["{\\"tool\\": \\"final\\", \\"text\\": \\"second answer\\"}"]}
      ]}
      """;

  @TempDir Path home;
  private FakeSol sol;
  private FakesolDaemons daemons;
  private final HttpClient http = HttpClient.newHttpClient();

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

  @Test
  void deleteAllRemovesExactlyTheManagedConversationsAndADeletedSessionStartsAfresh() throws Exception {
    String personal = sol.history().personal("Holiday plans for June");
    Running daemon = daemons.start(ACCOUNT);
    daemons.chat(daemon, SESSION_A, request("create hello.txt"));
    daemons.chat(daemon, SESSION_B, request("create bye.txt"));
    Set<String> managed = sol.sends().stream().map(ScenarioPlayer.Send::conversationId).collect(Collectors.toSet());
    assertThat(managed).hasSize(2).doesNotContain(personal);

    CtlRun list = daemons.ctl("conversations", "list", "--json");
    assertThat(list.code()).as(list.err()).isZero();
    assertThat(list.out()).doesNotContain("create hello.txt", "You are terse.", "Holiday plans");
    assertThat(ids(list)).containsExactlyInAnyOrderElementsOf(managed);
    assertThat(statuses(list)).containsOnly("live");

    CtlRun delete = daemons.ctl("conversations", "delete", "--all", "--json");
    assertThat(delete.code()).as(delete.out() + delete.err()).isZero();
    assertThat(JSON.readTree(delete.out()).path("summary").path("deleted").asInt()).isEqualTo(2);
    assertThat(sol.history().deletes()).extracting(ChatHistory.Delete::conversationId)
        .containsExactlyInAnyOrderElementsOf(managed);
    assertThat(sol.history().deletes()).allMatch(ChatHistory.Delete::applied).noneMatch(ChatHistory.Delete::personal);
    assertThat(sidebarIds()).contains(personal).doesNotContainAnyElementsOf(managed);
    assertThat(statuses(daemons.ctl("conversations", "list", "--json"))).containsOnly("deleted");

    CtlRun repeat = daemons.ctl("conversations", "delete", "--all", "--json");
    assertThat(repeat.code()).as(repeat.out() + repeat.err()).isZero();
    assertThat(JSON.readTree(repeat.out()).path("results")).extracting(r -> r.path("result").asText())
        .containsOnly("already_deleted");
    assertThat(sol.history().deletes()).as("a repeat clicks nothing").hasSize(2);

    JsonNode next = daemons.chat(daemon, SESSION_A, followUp("create hello.txt", "first answer", "and now?"));
    assertThat(next.path("choices").get(0).path("message").path("content").asText()).isEqualTo("first answer");
    ScenarioPlayer.Send replay = sol.sends().get(2);
    assertThat(managed).as("typed into a fresh conversation").doesNotContain(replay.conversationId());
    assertThat(replay.text()).contains("You are terse.", "create hello.txt", "and now?");
    assertThat(sol.history().deletes()).hasSize(2);
  }

  @Test
  void aProjectHoldsEveryNewConversationAndAMissingProjectIsRefusedBeforeTyping() throws Exception {
    String slug = sol.history().project("Solweb work");
    Running daemon = daemons.start(ACCOUNT, Map.of("SOLWEBD_PROJECT", "Solweb work"));
    daemons.chat(daemon, SESSION_A, request("create hello.txt"));

    JsonNode listed = JSON.readTree(daemons.ctl("conversations", "list", "--json").out()).path("data").get(0);
    assertThat(listed.path("url").asText()).startsWith(sol.url() + "g/" + slug + "/c/");
    assertThat("g-p-" + listed.path("project").asText()).as("the registry keeps the slug after g-p-").isEqualTo(slug);
    daemons.close();

    Running elsewhere = daemons.start(ACCOUNT, Map.of("SOLWEBD_PROJECT", "No such project"));
    HttpResponse<String> refused = daemons.post(elsewhere, SESSION_B, request("create bye.txt"));
    assertThat(refused.statusCode()).isEqualTo(503);
    assertThat(refused.body()).contains("unavailable", "No such project");
    assertThat(sol.sends()).as("nothing typed for the refused turn").hasSize(1);
  }

  @Test
  void temporaryChatsStayOutOfTheHistoryAndAreReplayedAfterARestart() throws Exception {
    Map<String, String> temporary = Map.of("SOLWEBD_TEMPORARY", "1");
    Running daemon = daemons.start(ACCOUNT, temporary);
    daemons.chat(daemon, SESSION_A, request("create hello.txt"));
    String first = sol.sends().get(0).conversationId();
    assertThat(sidebarIds()).doesNotContain(first);
    JsonNode listed = JSON.readTree(daemons.ctl("conversations", "list", "--json").out()).path("data").get(0);
    assertThat(listed.path("temporary").asBoolean()).isTrue();
    daemons.close();

    Running restarted = daemons.start(ACCOUNT, temporary);
    assertThat(statuses(daemons.ctl("conversations", "list", "--json"))).containsOnly("expired");
    daemons.chat(restarted, SESSION_A, followUp("create hello.txt", "first answer", "and now?"));
    ScenarioPlayer.Send replay = sol.sends().get(1);
    assertThat(replay.conversationId()).isNotEqualTo(first);
    assertThat(replay.text()).contains("You are terse.", "create hello.txt", "and now?");
  }

  private List<String> sidebarIds() throws Exception {
    JsonNode history = JSON.readTree(http.send(HttpRequest.newBuilder(URI.create(sol.url() + "api/history")).GET().build(),
        HttpResponse.BodyHandlers.ofString()).body());
    List<String> ids = new ArrayList<>();
    history.path("conversations").forEach(c -> ids.add(c.path("id").asText()));
    return ids;
  }

  private static List<String> ids(CtlRun list) throws Exception {
    List<String> ids = new ArrayList<>();
    JSON.readTree(list.out()).path("data").forEach(c -> ids.add(c.path("id").asText()));
    return ids;
  }

  private static List<String> statuses(CtlRun list) throws Exception {
    assertThat(list.code()).as(list.err()).isZero();
    List<String> statuses = new ArrayList<>();
    JSON.readTree(list.out()).path("data").forEach(c -> statuses.add(c.path("status").asText()));
    return statuses;
  }

  private static ObjectNode request(String task) {
    ObjectNode body = JSON.createObjectNode().put("model", "sol-web-high");
    ArrayNode messages = body.putArray("messages");
    messages.addObject().put("role", "system").put("content", "You are terse.");
    messages.addObject().put("role", "user").put("content", task);
    return body;
  }

  private static ObjectNode followUp(String task, String answer, String next) {
    ObjectNode body = request(task);
    ArrayNode messages = (ArrayNode) body.get("messages");
    messages.addObject().put("role", "assistant").put("content", answer);
    messages.addObject().put("role", "user").put("content", next);
    return body;
  }
}

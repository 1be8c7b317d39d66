package dev.solweb.provider.ctl;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.pi.SolDaemon;
import dev.solweb.provider.platform.Json;
import dev.solweb.provider.platform.ProcessInfo;
import dev.solweb.provider.protocol.Reply;
import dev.solweb.provider.seat.scripted.ScriptedSeat;
import dev.solweb.provider.translate.ChatInput;
import dev.solweb.provider.translate.ChatTurn;
import dev.solweb.provider.translate.Conversation;
import dev.solweb.provider.translate.Conversations;
import dev.solweb.provider.translate.Message;
import dev.solweb.provider.translate.TurnOutcome;
import dev.solweb.provider.translate.TurnPlan;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * solwebctl conversations list|delete: through a real in-JVM daemon of this home (its state file
 * names this JVM), and directly on the registry file and a scripted seat when no daemon runs.
 */
class ConversationsCommandTest {
  private static final String MARKER = "PROMPT-MARKER-3a9d";

  @TempDir Path dir;
  private CtlFixture fx;
  private SolDaemon daemon;

  @BeforeEach
  void setUp() throws Exception {
    fx = new CtlFixture(dir);
  }

  @AfterEach
  void tearDown() {
    if (daemon != null) {
      daemon.close();
    }
    fx.close();
  }

  private Path registryFile() {
    return fx.home.resolve("registry.json");
  }

  /** Two answered conversations in the registry file, as a stopped daemon leaves them. */
  private void stoppedDaemonLeft(String... firstTexts) {
    Conversations conversations = Conversations.persistent(registryFile(), Clock.systemUTC());
    int n = 0;
    for (String text : firstTexts) {
      ChatTurn turn = ChatTurn.of(new ChatInput(Effort.HIGH, List.of(Message.user(text + " " + MARKER)), List.of(),
          Optional.empty()));
      TurnPlan plan = conversations.plan(turn);
      conversations.sending(plan);
      conversations.record(plan, new TurnOutcome.Replied(new Reply.Final("answer " + MARKER), ScriptedSeat.URL_PREFIX
          + "gone-" + n++, 1, 0, 10, List.of()));
    }
  }

  /** A daemon of this home: its state file names this JVM (pid and start ticks) and its port. */
  private void startDaemon() throws Exception {
    daemon = new SolDaemon(fx.home, "{\"default\": [{\"prose\": \"answer " + MARKER + "\"}]}", 1);
    long pid = ProcessHandle.current().pid();
    fx.writeState(pid, ProcessInfo.of(Path.of("/proc"), pid).orElseThrow().startTicks(), "gen-pi", daemon.port);
  }

  private void chat(String first) throws Exception {
    HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + daemon.port + "/v1/chat/completions"))
        .header("Authorization", "Bearer " + SolDaemon.TOKEN)
        .POST(HttpRequest.BodyPublishers.ofString("{\"model\": \"sol-web-high\", \"messages\": [{\"role\": \"user\","
            + " \"content\": \"" + first + " " + MARKER + "\"}]}")).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
  }

  private static JsonNode json(String text) throws Exception {
    return Json.MAPPER.readTree(text);
  }

  @Test
  void withoutADaemonListReadsTheRegistryFileAndChangesNothing() throws Exception {
    stoppedDaemonLeft("first", "second");
    String before = Files.readString(registryFile());

    CtlFixture.Run human = fx.run("conversations", "list");
    CtlFixture.Run machine = fx.run("conversations", "list", "--json");

    assertThat(human.exitCode()).as(human.err()).isZero();
    assertThat(human.out()).contains("ID", "SESSION", "gone-0", "gone-1", "live", "2 managed conversation(s)")
        .doesNotContain(MARKER);
    assertThat(machine.exitCode()).isZero();
    assertThat(machine.out()).doesNotContain(MARKER);
    JsonNode data = json(machine.out()).path("data");
    assertThat(data).hasSize(2);
    assertThat(data.get(0).path("status").asText()).isEqualTo("live");
    assertThat(data.get(0).path("effort").asText()).isEqualTo("high");
    assertThat(Files.readString(registryFile())).isEqualTo(before);
    assertThat(fx.run("conversations", "list").out()).isEqualTo(human.out());
  }

  @Test
  void aRunningDaemonIsAskedAndItsRegistryListed() throws Exception {
    stoppedDaemonLeft("on disk only");
    startDaemon();
    chat("through the daemon");

    CtlFixture.Run run = fx.run("conversations", "list", "--json");

    assertThat(run.exitCode()).as(run.err()).isZero();
    JsonNode data = json(run.out()).path("data");
    assertThat(data).as("the daemon's registry, not the file").hasSize(1);
    assertThat(data.get(0).path("url").asText()).startsWith(ScriptedSeat.URL_PREFIX).doesNotContain("gone-");
    assertThat(run.out()).doesNotContain(MARKER);
  }

  @Test
  void deleteAllThroughTheDaemonDeletesTheManagedOnesOnlyAndARepeatIsANoOp() throws Exception {
    startDaemon();
    String personal = daemon.player.openConversation("the owner's own chat");
    chat("first");
    chat("second");

    CtlFixture.Run run = fx.run("conversations", "delete", "--all");

    assertThat(run.exitCode()).as(run.err() + run.out()).isEqualTo(ExitCodes.OK);
    assertThat(run.out()).containsPattern("(?m)^deleted +\\S+ \\(session \\S+\\): deleted and verified gone$")
        .contains("2 conversation(s): 2 deleted, 0 not found, 0 already deleted, 0 would be deleted, 0 skipped, 0 failed");
    assertThat(daemon.player.deleted()).hasSize(2);
    assertThat(daemon.player.exists(personal)).isTrue();

    CtlFixture.Run again = fx.run("conversations", "delete", "--all", "--json");

    assertThat(again.exitCode()).isEqualTo(ExitCodes.OK);
    JsonNode report = json(again.out());
    assertThat(report.path("summary").path("already_deleted").asInt()).isEqualTo(2);
    assertThat(report.path("ok").asBoolean()).isTrue();
    assertThat(report.path("results").get(0).path("result").asText()).isEqualTo("already_deleted");
    assertThat(daemon.player.deleteRequests()).hasSize(2);

    CtlFixture.Run listed = fx.run("conversations", "list", "--json");
    assertThat(json(listed.out()).path("data")).allSatisfy(c -> assertThat(c.path("status").asText()).isEqualTo("deleted"));
  }

  @Test
  void aDeleteThatFailsIsExitSevenAndRecordsNothing() throws Exception {
    startDaemon();
    chat("first");
    daemon.player.failDeletes("the confirmation never appeared");

    CtlFixture.Run run = fx.run("conversations", "delete", "--all");

    assertThat(run.exitCode()).isEqualTo(ExitCodes.INCOMPLETE);
    assertThat(run.out()).contains("failed", "the confirmation never appeared", "no tombstone recorded", "1 failed");
    assertThat(json(fx.run("conversations", "list", "--json").out()).path("data").get(0).path("status").asText())
        .isEqualTo("live");
  }

  @Test
  void withoutADaemonDeleteRunsHereOnTheProfileAndRecordsTombstones() throws Exception {
    stoppedDaemonLeft("first", "second");
    String before = Files.readString(registryFile());

    CtlFixture.Run dry = fx.run("conversations", "delete", "--all", "--dry-run", "--seat", "scripted:echo");
    assertThat(dry.exitCode()).as(dry.err()).isZero();
    assertThat(dry.out()).contains("would_delete", "dry run: 2 conversation(s)", "2 would be deleted");
    assertThat(Files.readString(registryFile())).isEqualTo(before);

    CtlFixture.Run run = fx.run("conversations", "delete", "--all", "--seat", "scripted:echo");

    assertThat(run.exitCode()).as(run.err()).isZero();
    // The fresh scripted account holds neither: the page shows them gone, which counts as done.
    assertThat(run.out()).contains("not_found", "2 not found");
    assertThat(Conversations.snapshot(registryFile())).allSatisfy(c -> {
      assertThat(c.status()).isEqualTo(Conversation.Status.DELETED);
      assertThat(c.url()).startsWith(ScriptedSeat.URL_PREFIX + "gone-");
    });

    CtlFixture.Run again = fx.run("conversations", "delete", "--all", "--seat", "scripted:echo");
    assertThat(again.exitCode()).isZero();
    assertThat(again.out()).contains("2 already deleted");
  }

  @Test
  void anIdThatIsNotManagedIsRefusedAndBadSelectionsAreUsage() throws Exception {
    stoppedDaemonLeft("first");
    String before = Files.readString(registryFile());

    CtlFixture.Run unknown = fx.run("conversations", "delete", "gone-0", "my-own-chat", "--seat", "scripted:echo");
    assertThat(unknown.exitCode()).isEqualTo(ExitCodes.REFUSED);
    assertThat(unknown.err()).contains("not a managed conversation: my-own-chat", "nothing was deleted");
    assertThat(Files.readString(registryFile())).isEqualTo(before);

    assertThat(fx.run("conversations", "delete").exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(fx.run("conversations", "delete", "--all", "gone-0").exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(fx.run("conversations", "delete", "--idle-days", "-1").exitCode()).isEqualTo(ExitCodes.USAGE);
  }

  @Test
  void helpExplainsWhatIsDeletedAndTheExitCodes() {
    CtlFixture.Run delete = fx.run("conversations", "delete", "--help");
    CtlFixture.Run list = fx.run("conversations", "list", "--help");

    // Help paragraphs are wrapped by picocli at the terminal's width: read them as running text.
    assertThat(delete.out().replaceAll("\\s+", " ")).contains("Only registry entries are ever deleted", "tombstone", "--dry-run", "--idle-days",
        "Exit: 0 every named conversation is gone", "7 some were skipped");
    assertThat(list.out().replaceAll("\\s+", " ")).contains("No prompt text", "GET /v1/conversations", "expired", "deleted");
    assertThat(fx.run("--help").out()).contains("7   incomplete");
  }
}

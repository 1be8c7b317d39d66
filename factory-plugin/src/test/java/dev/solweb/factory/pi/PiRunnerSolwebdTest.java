package dev.solweb.factory.pi;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.factory.pi.PiResult.Outcome;
import dev.solweb.factory.receipt.AttemptReceipt;
import dev.solweb.factory.receipt.ReceiptWriter;
import dev.solweb.factory.session.ClientSession;
import dev.solweb.factory.testing.CountingProxy;
import dev.solweb.factory.testing.PiFixture;
import dev.solweb.factory.testing.Procs;
import dev.solweb.factory.testing.SolwebdProcess;
import dev.solweb.provider.failure.ProviderFailure.Kind;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.platform.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end: the real pinned Pi (RPC mode) -> the shipped models.json -> the real solwebd
 * (ScriptedSeat) through a request-counting loopback proxy; the key comes from the real
 * {@code bin/solwebctl token}. Each failure kind lands in the receipt exactly, after exactly one
 * request at solwebd.
 */
class PiRunnerSolwebdTest {

  static final Path REPO = Path.of("").toAbsolutePath().getParent();
  @TempDir Path tmp;
  SolwebdProcess solwebd;
  CountingProxy proxy;
  Path workspace;
  Path accountDir;
  final ClientSession session = ClientSession.derive("e2e-factory-session");

  @AfterEach
  void stop() throws Exception {
    if (proxy != null) {
      proxy.close();
    }
    if (solwebd != null) {
      solwebd.close();
    }
  }

  private void start(ArrayNode defaultReplies, Map<String, String> daemonEnv) throws Exception {
    ObjectNode scenario = Json.MAPPER.createObjectNode().put("account", "e2e@solweb.invalid");
    scenario.set("default", defaultReplies);
    start(scenario, daemonEnv);
  }

  private void start(ObjectNode scenario, Map<String, String> daemonEnv) throws Exception {
    Path file = Files.writeString(tmp.resolve("scenario.json"), scenario.toString());
    solwebd = new SolwebdProcess(tmp.resolve("solwebd-home"), file, daemonEnv);
    proxy = new CountingProxy(solwebd.port);
    Path managed = Files.createDirectories(tmp.resolve("home/.pi/agent"));
    ObjectNode models = (ObjectNode) Json.MAPPER.readTree(REPO.resolve("models.json").toFile());
    ((ObjectNode) models.path("providers").path("gpt")).put("baseUrl", "http://127.0.0.1:" + proxy.port() + "/v1");
    Files.writeString(managed.resolve("models.json"), models.toString());
    accountDir = AgentDirMaterializer.materialize(managed, tmp.resolve("accounts/e2e"));
    workspace = Files.createDirectories(tmp.resolve("workspace"));
  }

  private PiRunner runner(String task, Duration timeout) throws Exception {
    Map<String, String> env = new HashMap<>(System.getenv());
    env.put("HOME", tmp.resolve("home").toString());
    env.put("SOLWEBD_HOME", solwebd.home.toString());
    env.put("PATH", REPO.resolve("bin") + ":" + System.getenv("PATH"));
    return new PiRunner(new PiRequest(PiFixture.locatePi(), workspace, accountDir, session, "gpt/sol-web-high",
        PiRequest.DEFAULT_TOOLS, task, timeout, tmp.resolve("logs/pi.stderr.log"), env, Set.of(solwebd.token())));
  }

  private static ObjectNode blocks(String json) {
    ObjectNode reply = Json.MAPPER.createObjectNode();
    reply.putArray("blocks").add(json);
    return reply;
  }

  private static ObjectNode tool(String name, ObjectNode args) {
    ObjectNode call = Json.MAPPER.createObjectNode().put("tool", name);
    call.set("arguments", args);
    return blocks(call.toString());
  }

  private static ObjectNode fin(String text) {
    return blocks(Json.MAPPER.createObjectNode().put("tool", "final").put("text", text).toString());
  }

  private static ObjectNode fault(String fault) {
    return Json.MAPPER.createObjectNode().put("fault", fault);
  }

  private JsonNode receipt(PiResult result) throws Exception {
    AttemptReceipt r = AttemptReceipt.of(new AttemptReceipt.Context(1, Effort.HIGH, "workstation",
        "e2e@solweb.invalid", session.value(), tmp.resolve("logs/pi.stderr.log").toString()), result);
    Path file = new ReceiptWriter(tmp.resolve("receipts"), new dev.solweb.factory.receipt.Redactor(Set.of(solwebd.token())))
        .write(r);
    return Json.MAPPER.readTree(file.toFile());
  }

  @Test
  void toolCallThenFinalReportThroughTheRealDaemon() throws Exception {
    ArrayNode replies = Json.MAPPER.createArrayNode();
    replies.add(tool("write", Json.MAPPER.createObjectNode().put("path", "hello.txt").put("content", "hi\n")));
    replies.add(fin("Created hello.txt.\n{\"status\":\"done\",\"files_changed\":[\"hello.txt\"]}"));
    start(replies, Map.of());

    PiResult result = runner("create hello.txt containing hi", Duration.ofSeconds(90)).run(n -> { });

    assertThat(result.outcome()).as(String.valueOf(result.errorMessage())).isEqualTo(Outcome.COMPLETED);
    assertThat(Files.readString(workspace.resolve("hello.txt"))).isEqualTo("hi\n");
    assertThat(result.toolEvents()).singleElement().satisfies(e -> assertThat(e.tool()).isEqualTo("write"));
    assertThat(proxy.completions()).isEqualTo(2);
    JsonNode receipt = receipt(result);
    assertThat(receipt.path("outcome").asText()).isEqualTo("completed");
    assertThat(receipt.path("report").toString()).isEqualTo("{\"status\":\"done\",\"files_changed\":[\"hello.txt\"]}");
    assertThat(receipt.path("report_missing").asBoolean()).isFalse();
    assertThat(receipt.path("billing").asText()).isEqualTo("unavailable");
    assertThat(receipt.path("context_occupancy").path("estimated").asBoolean()).isTrue();
    assertThat(receipt.path("context_occupancy").path("input").asLong()).isPositive();
    assertThat(receipt.path("client_session").asText()).isEqualTo(session.value());
  }

  @Test
  void cappedIsRecordedExactlyWithResumeAtAfterOneRequest() throws Exception {
    ArrayNode replies = Json.MAPPER.createArrayNode();
    replies.add(fault("cap").put("resume_at", "2030-01-01T00:00:00Z"));
    start(replies, Map.of());

    PiResult result = runner("hello", Duration.ofSeconds(60)).run(n -> { });

    assertThat(result.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(result.providerFailure().kind()).isEqualTo(Kind.CAPPED);
    assertThat(result.providerFailure().resumeAt()).isEqualTo("2030-01-01T00:00:00Z");
    assertThat(result.providerFailure().retryAfterSeconds()).isPositive();
    assertThat(proxy.completions()).isEqualTo(1);
    JsonNode failure = receipt(result).path("provider_failure");
    assertThat(failure.path("kind").asText()).isEqualTo("capped");
    assertThat(failure.path("resume_at").asText()).isEqualTo("2030-01-01T00:00:00Z");
    assertThat(failure.path("retry_after_seconds").asLong()).isEqualTo(result.providerFailure().retryAfterSeconds());
    assertThat(failure.path("detail").asText()).isEqualTo(result.providerFailure().detail());
  }

  @Test
  void unavailableIsRecordedExactlyAfterOneRequest() throws Exception {
    ArrayNode replies = Json.MAPPER.createArrayNode();
    replies.add(fault("logged_out"));
    start(replies, Map.of());

    PiResult result = runner("hello", Duration.ofSeconds(60)).run(n -> { });

    assertThat(result.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(result.providerFailure().kind()).isEqualTo(Kind.UNAVAILABLE);
    assertThat(result.providerFailure().detail()).contains("logged out");
    assertThat(proxy.completions()).isEqualTo(1);
    assertThat(receipt(result).path("provider_failure").path("kind").asText()).isEqualTo("unavailable");
  }

  @Test
  void protocolIsRecordedExactlyAfterOneRequest() throws Exception {
    ArrayNode replies = Json.MAPPER.createArrayNode();
    for (int i = 0; i < 2; i++) {
      ObjectNode twoBlocks = Json.MAPPER.createObjectNode();
      twoBlocks.putArray("blocks").add("{\"tool\":\"final\",\"text\":\"a\"}").add("{\"tool\":\"final\",\"text\":\"b\"}");
      replies.add(twoBlocks);
    }
    start(replies, Map.of());

    PiResult result = runner("hello", Duration.ofSeconds(60)).run(n -> { });

    assertThat(result.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(result.providerFailure().kind()).isEqualTo(Kind.PROTOCOL);
    assertThat(proxy.completions()).isEqualTo(1);
    assertThat(receipt(result).path("provider_failure").path("kind").asText()).isEqualTo("protocol");
  }

  @Test
  void daemonTurnTimeoutIsRecordedExactlyAfterOneRequest() throws Exception {
    ArrayNode replies = Json.MAPPER.createArrayNode();
    replies.add(fault("hang"));
    start(replies, Map.of("SOLWEBD_TURN_TIMEOUT", "3", "SOLWEBD_KEEPALIVE_S", "1"));

    PiResult result = runner("hello", Duration.ofSeconds(60)).run(n -> { });

    assertThat(result.outcome()).as(String.valueOf(result.errorMessage())).isEqualTo(Outcome.FAILED);
    assertThat(result.providerFailure().kind()).isEqualTo(Kind.TIMEOUT);
    assertThat(proxy.completions()).isEqualTo(1);
    assertThat(receipt(result).path("provider_failure").path("kind").asText()).isEqualTo("timeout");
  }

  @Test
  void runnerTimeoutKillsPiWhileTheDaemonHangsAfterOneRequest() throws Exception {
    ArrayNode replies = Json.MAPPER.createArrayNode();
    replies.add(fault("hang"));
    start(replies, Map.of("SOLWEBD_KEEPALIVE_S", "1"));

    PiResult result = runner("hello", Duration.ofSeconds(5)).run(n -> { });

    assertThat(result.outcome()).isEqualTo(Outcome.TIMEOUT);
    assertThat(proxy.completions()).isEqualTo(1);
    JsonNode receipt = receipt(result);
    assertThat(receipt.path("outcome").asText()).isEqualTo("timeout");
    assertThat(receipt.path("provider_failure").path("kind").asText()).isEqualTo("timeout");
  }

  @Test
  void cancellationKillsTheBashToolsSleepWithinTwoSecondsAndIsRecordedAfterOneRequest() throws Exception {
    ArrayNode replies = Json.MAPPER.createArrayNode();
    replies.add(tool("bash", Json.MAPPER.createObjectNode().put("command", "sleep 1000 & echo $! > sleep.pid; wait")));
    replies.add(fin("never reached"));
    start(replies, Map.of());
    PiRunner runner = runner("sleep", Duration.ofSeconds(120));
    List<String> notes = new ArrayList<>();
    CompletableFuture<PiResult> running = CompletableFuture.supplyAsync(() -> {
      try {
        return runner.run(notes::add);
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    long sleepPid = Procs.awaitPid(workspace.resolve("sleep.pid"));
    ProcessHandle sleep = ProcessHandle.of(sleepPid).orElseThrow();

    runner.cancel();
    boolean dead = Procs.dies(sleep.pid());
    PiResult result = running.get(60, TimeUnit.SECONDS);

    assertThat(dead).as("sleep 1000 dies after cancel").isTrue();
    assertThat(result.outcome()).isEqualTo(Outcome.CANCELLED);
    assertThat(proxy.completions()).isEqualTo(1);
    JsonNode receipt = receipt(result);
    assertThat(receipt.path("outcome").asText()).isEqualTo("cancelled");
    assertThat(receipt.path("provider_failure").path("kind").asText()).isEqualTo("cancelled");
    assertThat(receipt.path("retry").path("verdict").asText()).isEqualTo("no_immediate_retry");
  }

  @Test
  void anOverflowIsCompactedByPiAndTheRunEndsOnlyAfterTheRetriedPrompt() throws Exception {
    ObjectNode scenario = Json.MAPPER.createObjectNode().put("account", "e2e@solweb.invalid");
    ArrayNode scripts = scenario.putArray("conversations");
    ObjectNode summary = scripts.addObject().put("match", "summarization assistant");
    summary.putArray("replies").add(fin("## Goal\nTASK-OVF: say done."));
    ObjectNode first = scripts.addObject().put("match", "TASK-OVF");
    first.putArray("replies").add(fault("too_long"));
    ObjectNode replay = scripts.addObject().put("match", "TASK-OVF");
    replay.putArray("replies").add(fin("done after compaction {\"status\":\"done\"}"));
    start(scenario, Map.of());

    PiResult result = runner("TASK-OVF: say done", Duration.ofSeconds(120)).run(n -> { });

    assertThat(result.outcome()).as(String.valueOf(result.errorMessage())).isEqualTo(Outcome.COMPLETED);
    assertThat(result.finalText()).isEqualTo("done after compaction {\"status\":\"done\"}");
    assertThat(result.compactions()).singleElement().satisfies(c -> {
      assertThat(c.reason()).isEqualTo("overflow");
      assertThat(c.willRetry()).isTrue();
      assertThat(c.aborted()).isFalse();
    });
    assertThat(proxy.completions()).as("overflowed prompt, summary, retried prompt").isEqualTo(3);
    JsonNode receipt = receipt(result);
    assertThat(receipt.path("compactions").get(0).path("reason").asText()).isEqualTo("overflow");
    assertThat(receipt.path("provider_failure").isNull()).isTrue();
  }

}

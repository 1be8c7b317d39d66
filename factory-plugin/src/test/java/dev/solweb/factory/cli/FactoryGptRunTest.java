package dev.solweb.factory.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.factory.testing.FakeSolwebctl;
import dev.solweb.factory.testing.SolwebdProcess;
import dev.solweb.provider.platform.Json;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code factory-gpt run} end to end: preflight (fake solwebctl ensure), the real Pi, the real
 * solwebd with a ScriptedSeat; progress lines while the turn waits, the final answer, the receipt,
 * and the exit code.
 */
class FactoryGptRunTest {

  static final Path REPO = Path.of("").toAbsolutePath().getParent();
  @TempDir Path tmp;
  SolwebdProcess solwebd;
  final Map<String, String> env = new HashMap<>();
  final StringWriter out = new StringWriter();
  final StringWriter err = new StringWriter();

  @AfterEach
  void stop() throws Exception {
    if (solwebd != null) {
      solwebd.close();
    }
  }

  private void start(ArrayNode replies) throws Exception {
    ObjectNode scenario = Json.MAPPER.createObjectNode().put("account", "run@solweb.invalid");
    scenario.set("default", replies);
    solwebd = new SolwebdProcess(tmp.resolve("solwebd-home"), Files.writeString(tmp.resolve("s.json"), scenario.toString()),
        Map.of());
    Files.createDirectories(solwebd.home.resolve("profile"));
    Path managed = Files.createDirectories(tmp.resolve("home/.pi/agent"));
    ObjectNode models = (ObjectNode) Json.MAPPER.readTree(REPO.resolve("models.json").toFile());
    ((ObjectNode) models.path("providers").path("gpt")).put("baseUrl", "http://127.0.0.1:" + solwebd.port + "/v1");
    Files.writeString(managed.resolve("models.json"), models.toString());
    FakeSolwebctl ctl = new FakeSolwebctl(tmp.resolve("ctl"), FakeSolwebctl.healthy(), 0);
    env.putAll(System.getenv());
    env.remove("PI_CODING_AGENT_DIR");
    env.put("HOME", tmp.resolve("home").toString());
    env.put("SOLWEBD_HOME", solwebd.home.toString());
    env.put("SOLWEBCTL_BIN", ctl.script.toString());
    env.putIfAbsent("SOLWEB_ROOT", REPO.toString());
    Files.createDirectories(tmp.resolve("ws"));
  }

  private int run(String... args) {
    CommandLine cl = FactoryGpt.commandLine(env);
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    return cl.execute(args);
  }

  private static ObjectNode reply(String block, long delayMs) {
    ObjectNode r = Json.MAPPER.createObjectNode().put("delay_ms", delayMs);
    r.putArray("blocks").add(block);
    return r;
  }

  @Test
  void runsOnePhaseShowsProgressPrintsTheAnswerAndWritesTheReceipt() throws Exception {
    ArrayNode replies = Json.MAPPER.createArrayNode();
    replies.add(reply("{\"tool\":\"write\",\"arguments\":{\"path\":\"hello.txt\",\"content\":\"hi\\n\"}}", 2500));
    replies.add(reply("{\"tool\":\"final\",\"text\":\"Created hello.txt.\\n{\\\"status\\\":\\\"done\\\"}\"}", 0));
    start(replies);

    int rc = run("run", "--effort", "high", "--workspace", tmp.resolve("ws").toString(), "--task", "create hello.txt",
        "--progress", "1", "--session-id", "run-test-1");

    assertThat(rc).as(out + "\n" + err).isZero();
    assertThat(Files.readString(tmp.resolve("ws/hello.txt"))).isEqualTo("hi\n");
    String printed = out.toString();
    assertThat(printed).containsPattern("\\[\\d+s\\] waiting: state=ready queue=\\d+ active=1 seats=1"
        + "[^;\\n]*; gpt: sent \\(elapsed \\d+ s\\)");
    assertThat(printed).contains("Created hello.txt.\n{\"status\":\"done\"}");
    Matcher m = Pattern.compile("receipt: (\\S+)").matcher(printed);
    assertThat(m.find()).isTrue();
    JsonNode receipt = Json.MAPPER.readTree(Path.of(m.group(1)).toFile());
    assertThat(receipt.path("outcome").asText()).isEqualTo("completed");
    assertThat(receipt.path("model").asText()).isEqualTo("gpt/sol-web-high");
    assertThat(receipt.path("account").asText()).isEqualTo("owner@example.invalid");
    assertThat(receipt.path("client_session").asText()).matches("^v1\\.[A-Za-z0-9_-]{43}$");
    assertThat(receipt.toString()).doesNotContain("run-test-1").doesNotContain(solwebd.token());
    assertThat(receipt.path("tool_events").get(0).path("tool").asText()).isEqualTo("write");
    assertThat(Files.readString(tmp.resolve("home/.overdeck/factory-gpt/agents/owner@example.invalid/settings.json")))
        .contains("\"maxRetries\" : 0");
  }

  @Test
  void aTypedFailureExitsNonZeroNamesTheCapAndStillWritesTheReceipt() throws Exception {
    ArrayNode replies = Json.MAPPER.createArrayNode();
    replies.add(Json.MAPPER.createObjectNode().put("fault", "cap").put("resume_at", "2031-02-03T04:05:06Z"));
    start(replies);

    int rc = run("run", "--effort", "pro", "--workspace", tmp.resolve("ws").toString(), "--task", "hi");

    assertThat(rc).isEqualTo(FactoryGptExit.ATTEMPT_FAILED);
    assertThat(err.toString()).contains("factory-gpt run: failed: capped: ").contains("resume_at=2031-02-03T04:05:06Z")
        .contains("retry: no_immediate_retry");
    assertThat(out.toString()).contains("receipt: ");
  }

  @Test
  void sigtermDuringAPhaseKillsPiAndWritesACancelledReceipt() throws Exception {
    ArrayNode replies = Json.MAPPER.createArrayNode();
    replies.add(reply("{\"tool\":\"bash\",\"arguments\":{\"command\":\"sleep 1000 & echo $! > sleep.pid; wait\"}}", 0));
    start(replies);
    java.util.List<String> cmd = java.util.List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), FactoryGpt.class.getName(),
        "run", "--effort", "high", "--workspace", tmp.resolve("ws").toString(), "--task", "sleep");
    ProcessBuilder pb = new ProcessBuilder(cmd)
        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
        .redirectOutput(tmp.resolve("run.out").toFile()).redirectError(tmp.resolve("run.err").toFile());
    pb.environment().clear();
    pb.environment().putAll(env);
    Process jvm = pb.start();
    long sleepPid = dev.solweb.factory.testing.Procs.awaitPid(tmp.resolve("ws/sleep.pid"));

    new ProcessBuilder("kill", "-s", "TERM", Long.toString(jvm.pid())).start().waitFor();

    assertThat(jvm.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    boolean dead = dev.solweb.factory.testing.Procs.dies(sleepPid);
    assertThat(dead).as("tool child killed").isTrue();
    Path receipts = tmp.resolve("home/.overdeck/factory-gpt/receipts");
    JsonNode receipt;
    try (var files = Files.list(receipts)) {
      receipt = Json.MAPPER.readTree(files.filter(p -> p.toString().endsWith(".json")).findFirst().orElseThrow().toFile());
    }
    assertThat(receipt.path("outcome").asText()).isEqualTo("cancelled");
    assertThat(receipt.path("provider_failure").path("kind").asText()).isEqualTo("cancelled");
  }

  @Test
  void anEmptySessionIdIsRefusedBeforeAnythingRuns() throws Exception {
    ArrayNode replies = Json.MAPPER.createArrayNode();
    start(replies);
    int rc = run("run", "--workspace", tmp.resolve("ws").toString(), "--task", "hi", "--session-id", "");
    assertThat(rc).isEqualTo(FactoryGptExit.USAGE);
    assertThat(err.toString()).contains("empty");
    assertThat(tmp.resolve("home/.overdeck/factory-gpt")).doesNotExist();
  }

  private JsonNode receipt() throws Exception {
    Matcher m = Pattern.compile("receipt: (\\S+)").matcher(out.toString());
    assertThat(m.find()).as(out.toString()).isTrue();
    return Json.MAPPER.readTree(Path.of(m.group(1)).toFile());
  }

  private JsonNode listed() throws Exception {
    java.net.http.HttpResponse<String> response = java.net.http.HttpClient.newHttpClient().send(
        java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + solwebd.port + "/v1/conversations"))
            .header("Authorization", "Bearer " + solwebd.token()).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
    return Json.MAPPER.readTree(response.body()).path("data");
  }

  @Test
  void byDefaultTheConversationIsKeptAndTheReceiptNamesIt() throws Exception {
    ArrayNode replies = Json.MAPPER.createArrayNode();
    replies.add(reply("{\"tool\":\"final\",\"text\":\"done\"}", 0));
    start(replies);

    int rc = run("run", "--effort", "high", "--workspace", tmp.resolve("ws").toString(), "--task", "say done",
        "--session-id", "run-test-kept");

    assertThat(rc).as(out + "\n" + err).isZero();
    JsonNode receipt = receipt();
    JsonNode live = listed();
    assertThat(live).hasSize(1);
    assertThat(live.get(0).path("status").asText()).isEqualTo("live");
    assertThat(receipt.path("conversations")).hasSize(1);
    assertThat(receipt.path("conversations").get(0).asText()).isEqualTo(live.get(0).path("url").asText());
    assertThat(receipt.path("cleanup").isNull()).isTrue();
    assertThat(out.toString()).contains("conversations kept: " + live.get(0).path("url").asText());
  }

  @Test
  void withCleanupTheAttemptsConversationIsDeletedAndTheReceiptRecordsIt() throws Exception {
    ArrayNode replies = Json.MAPPER.createArrayNode();
    replies.add(reply("{\"tool\":\"final\",\"text\":\"done\"}", 0));
    start(replies);

    int rc = run("run", "--effort", "high", "--workspace", tmp.resolve("ws").toString(), "--task", "say done",
        "--session-id", "run-test-cleanup", "--cleanup");

    assertThat(rc).as(out + "\n" + err).isZero();
    assertThat(out.toString()).contains("cleanup: 1 deleted, 0 not found, 0 already deleted, 0 skipped, 0 failed");
    JsonNode receipt = receipt();
    assertThat(receipt.path("cleanup").path("ok").asBoolean()).isTrue();
    assertThat(receipt.path("cleanup").path("results").get(0).path("result").asText()).isEqualTo("deleted");
    JsonNode tombstones = listed();
    assertThat(tombstones).hasSize(1);
    assertThat(tombstones.get(0).path("status").asText()).isEqualTo("deleted");
    assertThat(receipt.path("conversations").get(0).asText()).isEqualTo(tombstones.get(0).path("url").asText());
    assertThat(receipt.toString()).doesNotContain(solwebd.token());
  }
}

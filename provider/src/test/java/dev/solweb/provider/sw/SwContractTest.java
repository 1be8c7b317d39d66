package dev.solweb.provider.sw;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import dev.solweb.provider.platform.ProcessInfo;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The wrapper contract with solwebd stubbed (WireMock /healthz behind a live stand-in process),
 * ccr stubbed (WireMock /health and /) and a fake claude: every exit code, argument validation,
 * the log file and the single stdout line. sw runs in this JVM through {@link Sw#execute}.
 */
class SwContractTest {

  static final String TOKEN = "swTestToken_0123456789abcdefghijklmnopqrstuvw";
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;
  private SwFixture fx;
  private WireMockServer solwebd;
  private WireMockServer ccr;
  private Process daemon;

  @BeforeEach
  void setUp() throws Exception {
    fx = new SwFixture(dir);
    fx.enroll();
    fx.writeToken(TOKEN);
    solwebd = new WireMockServer(options().dynamicPort().bindAddress("127.0.0.1"));
    solwebd.start();
    ccr = new WireMockServer(options().dynamicPort().bindAddress("127.0.0.1"));
    ccr.start();
    ccr.stubFor(get(urlEqualTo("/health")).willReturn(aResponse().withStatus(200)
        .withBody("{\"status\":\"ok\",\"timestamp\":\"2026-11-30T00:00:00Z\"}")));
    ccr.stubFor(get(urlEqualTo("/")).willReturn(aResponse().withStatus(200)
        .withBody("{\"message\":\"LLMs API\",\"version\":\"2.0.0\"}")));
    daemon = fx.fakeDaemonProcess();
    fx.writeState(daemon.pid(), ProcessInfo.startTicksOf(daemon.pid()), "gen-1", solwebd.port());
    serveHealth(ready());
    // A config with another provider and ccr's port; install-ccr adds solweb beside it.
    Files.createDirectories(fx.ccrConfig().getParent());
    Files.writeString(fx.ccrConfig(), "{\"PORT\": " + ccr.port() + ", \"APIKEY\": \"ccr-key-1\", \"Providers\": ["
        + "{\"name\": \"other\", \"api_base_url\": \"https://example.invalid/v1\", \"api_key\": \"k\", \"models\": [\"m\"]}]}");
    SwFixture.Run install = fx.sw("install-ccr");
    assertThat(install.exitCode()).as(install.err()).isZero();
    fx.env.put("SW_CLAUDE", fx.fakeClaude().toString());
    fx.env.put("SW_LOG_DIR", dir.resolve("logs").toString());
  }

  @AfterEach
  void tearDown() throws Exception {
    solwebd.stop();
    ccr.stop();
    fx.close();
  }

  private ObjectNode ready() {
    ObjectNode node = JSON.createObjectNode();
    node.put("ok", true).put("state", "ready").put("conversations", 0).put("queue", 0).put("active", 0)
        .put("seats", 1).put("pid", daemon.pid()).put("version", "test").put("instance_generation", "gen-1")
        .put("account", SwFixture.ACCOUNT).put("authenticated", true).put("detail", "ready");
    node.putArray("models").add("sol-web-instant").add("sol-web-medium").add("sol-web-high")
        .add("sol-web-xhigh").add("sol-web-pro");
    return node;
  }

  private ObjectNode capped(String resumeAt) {
    return ready().put("ok", false).put("state", "capped").put("cap_resume_at", resumeAt)
        .put("detail", "usage cap until " + resumeAt);
  }

  private void serveHealth(ObjectNode health) {
    solwebd.resetAll();
    solwebd.stubFor(get(urlEqualTo("/healthz")).withHeader("Authorization", equalTo("Bearer " + TOKEN))
        .willReturn(aResponse().withStatus(200).withHeader("Content-Type", "application/json").withBody(health.toString())));
  }

  /** The first /healthz answers {@code first}, every later one {@code then}. */
  private void serveHealthThen(ObjectNode first, ObjectNode then) {
    solwebd.resetAll();
    solwebd.stubFor(get(urlEqualTo("/healthz")).inScenario("run").whenScenarioStateIs(Scenario.STARTED)
        .withHeader("Authorization", equalTo("Bearer " + TOKEN)).willSetStateTo("after")
        .willReturn(aResponse().withStatus(200).withBody(first.toString())));
    solwebd.stubFor(get(urlEqualTo("/healthz")).inScenario("run").whenScenarioStateIs("after")
        .withHeader("Authorization", equalTo("Bearer " + TOKEN))
        .willReturn(aResponse().withStatus(200).withBody(then.toString())));
  }

  private SwFixture.Run run(String... extra) {
    List<String> args = new java.util.ArrayList<>(List.of("--workspace", fx.workspace.toString(),
        "--trust", "create hello.txt containing hi", "--task-slug", "demo-1"));
    args.addAll(List.of(extra));
    return fx.sw(args.toArray(String[]::new));
  }

  /** Exactly one line on stdout, a JSON object with the status and exit code. */
  private static JsonNode onlyLine(SwFixture.Run run) throws Exception {
    assertThat(run.out().lines().toList()).as("stdout: " + run.out()).hasSize(1);
    JsonNode status = run.status();
    assertThat(status.get("exit_code").asInt()).isEqualTo(run.exitCode());
    assertThat(run.out()).doesNotContain(TOKEN);
    return status;
  }

  /** Exited: no such process, or a zombie (this machine's init does not reap orphans). */
  private static boolean gone(long pid) {
    return !ProcessInfo.isRunning(pid);
  }

  @Test
  void completedRunExitsZeroWithOneStatusLineAndTheRawStreamInTheLog() throws Exception {
    SwFixture.Run run = run("--model", "sol-web-high");
    assertThat(run.exitCode()).as(run.err()).isEqualTo(SwExit.COMPLETED);
    JsonNode status = onlyLine(run);
    assertThat(status.get("status").asText()).isEqualTo("completed");
    assertThat(status.get("task_slug").asText()).isEqualTo("demo-1");
    assertThat(status.get("model").asText()).isEqualTo("sol-web-high");
    assertThat(status.get("num_turns").asInt()).isEqualTo(2);
    assertThat(status.get("result").asText()).isEqualTo("Created hello.txt.");
    assertThat(status.get("session_id").asText()).isEqualTo("11111111-2222-3333-4444-555555555555");
    Path log = Path.of(status.get("log").asText());
    assertThat(log.getParent()).isEqualTo(dir.resolve("logs"));
    assertThat(log.getFileName().toString()).startsWith("demo-1-").endsWith(".log");
    assertThat(Files.getPosixFilePermissions(log)).containsExactlyInAnyOrder(
        java.nio.file.attribute.PosixFilePermission.OWNER_READ, java.nio.file.attribute.PosixFilePermission.OWNER_WRITE);
    String logText = Files.readString(log);
    assertThat(logText).contains("{\"type\":\"system\",\"subtype\":\"init\"", "\"type\":\"result\"",
        "stderr: a warning on stderr");
    assertThat(logText).doesNotContain(TOKEN);
  }

  @Test
  void whileClaudeRunsStderrShowsThisRunsTurnFromSolwebdAndStdoutStaysOneLine() throws Exception {
    ObjectNode health = ready().put("active", 2);
    // A turn with a client tag is some other client's (Pi, Factory): ccr sends no header.
    health.putArray("turns").add(JSON.readTree("{\"session\": \"1111111111111111\", \"client\": \"a1b2c3d4e5f6\","
            + " \"effort\": \"high\", \"state\": \"writing\", \"elapsed_s\": 9.0, \"thinking_s\": 0.0, \"chars_received\": 77}"))
        .add(JSON.readTree("{\"session\": \"2222222222222222\", \"client\": null, \"effort\": \"high\","
            + " \"state\": \"thinking\", \"elapsed_s\": 50.3, \"thinking_s\": 42.9, \"chars_received\": 0}"));
    serveHealth(health);
    fx.env.put("FAKE_CLAUDE_MODE", "await_go");
    fx.env.put("SW_PROGRESS_S", "1");
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CompletableFuture<Integer> sw = CompletableFuture.supplyAsync(() -> fx.sw(out, err, "--workspace", fx.workspace.toString(),
        "--trust", "create hello.txt containing hi", "--task-slug", "demo-1", "--model", "sol-web-high"));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (!err.toString().contains("gpt: thinking") && System.nanoTime() < deadline && !sw.isDone()) {
      java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20)); // a condition poll, no ordering
    }
    Files.writeString(fx.fakeOut.resolve("go"), "");
    int code = sw.get(30, TimeUnit.SECONDS);

    assertThat(code).as(err.toString()).isEqualTo(SwExit.COMPLETED);
    assertThat(err.toString()).containsPattern("sw: \\[\\d+s\\] gpt: thinking 42 s \\(elapsed 50 s\\)")
        .doesNotContain("77 chars").doesNotContain(TOKEN);
    assertThat(out.toString().lines().toList()).hasSize(1);
    assertThat(JSON.readTree(out.toString()).get("status").asText()).isEqualTo("completed");
  }

  @Test
  void claudeGetsThePromptAsOneArgvElementRoutedAtCcrWithoutTheToken() throws Exception {
    String prompt = "-rf $(touch pwned) `touch pwned2`; echo \"quoted\" 'single' \n second line";
    SwFixture.Run run = fx.sw("--workspace", fx.workspace.toString(), "--trust", prompt, "--task-slug", "t",
        "--model", "sol-web-xhigh", "--session-id", "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee", "--via-ccr");
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(fx.fakeArgv()).containsExactly("-p", "--output-format", "stream-json", "--verbose",
        "--dangerously-skip-permissions", "--model", "solweb,sol-web-xhigh",
        "--session-id", "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee", "--", prompt);
    assertThat(fx.workspace.resolve("pwned")).doesNotExist();
    assertThat(fx.dir.resolve("pwned")).doesNotExist();
    assertThat(Files.readString(fx.fakeOut.resolve("cwd")).strip()).isEqualTo(fx.workspace.toString());
    assertThat(Files.readString(fx.fakeOut.resolve("stdin")).strip()).isEqualTo("/dev/null");

    Map<String, String> env = fx.fakeEnv();
    assertThat(env).containsEntry("ANTHROPIC_BASE_URL", "http://127.0.0.1:" + ccr.port())
        .containsEntry("ANTHROPIC_API_KEY", "ccr-key-1")
        .containsEntry("DISABLE_TELEMETRY", "1").containsEntry("DISABLE_AUTOUPDATER", "1")
        .containsEntry("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
        .containsEntry("CLAUDE_CODE_MAX_RETRIES", "2");
    if (fx.ctlEnv().euid() == 0) {
      assertThat(env).containsEntry("IS_SANDBOX", "1");
    } else {
      assertThat(env).doesNotContainKey("IS_SANDBOX");
    }
    assertThat(env.values()).noneMatch(value -> value.contains(TOKEN));
    assertThat(String.join(" ", fx.fakeArgv())).doesNotContain(TOKEN);
    // Its own process group (timeout's), not this JVM's: a timeout kill takes the whole group.
    long jvmGroup = Long.parseLong(new String(new ProcessBuilder("ps", "-o", "pgid=", "-p",
        Long.toString(ProcessHandle.current().pid())).start().getInputStream().readAllBytes()).strip());
    assertThat(Long.parseLong(Files.readString(fx.fakeOut.resolve("pgid")).strip())).isNotEqualTo(jvmGroup);
  }

  @Test
  void byDefaultClaudeTalksToSolwebdItselfWithTheKeyOnlyFromTheApiKeyHelper() throws Exception {
    ccr.stop(); // a direct run needs no ccr
    String prompt = "-rf $(touch pwned); echo 'single'";
    SwFixture.Run run = fx.sw("--workspace", fx.workspace.toString(), "--trust", prompt, "--task-slug", "t",
        "--model", "sol-web-xhigh");
    assertThat(run.exitCode()).as(run.err()).isZero();
    String helper = "'" + SwFixture.ROOT.resolve("bin/solwebctl") + "' token";
    assertThat(fx.fakeArgv()).containsExactly("--settings", JSON.createObjectNode().put("apiKeyHelper", helper).toString(),
        "-p", "--output-format", "stream-json", "--verbose", "--dangerously-skip-permissions", "--model", "sol-web-xhigh",
        "--", prompt);
    assertThat(fx.workspace.resolve("pwned")).doesNotExist();
    Map<String, String> env = fx.fakeEnv();
    assertThat(env).containsEntry("ANTHROPIC_BASE_URL", "http://127.0.0.1:" + solwebd.port())
        .doesNotContainKeys("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN")
        .containsEntry("SOLWEBD_HOME", fx.home.toString())
        .containsEntry("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");
    assertThat(env.values()).noneMatch(value -> value.contains(TOKEN));
    assertThat(String.join(" ", fx.fakeArgv())).doesNotContain(TOKEN);
    // The helper Claude Code runs prints the daemon's token from the environment it was given.
    ProcessBuilder shell = new ProcessBuilder("bash", "-c", helper).redirectErrorStream(true);
    shell.environment().clear();
    shell.environment().putAll(env);
    Process printed = shell.start();
    printed.getOutputStream().close();
    assertThat(new String(printed.getInputStream().readAllBytes()).strip()).isEqualTo(TOKEN);
  }

  @Test
  void inheritedAnthropicSettingsNeverReachClaude() throws Exception {
    fx.env.put("ANTHROPIC_BASE_URL", "https://api.anthropic.com");
    fx.env.put("ANTHROPIC_AUTH_TOKEN", "sk-real-key");
    fx.env.put("ANTHROPIC_API_KEY", "sk-real-key");
    assertThat(run().exitCode()).isZero();
    assertThat(fx.fakeEnv()).containsEntry("ANTHROPIC_BASE_URL", "http://127.0.0.1:" + solwebd.port())
        .doesNotContainKeys("ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_API_KEY");
    assertThat(run("--via-ccr").exitCode()).isZero();
    assertThat(fx.fakeEnv()).containsEntry("ANTHROPIC_BASE_URL", "http://127.0.0.1:" + ccr.port())
        .containsEntry("ANTHROPIC_API_KEY", "ccr-key-1").doesNotContainKey("ANTHROPIC_AUTH_TOKEN");
  }

  @Test
  void claudeErrorWithHealthyProvidersExitsOne() throws Exception {
    fx.env.put("FAKE_CLAUDE_MODE", "error");
    SwFixture.Run run = run();
    assertThat(run.exitCode()).as(run.err()).isEqualTo(SwExit.FAILED);
    JsonNode status = onlyLine(run);
    assertThat(status.get("status").asText()).isEqualTo("failed");
    assertThat(status.get("detail").asText()).contains("exited with code 1", "API status 502");
  }

  @Test
  void timeoutStopsClaudeAndExits124() throws Exception {
    fx.env.put("FAKE_CLAUDE_MODE", "sleep");
    SwFixture.Run run = run("--timeout", "1");
    assertThat(run.exitCode()).as(run.err()).isEqualTo(SwExit.TIMEOUT);
    JsonNode status = onlyLine(run);
    assertThat(status.get("status").asText()).isEqualTo("timeout");
    assertThat(gone(Long.parseLong(Files.readString(fx.fakeOut.resolve("pid")).strip()))).isTrue();
  }

  @Test
  void claudeIgnoringTermIsKilledFiveSecondsLaterAndExits124() throws Exception {
    fx.env.put("FAKE_CLAUDE_MODE", "stubborn");
    Instant start = Instant.now();
    SwFixture.Run run = run("--timeout", "1");
    Duration took = Duration.between(start, Instant.now());
    assertThat(run.exitCode()).as(run.err()).isEqualTo(SwExit.TIMEOUT);
    // The timeout (1 s) and the grace after TERM (5 s) both passed; how much later is no promise.
    assertThat(took).isGreaterThanOrEqualTo(Duration.ofSeconds(6));
    assertThat(gone(Long.parseLong(Files.readString(fx.fakeOut.resolve("pid")).strip()))).isTrue();
    onlyLine(run);
  }

  @Test
  void capAtEnsureExits75WithResumeAtAndDispatchesNothing() throws Exception {
    String resumeAt = Instant.now().plusSeconds(1800).toString();
    serveHealth(capped(resumeAt));
    SwFixture.Run run = run();
    assertThat(run.exitCode()).as(run.err()).isEqualTo(SwExit.CAPPED);
    JsonNode status = onlyLine(run);
    assertThat(status.get("status").asText()).isEqualTo("capped");
    assertThat(status.get("resume_at").asText()).isEqualTo(resumeAt);
    assertThat(status.get("retry_after_seconds").asLong()).isBetween(1700L, 1800L);
    assertThat(fx.claudeRan()).isFalse();
  }

  @Test
  void capDuringTheRunIsReadFromSolwebdHealthAndExits75() throws Exception {
    String resumeAt = Instant.now().plusSeconds(600).toString();
    serveHealthThen(ready(), capped(resumeAt));
    fx.env.put("FAKE_CLAUDE_MODE", "error");
    SwFixture.Run run = run();
    assertThat(run.exitCode()).as(run.err()).isEqualTo(SwExit.CAPPED);
    JsonNode status = onlyLine(run);
    assertThat(status.get("resume_at").asText()).isEqualTo(resumeAt);
    assertThat(status.has("result")).isFalse();
    assertThat(fx.claudeRan()).isTrue();
  }

  @Test
  void loggedOutAtEnsureExits3AndDispatchesNothing() throws Exception {
    serveHealth(ready().put("ok", false).put("state", "logged_out").put("authenticated", false)
        .put("detail", "ChatGPT is logged out in the seat's profile"));
    SwFixture.Run run = run();
    assertThat(run.exitCode()).as(run.err()).isEqualTo(SwExit.UNAVAILABLE);
    assertThat(onlyLine(run).get("detail").asText()).contains("logged out");
    assertThat(fx.claudeRan()).isFalse();
  }

  @Test
  void solwebdDownAndUnstartableExits3AndDispatchesNothing() throws Exception {
    Files.delete(fx.home.resolve("solwebd.state.json"));
    fx.env.put("SOLWEBD_BIN", fx.script("broken-solwebd", "echo cannot start >&2; exit 3\n").toString());
    fx.env.put("SOLWEBCTL_START_TIMEOUT_S", "10");
    SwFixture.Run run = run();
    assertThat(run.exitCode()).as(run.err()).isEqualTo(SwExit.UNAVAILABLE);
    assertThat(onlyLine(run).get("detail").asText()).contains("solwebd exited with code 3");
    assertThat(fx.claudeRan()).isFalse();
  }

  @Test
  void solwebdLostDuringTheRunExits3() throws Exception {
    serveHealthThen(ready(), ready().put("ok", false).put("state", "degraded").put("detail", "seat 0: browser connection lost twice"));
    fx.env.put("FAKE_CLAUDE_MODE", "error");
    SwFixture.Run run = run();
    assertThat(run.exitCode()).as(run.err()).isEqualTo(SwExit.UNAVAILABLE);
    assertThat(onlyLine(run).get("detail").asText()).contains("browser connection lost twice");
  }

  @Test
  void portHeldBySomethingElseIsAClearErrorExit3() throws Exception {
    ccr.resetAll(); // answers 404 to everything: not ccr
    SwFixture.Run run = run("--via-ccr");
    assertThat(run.exitCode()).as(run.err()).isEqualTo(SwExit.UNAVAILABLE);
    assertThat(onlyLine(run).get("detail").asText())
        .contains("port " + ccr.port(), "in use by something that is not claude-code-router");
    assertThat(fx.claudeRan()).isFalse();
  }

  @Test
  void ccrDownAndUnstartableExits3() throws Exception {
    int port = ccr.port();
    ccr.stop();
    fx.env.put("SW_CCR", fx.script("broken-ccr", "echo 'config error' ; exit 1\n").toString());
    fx.env.put("SW_CCR_START_TIMEOUT_S", "10");
    SwFixture.Run run = run("--via-ccr");
    assertThat(run.exitCode()).as(run.err()).isEqualTo(SwExit.UNAVAILABLE);
    assertThat(onlyLine(run).get("detail").asText()).contains("claude-code-router exited with code 1",
        "port " + port);
    assertThat(fx.claudeRan()).isFalse();
  }

  @Test
  void staleRegistrationIsRefusedWithTheFix() throws Exception {
    fx.writeToken("aNewerToken_0123456789abcdefghijklmnopqrstuv");
    solwebd.resetAll();
    solwebd.stubFor(get(urlEqualTo("/healthz")).willReturn(aResponse().withStatus(200).withBody(ready().toString())));
    SwFixture.Run run = run("--via-ccr");
    assertThat(run.exitCode()).as(run.err()).isEqualTo(SwExit.UNAVAILABLE);
    assertThat(onlyLine(run).get("detail").asText()).contains("api_key is not solwebd's current token", "sw install-ccr")
        .doesNotContain("aNewerToken");
    assertThat(fx.claudeRan()).isFalse();
  }

  @Test
  void missingOrBadArgumentsExit2WithoutTouchingAnything() throws Exception {
    String ws = fx.workspace.toString();
    List<String[]> bad = List.of(
        new String[] {"--trust", "x", "--task-slug", "s"},
        new String[] {"--workspace", ws, "--task-slug", "s"},
        new String[] {"--workspace", ws, "--trust", "  ", "--task-slug", "s"},
        new String[] {"--workspace", ws, "--trust", "x"},
        new String[] {"--workspace", ws, "--trust", "x", "--task-slug", "../escape"},
        new String[] {"--workspace", dir.resolve("missing").toString(), "--trust", "x", "--task-slug", "s"},
        new String[] {"--workspace", ws, "--trust", "x", "--task-slug", "s", "--model", "gpt-4o"},
        new String[] {"--workspace", ws, "--trust", "x", "--task-slug", "s", "--model", "sol-web-max"},
        new String[] {"--workspace", ws, "--trust", "x", "--task-slug", "s", "--timeout", "0"},
        new String[] {"--workspace", ws, "--trust", "x", "--task-slug", "s", "--timeout", "soon"},
        new String[] {"--workspace", ws, "--trust", "x", "--task-slug", "s", "--session-id", "not-a-uuid"},
        new String[] {"--workspace", ws, "--trust", "x", "--task-slug", "s", "--frobnicate"});
    for (String[] args : bad) {
      SwFixture.Run run = fx.sw(args);
      assertThat(run.exitCode()).as(String.join(" ", args) + "\n" + run.err()).isEqualTo(SwExit.USAGE);
      JsonNode status = onlyLine(run);
      assertThat(status.get("status").asText()).isEqualTo("usage");
      assertThat(run.err()).startsWith("sw: ");
    }
    assertThat(fx.claudeRan()).isFalse();
    solwebd.verify(0, com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor(urlEqualTo("/healthz")));
  }

  @Test
  void listModelsPrintsTheFiveIdsWithoutAnyDaemon() {
    solwebd.stop();
    SwFixture.Run run = fx.sw("--list-models");
    assertThat(run.exitCode()).isZero();
    assertThat(run.out().lines().toList()).containsExactly(
        "sol-web-instant", "sol-web-medium", "sol-web-high", "sol-web-xhigh", "sol-web-pro");
  }

  @Test
  void healthChecksEverythingButSendsNoTurn() throws Exception {
    SwFixture.Run viaCcr = fx.sw("--health", "--via-ccr");
    assertThat(viaCcr.exitCode()).as(viaCcr.err()).isZero();
    assertThat(onlyLine(viaCcr).get("detail").asText()).contains("ready", "ccr registered and up");
    ccr.stop();
    SwFixture.Run ok = fx.sw("--health");
    assertThat(ok.exitCode()).as(ok.err()).isZero();
    assertThat(onlyLine(ok).get("detail").asText()).contains("ready", "straight to its Messages API");
    assertThat(fx.claudeRan()).isFalse();

    serveHealth(capped(Instant.now().plusSeconds(60).toString()));
    SwFixture.Run capped = fx.sw("--health");
    assertThat(capped.exitCode()).isEqualTo(SwExit.CAPPED);
    assertThat(onlyLine(capped).has("resume_at")).isTrue();
  }
}

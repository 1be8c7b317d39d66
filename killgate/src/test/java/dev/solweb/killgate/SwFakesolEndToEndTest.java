package dev.solweb.killgate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.solweb.killgate.fakesol.FakeSol;
import dev.solweb.provider.ctl.CtlEnv;
import dev.solweb.provider.ctl.Solwebctl;
import dev.solweb.provider.daemon.StateFile;
import dev.solweb.provider.scenario.Scenario;
import dev.solweb.provider.scenario.ScenarioPlayer;
import dev.solweb.provider.seat.playwright.browser.OrphanReaper;
import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * sw end to end on fakesol: bin/sw with the pinned Claude Code, straight at solwebd's Messages
 * API (sw's default) and through the pinned ccr ({@code --via-ccr}, tools/ccr), and solwebd on
 * the real PlaywrightSeat (headless) against fakesol, started by solwebctl ensure before sw runs,
 * so sw's own ensure finds it up. Loopback only; every home is a temp dir.
 */
class SwFakesolEndToEndTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path ROOT = Path.of(System.getProperty("user.dir")).getParent();
  private static final Path TOOLS = ROOT.resolve("tools/ccr");
  private static final String ACCOUNT = "owner@solweb.invalid";
  private static final String SCENARIO = """
      {"account": "owner@solweb.invalid", "default": [
        {"blocks": ["{\\"tool\\": \\"Write\\", \\"arguments\\": {\\"file_path\\": \\"hello.txt\\", \\"content\\": \\"hi\\"}}"]},
        {"blocks": ["{\\"tool\\": \\"final\\", \\"text\\": \\"Created hello.txt containing hi.\\"}"]}
      ]}""";
  private static final String THREE_WRITES = ThreeCalls.scenario("Write",
      ThreeCalls.args().put("file_path", "a.txt").put("content", "K24-A"),
      ThreeCalls.args().put("file_path", "b.txt").put("content", "K24-B"),
      ThreeCalls.args().put("file_path", "c.txt").put("content", "K24-C"));

  @TempDir Path dir;
  private final Map<String, String> env = new HashMap<>();
  private FakeSol sol;

  /** The pinned tools, installed from the lockfile when missing; absent tools fail, never skip. */
  @BeforeAll
  static void pinnedToolsInstalled() throws Exception {
    if (!Files.isExecutable(TOOLS.resolve("node_modules/.bin/claude")) || !Files.isExecutable(TOOLS.resolve("node_modules/.bin/ccr"))) {
      Process npm = new ProcessBuilder("npm", "ci", "--prefix", TOOLS.toString(), "--no-audit", "--no-fund")
          .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      assertThat(npm.waitFor(300, TimeUnit.SECONDS)).as("npm ci --prefix tools/ccr finished").isTrue();
    }
    assertThat(TOOLS.resolve("node_modules/.bin/claude")).as("Claude Code: npm ci --prefix tools/ccr").isExecutable();
    assertThat(TOOLS.resolve("node_modules/.bin/ccr")).as("ccr: npm ci --prefix tools/ccr").isExecutable();
  }

  @AfterEach
  void tearDown() throws Exception {
    Path home = dir.resolve("solwebd-home");
    Optional<StateFile> state = StateFile.read(home.resolve("solwebd.state.json"));
    Solwebctl.execute(ctlEnv(), new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()), "stop", "--json");
    state.flatMap(s -> ProcessHandle.of(s.pid())).ifPresent(ProcessHandle::destroyForcibly);
    OrphanReaper.reap(dir.resolve("profile"));
    Path ccrPid = dir.resolve(".claude-code-router/.claude-code-router.pid");
    if (Files.exists(ccrPid)) {
      ProcessHandle.of(Long.parseLong(Files.readString(ccrPid).strip())).ifPresent(p -> {
        p.destroy();
        p.onExit().orTimeout(5, TimeUnit.SECONDS).exceptionally(e -> null).join();
        p.destroyForcibly();
      });
    }
    if (sol != null) {
      sol.close();
    }
  }

  private CtlEnv ctlEnv() {
    return CtlEnv.of(env, ROOT);
  }

  private void ctl(String... args) {
    StringWriter err = new StringWriter();
    int code = Solwebctl.execute(ctlEnv(), new PrintWriter(new StringWriter()), new PrintWriter(err), args);
    assertThat(code).as(String.join(" ", args) + ": " + err).isZero();
  }

  private record Run(int exitCode, String out, String err) {}

  private Run bin(String name, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(ROOT.resolve("bin/" + name).toString()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectOutput(dir.resolve(name + ".out").toFile()).redirectError(dir.resolve(name + ".err").toFile());
    builder.environment().clear();
    builder.environment().putAll(env);
    Process process = builder.start();
    assertThat(process.waitFor(300, TimeUnit.SECONDS)).as(name + " finished").isTrue();
    return new Run(process.exitValue(), Files.readString(dir.resolve(name + ".out")), Files.readString(dir.resolve(name + ".err")));
  }

  /** {@code sw [OPTIONS] --trust PROMPT} with Claude Code through solwebd's Playwright seat on fakesol playing {@code scenario}. */
  private Run sw(String scenario, String prompt, Path workspace, String... options) throws Exception {
    sol = FakeSol.start(Scenario.parse(scenario), 0);
    Path home = Files.createDirectories(dir.resolve("solwebd-home"));
    Files.createDirectories(workspace);
    Files.createDirectories(dir.resolve("profile"));
    env.put("HOME", dir.toString());
    env.put("PATH", System.getenv("PATH"));
    env.put("SOLWEBD_HOME", home.toString());
    env.put("SOLWEBD_PROFILE", dir.resolve("profile").toString());
    env.put("SOLWEBD_PORT", "0");
    env.put("SOLWEBCTL_START_TIMEOUT_S", "90");
    env.put("SW_LOG_DIR", dir.resolve("logs").toString());
    env.put("SW_SEAT", "playwright");
    env.put("SW_CHAT_URL", sol.url().toString());
    try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      Files.createDirectories(dir.resolve(".claude-code-router"));
      Files.writeString(dir.resolve(".claude-code-router/config.json"), "{\"PORT\": " + socket.getLocalPort() + "}");
    }
    Path enroll = dir.resolve("enroll.json");
    Files.writeString(enroll, "{\"account\": \"" + ACCOUNT + "\"}");
    ctl("enroll", "--current-profile", "--json", "--seat", "scripted:" + enroll);
    ctl("ensure", "--json", "--seat", "playwright", "--headless", "--chat-url", sol.url().toString());
    assertThat(StateFile.read(home.resolve("solwebd.state.json")).orElseThrow().seat()).contains("playwright");
    if (List.of(options).contains("--via-ccr")) {
      Run install = bin("sw", "install-ccr");
      assertThat(install.exitCode()).as(install.err()).isZero();
    }
    List<String> args = new ArrayList<>(List.of(options));
    args.addAll(List.of("--workspace", workspace.toString(), "--trust", prompt, "--task-slug", "hello"));
    return bin("sw", args.toArray(String[]::new));
  }

  @Test
  void swCreatesHelloTxtWithClaudeCodeStraightAtSolwebdAndThePlaywrightSeatOnFakesol() throws Exception {
    Path workspace = dir.resolve("workspace");
    Run run = sw(SCENARIO, "create hello.txt containing hi", workspace);

    assertThat(run.exitCode()).as(run.err() + run.out()).isZero();
    assertThat(workspace.resolve("hello.txt")).hasContent("hi");
    assertThat(run.out().lines().toList()).hasSize(1);
    JsonNode status = JSON.readTree(run.out());
    assertThat(status.get("status").asText()).isEqualTo("completed");
    assertThat(status.get("result").asText()).isEqualTo("Created hello.txt containing hi.");
    List<ScenarioPlayer.Send> sends = sol.sends();
    assertThat(sends).as("browser sends on fakesol: the tool call turn and the final turn").hasSize(2);
    assertThat(sends.get(1).conversationId()).isEqualTo(sends.get(0).conversationId());
    assertThat(sends.get(0).text()).contains("create hello.txt containing hi");
  }

  /**
   * One reply with three calls (issue 24): ccr turns the one assistant message's three tool_calls
   * into three tool_use blocks, Claude Code runs them, and its three tool_result blocks come back
   * through ccr as three tool messages of one request (in the order its tools finished, measured),
   * which solwebd types as one page turn in call order.
   */
  @Test
  void claudeCodeRunsThreeCallsOfOneReplyAndTheirResultsAreOnePageTurnInCallOrder() throws Exception {
    Path workspace = dir.resolve("workspace");
    Run run = sw(THREE_WRITES, "write a.txt, b.txt and c.txt", workspace, "--via-ccr");

    assertThat(run.exitCode()).as(run.err() + run.out()).isZero();
    ThreeCalls.filesWritten(workspace);
    assertThat(JSON.readTree(run.out()).get("result").asText()).isEqualTo(ThreeCalls.FINAL);
    ThreeCalls.resultsInOneTurn(sol.sends(), "a.txt", "b.txt", "c.txt");
  }
}

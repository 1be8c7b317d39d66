package dev.solweb.killgate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.solweb.killgate.fakesol.FakeSol;
import dev.solweb.killgate.fakesol.FakeSolUploads;
import dev.solweb.provider.ctl.CtlEnv;
import dev.solweb.provider.ctl.Solwebctl;
import dev.solweb.provider.daemon.StateFile;
import dev.solweb.provider.scenario.Scenario;
import dev.solweb.provider.scenario.ScenarioPlayer;
import dev.solweb.provider.seat.playwright.browser.OrphanReaper;
import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real Codex CLI 0.171.0 once on fakesol: {@code codex exec} through {@code POST /v1/responses}
 * of solwebd on the real PlaywrightSeat (headless), started by solwebctl ensure. Codex runs with
 * tools/codex/config.test.toml (loopback only, its token from bin/solwebctl token) in temp homes.
 */
class CodexFakesolEndToEndTest {
  private static final Path ROOT = Path.of(System.getProperty("user.dir")).getParent();
  private static final Path CODEX = ROOT.resolve("tools/codex/node_modules/.bin/codex");
  private static final String ACCOUNT = "owner@solweb.invalid";
  private static final String SCENARIO = """
      {"account": "owner@solweb.invalid", "default": [
        {"blocks": ["{\\"tool\\": \\"exec_command\\", \\"arguments\\": {\\"cmd\\": \\"echo hi > hello.txt\\"}}"]},
        {"blocks": ["{\\"tool\\": \\"final\\", \\"text\\": \\"hello.txt holds hi\\"}"]}
      ]}""";
  private static final String SCENARIO_FINAL = """
      {"account": "owner@solweb.invalid", "default": [
        {"blocks": ["{\\"tool\\": \\"final\\", \\"text\\": \\"It is a test pattern.\\"}"]}
      ]}""";
  private static final String THREE_CALLS = ThreeCalls.scenario("exec_command",
      ThreeCalls.args().put("cmd", "printf K24-A | tee a.txt"), ThreeCalls.args().put("cmd", "printf K24-B | tee b.txt"),
      ThreeCalls.args().put("cmd", "printf K24-C | tee c.txt"));

  @TempDir Path dir;
  private final Map<String, String> env = new HashMap<>();
  private FakeSol sol;

  @AfterEach
  void tearDown() throws Exception {
    Optional<StateFile> state = StateFile.read(dir.resolve("solwebd-home/solwebd.state.json"));
    Solwebctl.execute(CtlEnv.of(env, ROOT), new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()),
        "stop", "--json");
    state.flatMap(s -> ProcessHandle.of(s.pid())).ifPresent(ProcessHandle::destroyForcibly);
    OrphanReaper.reap(dir.resolve("profile"));
    if (sol != null) {
      sol.close();
    }
  }

  private void ctl(String... args) {
    StringWriter err = new StringWriter();
    int code = Solwebctl.execute(CtlEnv.of(env, ROOT), new PrintWriter(new StringWriter()), new PrintWriter(err), args);
    assertThat(code).as(String.join(" ", args) + ": " + err).isZero();
  }

  /** One {@code codex exec PROMPT [OPTIONS]} through solwebd's Playwright seat on fakesol playing {@code scenario}. */
  private Path codexExec(String scenario, String prompt, String... options) throws Exception {
    assertThat(CODEX).as("the pinned Codex is missing; run: npm ci --prefix tools/codex").isExecutable();
    sol = FakeSol.start(Scenario.parse(scenario), 0);
    Path home = Files.createDirectories(dir.resolve("solwebd-home"));
    Path codexHome = Files.createDirectories(dir.resolve("codex-home"));
    Path workspace = Files.createDirectories(dir.resolve("workspace"));
    Files.createDirectories(dir.resolve("profile"));
    env.put("HOME", dir.toString());
    env.put("PATH", "/usr/bin:/bin");
    env.put("SOLWEBD_HOME", home.toString());
    env.put("SOLWEBD_PROFILE", dir.resolve("profile").toString());
    env.put("SOLWEBD_PORT", "0");
    env.put("SOLWEBCTL_START_TIMEOUT_S", "90");
    Path enroll = dir.resolve("enroll.json");
    Files.writeString(enroll, "{\"account\": \"" + ACCOUNT + "\"}");
    ctl("enroll", "--current-profile", "--json", "--seat", "scripted:" + enroll);
    ctl("ensure", "--json", "--seat", "playwright", "--headless", "--chat-url", sol.url().toString());
    StateFile state = StateFile.read(home.resolve("solwebd.state.json")).orElseThrow();
    assertThat(state.seat()).contains("playwright");
    Files.writeString(codexHome.resolve("config.toml"), Files.readString(ROOT.resolve("tools/codex/config.test.toml"))
        .replace("@PORT@", Integer.toString(state.port())).replace("@SOLWEBCTL@", ROOT.resolve("bin/solwebctl").toString()));

    List<String> command = new ArrayList<>(List.of(CODEX.toString(), "exec", "--skip-git-repo-check",
        "--dangerously-bypass-approvals-and-sandbox"));
    command.add(prompt);
    command.addAll(List.of(options)); // after the prompt: -i takes one or more files and would take the prompt as one
    ProcessBuilder builder = new ProcessBuilder(command)
        .directory(workspace.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectOutput(dir.resolve("codex.out").toFile()).redirectError(dir.resolve("codex.err").toFile());
    builder.environment().clear();
    builder.environment().putAll(env);
    builder.environment().put("CODEX_HOME", codexHome.toString());
    Process codex = builder.start();
    assertThat(codex.waitFor(180, TimeUnit.SECONDS)).as("codex exec finished").isTrue();
    assertThat(codex.exitValue()).as(Files.readString(dir.resolve("codex.err"))).isZero();
    return workspace;
  }

  @Test
  void codexRunsAToolAndFinishesThroughThePlaywrightSeatOnFakesol() throws Exception {
    Path workspace = codexExec(SCENARIO, "create hello.txt containing hi");

    assertThat(workspace.resolve("hello.txt")).hasContent("hi");
    assertThat(Files.readString(dir.resolve("codex.out"))).contains("hello.txt holds hi");
    List<ScenarioPlayer.Send> sends = sol.sends();
    assertThat(sends).as("browser sends on fakesol: the tool call turn and the final turn").hasSize(2);
    assertThat(sends.get(0).text()).contains("## exec_command", "create hello.txt containing hi");
    assertThat(sends.get(1).text()).startsWith("TOOL RESULT [call_1_");
    assertThat(sends.get(1).conversationId()).isEqualTo(sends.get(0).conversationId());
  }

  /**
   * Issue 29: {@code codex exec -i shot.png} sends the image as a Responses {@code input_image}
   * data URL; it reaches fakesol through the page's upload with the same bytes (sha256), once,
   * named by the turn's Send.
   */
  @Test
  void codexSendsAnImageWithDashIAndThePageReceivesTheSameBytes() throws Exception {
    Path shot = Files.createDirectories(dir.resolve("pictures")).resolve("shot.png");
    byte[] png = UploadFiles.png("shot.png", 4_000, 7).bytes();
    Files.write(shot, png);

    codexExec(SCENARIO_FINAL, "what is in this image?", "-i", shot.toString());

    assertThat(Files.readString(dir.resolve("codex.out"))).contains("a test pattern");
    List<FakeSolUploads.Turn> turns = sol.uploads().turns();
    System.out.println("Codex -i: sent shot.png sha256 " + UploadFiles.sha256(png) + " (" + png.length + " bytes); fakesol received "
        + turns.stream().flatMap(t -> t.files().stream()).map(f -> f.sha256() + " (" + f.bytes().length + " bytes)").toList());
    assertThat(turns).as("one Send, with its files").hasSize(1);
    assertThat(turns.get(0).files()).extracting(FakeSolUploads.Stored::sha256).containsExactly(UploadFiles.sha256(png));
    assertThat(sol.uploads().createRequests()).as("uploaded once").isEqualTo(1);
    assertThat(sol.sends().get(0).text()).contains("what is in this image?");
  }

  /**
   * One reply with three calls (issue 24): Codex (parallel_tool_calls: true) runs all three and
   * sends every output in its next request (measured: the three function_call items, then the
   * three function_call_output items, in call order), which solwebd types as one page turn.
   */
  @Test
  void codexRunsThreeCallsOfOneReplyAndTheirOutputsAreOnePageTurn() throws Exception {
    Path workspace = codexExec(THREE_CALLS, "write a.txt, b.txt and c.txt");

    ThreeCalls.filesWritten(workspace);
    assertThat(Files.readString(dir.resolve("codex.out"))).contains(ThreeCalls.FINAL);
    ThreeCalls.resultsInOneTurn(sol.sends(), "K24-A", "K24-B", "K24-C");
  }
}

package dev.solweb.provider.sw;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.solweb.provider.ctl.CtlEnv;
import dev.solweb.provider.ctl.ServiceControl;
import dev.solweb.provider.ctl.Solwebctl;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A temp world for sw: HOME (and so ccr's config), SOLWEBD_HOME and the profile under one temp
 * dir, an enrolled identity, and a fake {@code claude} that records its argv, environment, stdin,
 * cwd and process group before acting out {@code FAKE_CLAUDE_MODE}.
 */
final class SwFixture implements AutoCloseable {

  static final Path ROOT = Path.of(System.getProperty("user.dir")).getParent();
  static final String ACCOUNT = "owner@solweb.invalid";
  private static final ObjectMapper JSON = new ObjectMapper();

  final Path dir;
  final Path home;
  final Path profile;
  final Path workspace;
  final Path fakeOut;
  final Map<String, String> env = new HashMap<>();
  private final List<Process> processes = new ArrayList<>();

  /** One sw run: exit code, stdout, stderr. */
  record Run(int exitCode, String out, String err) {
    JsonNode status() throws IOException {
      return JSON.readTree(out);
    }
  }

  SwFixture(Path dir) throws IOException {
    this.dir = dir;
    this.home = dir.resolve("solwebd-home");
    this.profile = dir.resolve("profile");
    this.workspace = dir.resolve("workspace");
    this.fakeOut = dir.resolve("fake-claude-out");
    Files.createDirectories(home);
    Files.createDirectories(profile);
    Files.createDirectories(workspace);
    Files.createDirectories(fakeOut);
    env.put("HOME", dir.toString());
    env.put("PATH", System.getenv("PATH"));
    env.put("SOLWEBD_HOME", home.toString());
    env.put("SOLWEBD_PROFILE", profile.toString());
    env.put("FAKE_CLAUDE_OUT", fakeOut.toString());
  }

  static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  CtlEnv ctlEnv() {
    return CtlEnv.of(env, ROOT);
  }

  Run sw(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Sw.execute(SwEnv.of(env, ROOT), new PrintWriter(out), new PrintWriter(err), args);
    return new Run(code, out.toString(), err.toString());
  }

  /** As {@link #sw}, writing stderr into {@code err} while it runs, so a test can read it meanwhile. */
  int sw(StringWriter out, StringWriter err, String... args) {
    return Sw.execute(SwEnv.of(env, ROOT), new PrintWriter(out), new PrintWriter(err, true), args);
  }

  /** Enrolls through the real solwebctl verb with a scripted seat logged into {@link #ACCOUNT}. */
  void enroll() throws IOException {
    Path scenario = dir.resolve("enroll-scenario.json");
    Files.writeString(scenario, "{\"account\": \"" + ACCOUNT + "\"}");
    StringWriter err = new StringWriter();
    int code = Solwebctl.execute(ctlEnv(), new PrintWriter(new StringWriter()), new PrintWriter(err),
        "enroll", "--current-profile", "--json", "--seat", "scripted:" + scenario);
    assertThat(code).as(err.toString()).isZero();
  }

  /** Starts solwebd on the scenario through the real solwebctl ensure (as sw's ensure would); SW_SEAT follows it. */
  void ensure(String scenarioJson) throws IOException {
    Path scenario = dir.resolve("scenario.json");
    Files.writeString(scenario, scenarioJson);
    env.put("SW_SEAT", "scripted:" + scenario);
    StringWriter err = new StringWriter();
    int ensured = Solwebctl.execute(ctlEnv(), new PrintWriter(new StringWriter()), new PrintWriter(err),
        "ensure", "--json", "--seat", "scripted:" + scenario);
    assertThat(ensured).as(err.toString()).isZero();
  }

  int daemonPort() throws IOException {
    return dev.solweb.provider.daemon.StateFile.read(home.resolve("solwebd.state.json")).orElseThrow().port();
  }

  /** The running daemon's /healthz, with its token. */
  JsonNode health() throws Exception {
    String token = Files.readString(home.resolve("solwebd.token")).strip();
    java.net.http.HttpResponse<String> response = java.net.http.HttpClient.newHttpClient().send(
        java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + daemonPort() + "/healthz"))
            .header("Authorization", "Bearer " + token).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
    return JSON.readTree(response.body());
  }

  /** What the seat typed: the turns of every conversation /healthz lists. */
  static int browserSends(JsonNode health) {
    int sends = 0;
    for (JsonNode conversation : health.path("occupancy")) {
      sends += conversation.path("turns").asInt();
    }
    return sends;
  }

  void writeToken(String token) throws IOException {
    Path file = home.resolve("solwebd.token");
    Files.deleteIfExists(file);
    Files.writeString(file, token + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
  }

  /** A live process that looks like our solwebd on its command line (main class, install root). */
  Process fakeDaemonProcess() throws IOException {
    return start("bash", "-c", "sleep 600; true", ServiceControl.DAEMON_MAIN_CLASS,
        ROOT.resolve("provider/target/classes").toString());
  }

  Process start(String... command) throws IOException {
    Process process = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    processes.add(process);
    return process;
  }

  void writeState(long pid, long ticks, String generation, int port) throws IOException {
    Files.writeString(home.resolve("solwebd.state.json"), "{\"pid\":" + pid + ",\"process_start_ticks\":" + ticks
        + ",\"instance_generation\":\"" + generation + "\",\"port\":" + port + ",\"version\":\"test\",\"seat\":\"scripted:x\"}");
  }

  Path ccrConfig() {
    return dir.resolve(".claude-code-router/config.json");
  }

  /** An executable script in the temp dir. */
  Path script(String name, String body) throws IOException {
    Path file = dir.resolve(name);
    Files.writeString(file, "#!/usr/bin/env bash\n" + body);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx------"));
    return file;
  }

  /**
   * The fake claude. Modes: {@code ok} (init, a stderr line, a success result, exit 0),
   * {@code error} (an error result, exit 1), {@code sleep} (30 s), {@code stubborn} (ignores
   * TERM, sleeps 30 s), {@code await_go} (a success result once the test creates {@code go} in
   * the output dir, at most 20 s).
   */
  Path fakeClaude() throws IOException {
    return script("fake-claude", """
        out=$FAKE_CLAUDE_OUT
        printf '%s\\0' "$@" > "$out/argv"
        env -0 > "$out/env"
        readlink /proc/self/fd/0 > "$out/stdin"
        pwd > "$out/cwd"
        ps -o pgid= -p $$ | tr -d ' ' > "$out/pgid"
        echo $$ > "$out/pid"
        case "${FAKE_CLAUDE_MODE:-ok}" in
          ok)
            echo '{"type":"system","subtype":"init","session_id":"11111111-2222-3333-4444-555555555555"}'
            echo 'a warning on stderr' >&2
            echo '{"type":"result","subtype":"success","is_error":false,"num_turns":2,"result":"Created hello.txt.","session_id":"11111111-2222-3333-4444-555555555555"}'
            exit 0 ;;
          error)
            echo '{"type":"result","subtype":"success","is_error":true,"api_error_status":502,"num_turns":1,"result":"API Error: 502 protocol","session_id":"s"}'
            exit 1 ;;
          await_go)
            for _ in $(seq 400); do [ -e "$out/go" ] && break; sleep 0.05; done
            echo '{"type":"result","subtype":"success","is_error":false,"num_turns":1,"result":"done","session_id":"s"}'
            exit 0 ;;
          sleep)
            sleep 30 ;;
          stubborn)
            trap '' TERM
            sleep 30 ;;
        esac
        """);
  }

  List<String> fakeArgv() throws IOException {
    String raw = Files.readString(fakeOut.resolve("argv"), StandardCharsets.UTF_8);
    return Arrays.asList(raw.substring(0, raw.length() - 1).split("\0", -1));
  }

  Map<String, String> fakeEnv() throws IOException {
    Map<String, String> map = new LinkedHashMap<>();
    for (String entry : Files.readString(fakeOut.resolve("env"), StandardCharsets.UTF_8).split("\0")) {
      int eq = entry.indexOf('=');
      if (eq > 0) {
        map.put(entry.substring(0, eq), entry.substring(eq + 1));
      }
    }
    return map;
  }

  boolean claudeRan() {
    return Files.exists(fakeOut.resolve("argv"));
  }

  @Override
  public void close() throws InterruptedException {
    for (Process process : processes) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
      process.waitFor(5, TimeUnit.SECONDS);
    }
  }
}

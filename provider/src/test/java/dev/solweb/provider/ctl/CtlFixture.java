package dev.solweb.provider.ctl;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A temp daemon home for solwebctl tests: HOME, SOLWEBD_HOME and the profile live under one temp
 * dir; processes started here are destroyed by {@link #close()}.
 */
final class CtlFixture implements AutoCloseable {

  static final Path ROOT = Path.of(System.getProperty("user.dir")).getParent();
  static final String TOKEN = "tok_ABCdef0123456789-_tok_ABCdef0123456789-_x";

  final Path dir;
  final Path home;
  final Path profile;
  final Map<String, String> env = new HashMap<>();
  private final List<Process> processes = new ArrayList<>();

  record Run(int exitCode, String out, String err) {}

  CtlFixture(Path dir) throws IOException {
    this.dir = dir;
    this.home = dir.resolve("home");
    this.profile = dir.resolve("profile");
    Files.createDirectories(home);
    Files.createDirectories(profile);
    env.put("HOME", dir.toString());
    env.put("PATH", System.getenv("PATH"));
    env.put("SOLWEBD_HOME", home.toString());
    env.put("SOLWEBD_PROFILE", profile.toString());
  }

  CtlEnv ctlEnv() {
    return CtlEnv.of(env, ROOT);
  }

  Run run(String... args) {
    return run(ctlEnv(), args);
  }

  Run run(CtlEnv ctlEnv, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Solwebctl.execute(ctlEnv, new PrintWriter(out), new PrintWriter(err), args);
    return new Run(code, out.toString(), err.toString());
  }

  void writeToken(String token, String mode) throws IOException {
    Path file = home.resolve("solwebd.token");
    Files.deleteIfExists(file);
    Files.writeString(file, token);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
  }

  void writePrivate(Path file, String content) throws IOException {
    Files.writeString(file, content);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
  }

  /** Enrolls through the real verb with a scripted seat whose account is {@code account}. */
  void enroll(String account) throws IOException {
    Path scenario = dir.resolve("enroll-scenario.json");
    Files.writeString(scenario, "{\"account\": \"" + account + "\"}");
    Run run = run("enroll", "--current-profile", "--json", "--seat", "scripted:" + scenario);
    assertThat(run.exitCode()).as(run.err()).isZero();
  }

  /** A live process that looks like our solwebd on its command line (main class, install root). */
  Process fakeDaemonProcess() throws IOException {
    return start("bash", "-c", "sleep 600; true", ServiceControl.DAEMON_MAIN_CLASS,
        ROOT.resolve("provider/target/classes").toString());
  }

  /** A live process that is not solwebd. */
  Process foreignProcess() throws IOException {
    return start("bash", "-c", "sleep 600; true", "not-solwebd");
  }

  Process start(String... command) throws IOException {
    Process process = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    processes.add(process);
    return process;
  }

  void writeState(long pid, long ticks, String generation, int port) throws IOException {
    Files.writeString(home.resolve("solwebd.state.json"), "{\"pid\":" + pid + ",\"process_start_ticks\":" + ticks
        + ",\"instance_generation\":\"" + generation + "\",\"port\":" + port + ",\"version\":\"test\",\"seat\":\"scripted:demo\"}");
  }

  @Override
  public void close() {
    for (Process process : processes) {
      process.destroyForcibly();
      try {
        process.waitFor(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}

package dev.solweb.provider.ctl;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.solweb.provider.daemon.StateFile;
import dev.solweb.provider.platform.ProcessInfo;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ensure and stop against the real solwebd (bin/solwebd, ScriptedSeat, an ephemeral loopback
 * port): serialized startup, ownership, never restarting a running daemon, refusals.
 */
class EnsureStopTest {

  static final String ACCOUNT = "owner@solweb.invalid";
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;
  private CtlFixture fx;
  private String readySeat;

  @BeforeEach
  void setUp() throws IOException {
    fx = new CtlFixture(dir);
    fx.env.put("SOLWEBD_PORT", "0");
    fx.env.put("SOLWEBCTL_START_TIMEOUT_S", "60");
    readySeat = "scripted:" + scenario("ready.json", "{\"account\": \"" + ACCOUNT + "\", \"default\": [{\"prose\": \"ok\"}]}");
  }

  @AfterEach
  void tearDown() throws Exception {
    // Stop whatever daemon this test started (through the verb); then make sure it is gone.
    Optional<StateFile> state = StateFile.read(fx.home.resolve("solwebd.state.json"));
    fx.run("stop", "--json");
    state.flatMap(s -> ProcessHandle.of(s.pid())).ifPresent(p -> {
      if (p.info().commandLine().orElse("").contains(fx.home.toString())) {
        p.destroyForcibly();
      }
    });
    fx.close();
  }

  @Test
  void fiveConcurrentEnsuresLaunchOneDaemon() throws Exception {
    fx.enroll(ACCOUNT);
    List<Process> ensures = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      ensures.add(launcher("ensure", "--json", "--seat", readySeat));
    }
    List<JsonNode> healths = new ArrayList<>();
    for (Process ensure : ensures) {
      String out = new String(ensure.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      String err = new String(ensure.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(ensure.waitFor(90, TimeUnit.SECONDS)).isTrue();
      assertThat(ensure.exitValue()).as(err).isEqualTo(ExitCodes.OK);
      healths.add(JSON.readTree(out));
    }
    JsonNode first = healths.get(0);
    assertThat(first.get("ok").asBoolean()).isTrue();
    assertThat(first.get("account").asText()).isEqualTo(ACCOUNT);
    for (JsonNode health : healths) {
      assertThat(health.get("pid").asLong()).isEqualTo(first.get("pid").asLong());
      assertThat(health.get("instance_generation").asText()).isEqualTo(first.get("instance_generation").asText());
      assertThat(health.get("process_start_ticks").asLong()).isEqualTo(first.get("process_start_ticks").asLong());
    }
    assertThat(launches()).as("exactly one launch in " + fx.home.resolve("solwebctl.log")).isEqualTo(1);
    assertThat(daemonsWithThisHome()).hasSize(1);

    CtlFixture.Run stop = fx.run("stop", "--json");
    assertThat(stop.exitCode()).as(stop.err()).isEqualTo(ExitCodes.OK);
    assertThat(JSON.readTree(stop.out()).get("detail").asText()).isEqualTo("stopped solwebd pid " + first.get("pid").asLong());
    assertThat(ProcessHandle.of(first.get("pid").asLong()).map(ProcessHandle::isAlive).orElse(false)).isFalse();
    assertThat(fx.home.resolve("solwebd.state.json")).doesNotExist();
  }

  @Test
  void runningDaemonIsReusedAndNeverRestartedForMoreSeats() throws Exception {
    fx.enroll(ACCOUNT);
    CtlFixture.Run first = fx.run("ensure", "--json", "--seat", readySeat);
    assertThat(first.exitCode()).as(first.err()).isEqualTo(ExitCodes.OK);
    long pid = JSON.readTree(first.out()).get("pid").asLong();

    CtlFixture.Run again = fx.run("ensure", "--json", "--seat", readySeat);
    assertThat(again.exitCode()).isEqualTo(ExitCodes.OK);
    assertThat(JSON.readTree(again.out()).get("pid").asLong()).isEqualTo(pid);

    CtlFixture.Run more = fx.run("ensure", "--json", "--seats", "2", "--seat", readySeat);
    assertThat(more.exitCode()).isEqualTo(ExitCodes.NOT_READY);
    JsonNode health = JSON.readTree(more.out());
    assertThat(health.get("ok").asBoolean()).isFalse();
    assertThat(health.get("seats").asInt()).isEqualTo(1);
    assertThat(health.get("detail").asText()).startsWith("insufficient seats: solwebd runs 1, 2 required");
    assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).as("left running").isTrue();
    assertThat(launches()).isEqualTo(1);

    CtlFixture.Run health2 = fx.run("health", "--json", "--seats", "1");
    assertThat(health2.exitCode()).isEqualTo(ExitCodes.OK);
    assertThat(JSON.readTree(health2.out()).get("pid").asLong()).isEqualTo(pid);
  }

  @Test
  void loggedOutScriptedSeatIsNotReady() throws Exception {
    fx.enroll(ACCOUNT);
    String loggedOut = "scripted:" + scenario("logged-out.json", "{\"state\": \"logged_out\"}");
    CtlFixture.Run run = fx.run("ensure", "--json", "--seat", loggedOut);
    assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.NOT_READY);
    JsonNode health = JSON.readTree(run.out());
    assertThat(health.get("state").asText()).isEqualTo("logged_out");
    assertThat(health.get("ok").asBoolean()).isFalse();
    assertThat(health.get("authenticated").asBoolean()).isFalse();
  }

  @Test
  void anotherAccountInTheBrowserIsRefused() throws Exception {
    fx.enroll(ACCOUNT);
    String other = "scripted:" + scenario("other.json", "{\"account\": \"intruder@solweb.invalid\"}");
    CtlFixture.Run run = fx.run("ensure", "--json", "--seat", other);
    assertThat(run.exitCode()).isEqualTo(ExitCodes.REFUSED);
    assertThat(run.err()).contains("account mismatch: the browser is logged into intruder@solweb.invalid");
  }

  @Test
  void notEnrolledStartsNothing() throws Exception {
    CtlFixture.Run run = fx.run("ensure", "--json", "--seat", readySeat);
    assertThat(run.exitCode()).isEqualTo(ExitCodes.REFUSED);
    assertThat(run.err()).contains("not enrolled");
    assertThat(fx.home.resolve("solwebd.state.json")).doesNotExist();
    assertThat(launches()).isZero();
  }

  @Test
  void stalePidFailsClosedUntilStopProvesItGone() throws Exception {
    fx.enroll(ACCOUNT);
    Process gone = fx.start("true");
    gone.waitFor();
    fx.writeState(gone.pid(), 12345, "gen-old", 1);
    CtlFixture.Run refused = fx.run("ensure", "--json", "--seat", readySeat);
    assertThat(refused.exitCode()).isEqualTo(ExitCodes.OWNERSHIP);
    assertThat(refused.err()).contains("stale state file").contains("is not running");
    assertThat(launches()).isZero();

    CtlFixture.Run stop = fx.run("stop", "--json");
    assertThat(stop.exitCode()).isEqualTo(ExitCodes.OK);
    assertThat(stop.out()).contains("removed stale state file: pid " + gone.pid() + " was not running");

    CtlFixture.Run ensure = fx.run("ensure", "--json", "--seat", readySeat);
    assertThat(ensure.exitCode()).as(ensure.err()).isEqualTo(ExitCodes.OK);
    assertThat(launches()).isEqualTo(1);
  }

  @Test
  void reusedPidFailsClosedAndItsProcessIsLeftAlone() throws Exception {
    fx.enroll(ACCOUNT);
    Process other = fx.fakeDaemonProcess();
    fx.writeState(other.pid(), ProcessInfo.startTicksOf(other.pid()) + 7, "gen-old", 1);
    CtlFixture.Run refused = fx.run("ensure", "--json", "--seat", readySeat);
    assertThat(refused.exitCode()).isEqualTo(ExitCodes.OWNERSHIP);
    assertThat(refused.err()).contains("was reused");
    CtlFixture.Run stop = fx.run("stop", "--json");
    assertThat(stop.exitCode()).isEqualTo(ExitCodes.OK);
    assertThat(stop.out()).contains("now belongs to another process");
    assertThat(other.isAlive()).isTrue();
    assertThat(launches()).isZero();
  }

  @Test
  void stopWhenNothingRunsIsOk() {
    CtlFixture.Run stop = fx.run("stop", "--json");
    assertThat(stop.exitCode()).isEqualTo(ExitCodes.OK);
    assertThat(stop.out()).contains("\"detail\":\"solwebd is not running\"");
  }

  private Process launcher(String... args) throws IOException {
    List<String> command = new ArrayList<>(List.of(CtlFixture.ROOT.resolve("bin/solwebctl").toString()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    builder.environment().clear();
    builder.environment().putAll(fx.env);
    return builder.start();
  }

  private String scenario(String name, String json) throws IOException {
    Path file = dir.resolve(name);
    Files.writeString(file, json);
    return file.toString();
  }

  private long launches() throws IOException {
    Path log = fx.home.resolve("solwebctl.log");
    return Files.exists(log) ? Files.readAllLines(log).stream().filter(l -> l.contains("launched solwebd")).count() : 0;
  }

  private List<ProcessHandle> daemonsWithThisHome() {
    return ProcessHandle.allProcesses()
        .filter(p -> p.info().commandLine().map(c -> c.contains(ServiceControl.DAEMON_MAIN_CLASS)
            && c.contains("--home " + fx.home)).orElse(false))
        .toList();
  }
}

package dev.solweb.provider.ctl;

import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import dev.solweb.provider.platform.ProcessInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * `solwebctl health --json` over a stubbed /healthz and a live stand-in process: every field of
 * ProviderHealth, and every way ownership, identity or readiness fails.
 */
class HealthCommandTest {

  static final String ACCOUNT = "owner@solweb.invalid";
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;
  private CtlFixture fx;
  private WireMockServer server;
  private Process daemon;
  private long ticks;

  @BeforeEach
  void setUp() throws Exception {
    fx = new CtlFixture(dir);
    fx.enroll(ACCOUNT);
    fx.writeToken(CtlFixture.TOKEN + "\n", "rw-------");
    server = new WireMockServer(options().dynamicPort().bindAddress("127.0.0.1"));
    server.start();
    daemon = fx.fakeDaemonProcess();
    ticks = ProcessInfo.startTicksOf(daemon.pid());
    fx.writeState(daemon.pid(), ticks, "gen-1", server.port());
  }

  @AfterEach
  void tearDown() throws Exception {
    server.stop();
    fx.close();
  }

  @Test
  void readyOwnedEnrolledDaemonIsOkWithEveryField() throws Exception {
    HealthStubs.serve(server, HealthStubs.ready(daemon.pid(), "gen-1", ACCOUNT));
    CtlFixture.Run run = fx.run("health", "--json");
    assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.OK);
    assertThat(run.err()).isEmpty();
    JsonNode health = JSON.readTree(run.out());
    List<String> fields = new ArrayList<>();
    health.fieldNames().forEachRemaining(fields::add);
    assertThat(fields).containsExactly("ok", "state", "endpoint", "host", "account", "seats", "queue", "active",
        "models", "authenticated", "pid", "process_start_ticks", "instance_generation", "version", "detail");
    assertThat(health.get("ok").asBoolean()).isTrue();
    assertThat(health.get("state").asText()).isEqualTo("ready");
    assertThat(health.get("endpoint").asText()).isEqualTo("http://127.0.0.1:" + server.port() + "/v1");
    assertThat(health.get("host").asText()).isEqualTo(Files.readString(Path.of("/proc/sys/kernel/hostname")).strip());
    assertThat(health.get("account").asText()).isEqualTo(ACCOUNT);
    assertThat(health.get("seats").asInt()).isEqualTo(1);
    assertThat(health.get("queue").asInt()).isEqualTo(2);
    assertThat(health.get("active").asInt()).isEqualTo(1);
    assertThat(health.get("models").toString()).contains("sol-web-medium", "sol-web-pro");
    assertThat(health.get("authenticated").asBoolean()).isTrue();
    assertThat(health.get("pid").asLong()).isEqualTo(daemon.pid());
    assertThat(health.get("process_start_ticks").asLong()).isEqualTo(ticks);
    assertThat(health.get("instance_generation").asText()).isEqualTo("gen-1");
    assertThat(health.get("version").asText()).isEqualTo("0.1.0-test");
  }

  @Test
  void notRunningIsNotReady() throws Exception {
    Files.delete(fx.home.resolve("solwebd.state.json"));
    CtlFixture.Run run = fx.run("health", "--json");
    assertThat(run.exitCode()).isEqualTo(ExitCodes.NOT_READY);
    JsonNode health = JSON.readTree(run.out());
    assertThat(health.get("ok").asBoolean()).isFalse();
    assertThat(health.get("pid").isNull()).isTrue();
    assertThat(health.get("detail").asText()).startsWith("solwebd is not running");
  }

  @Test
  void stalePidFailsClosed() throws Exception {
    Process gone = fx.start("true");
    gone.waitFor();
    fx.writeState(gone.pid(), ticks, "gen-1", server.port());
    HealthStubs.serve(server, HealthStubs.ready(gone.pid(), "gen-1", ACCOUNT));
    assertFails(ExitCodes.OWNERSHIP, "stale state file", "pid " + gone.pid() + " is not running");
    assertThat(server.getAllServeEvents()).as("a stale state is not trusted enough to ask health").isEmpty();
  }

  @Test
  void reusedPidWithOtherStartTicksFailsClosed() throws Exception {
    fx.writeState(daemon.pid(), ticks - 1, "gen-1", server.port());
    HealthStubs.serve(server, HealthStubs.ready(daemon.pid(), "gen-1", ACCOUNT));
    assertFails(ExitCodes.OWNERSHIP, "was reused (start ticks " + ticks + ", state file says " + (ticks - 1));
    assertThat(daemon.isAlive()).as("never kills a process it does not own").isTrue();
  }

  @Test
  void aProcessThatIsNotSolwebdFailsClosed() throws Exception {
    Process foreign = fx.foreignProcess();
    fx.writeState(foreign.pid(), ProcessInfo.startTicksOf(foreign.pid()), "gen-1", server.port());
    HealthStubs.serve(server, HealthStubs.ready(foreign.pid(), "gen-1", ACCOUNT));
    assertFails(ExitCodes.OWNERSHIP, "is not our installed solwebd");
    assertThat(foreign.isAlive()).isTrue();
  }

  @Test
  void healthFromAnotherInstanceFailsClosed() throws Exception {
    HealthStubs.serve(server, HealthStubs.ready(daemon.pid(), "gen-2", ACCOUNT));
    assertFails(ExitCodes.OWNERSHIP, "is from another instance");
  }

  @Test
  void malformedHealthFailsClosed() throws Exception {
    HealthStubs.serveRaw(server, 200, "[1, 2]");
    assertFails(ExitCodes.OWNERSHIP, "malformed health");
    ObjectNode unknownState = HealthStubs.ready(daemon.pid(), "gen-1", ACCOUNT).put("state", "sleepy");
    HealthStubs.serve(server, unknownState);
    assertFails(ExitCodes.OWNERSHIP, "malformed health: unknown state 'sleepy'");
  }

  @Test
  void cappedIsNotOkAndCarriesResumeAt() throws Exception {
    HealthStubs.serve(server, HealthStubs.ready(daemon.pid(), "gen-1", ACCOUNT)
        .put("ok", false).put("state", "capped").put("cap_resume_at", "2030-01-01T00:00:00Z").put("detail", "usage cap"));
    JsonNode health = assertFails(ExitCodes.NOT_READY, "capped: usage cap");
    assertThat(health.get("cap_resume_at").asText()).isEqualTo("2030-01-01T00:00:00Z");
  }

  @Test
  void loggedOutIsNotOk() throws Exception {
    ObjectNode loggedOut = HealthStubs.ready(daemon.pid(), "gen-1", ACCOUNT)
        .put("state", "logged_out").put("authenticated", false).put("detail", "login wall");
    loggedOut.putNull("account");
    HealthStubs.serve(server, loggedOut);
    JsonNode health = assertFails(ExitCodes.NOT_READY, "logged out: login wall");
    assertThat(health.get("authenticated").asBoolean()).isFalse();
  }

  @Test
  void anotherAccountIsRefused() throws Exception {
    HealthStubs.serve(server, HealthStubs.ready(daemon.pid(), "gen-1", "intruder@solweb.invalid"));
    assertFails(ExitCodes.REFUSED, "account mismatch: the browser is logged into intruder@solweb.invalid,"
        + " the enrolled account is " + ACCOUNT);
  }

  @Test
  void fewerSeatsThanAskedIsNotOk() throws Exception {
    HealthStubs.serve(server, HealthStubs.ready(daemon.pid(), "gen-1", ACCOUNT));
    JsonNode health = assertFails(ExitCodes.NOT_READY, List.of("--seats", "2"),
        "insufficient seats: solwebd runs 1, 2 required");
    assertThat(health.get("seats").asInt()).isEqualTo(1);
  }

  @Test
  void missingRequiredModelIsNotOk() throws Exception {
    ObjectNode health = HealthStubs.ready(daemon.pid(), "gen-1", ACCOUNT);
    health.putArray("models").add("sol-web-instant").add("sol-web-medium");
    HealthStubs.serve(server, health);
    assertFails(ExitCodes.NOT_READY, "required models missing: [sol-web-high, sol-web-xhigh, sol-web-pro]");
  }

  @Test
  void tokenWithWrongModeIsRefusedBeforeAsking() throws Exception {
    HealthStubs.serve(server, HealthStubs.ready(daemon.pid(), "gen-1", ACCOUNT));
    fx.writeToken(CtlFixture.TOKEN + "\n", "rw-rw----");
    assertFails(ExitCodes.REFUSED, "has mode 0660, must be 0600");
    assertThat(server.getAllServeEvents()).isEmpty();
  }

  @Test
  void tokenTheDaemonRejectsIsRefused() throws Exception {
    HealthStubs.serve(server, HealthStubs.ready(daemon.pid(), "gen-1", ACCOUNT));
    fx.writeToken("someOtherToken\n", "rw-------");
    assertFails(ExitCodes.REFUSED, "rejected the token (401)");
  }

  @Test
  void identityPinnedToAnotherMachineIsRefused() throws Exception {
    Path other = dir.resolve("machine-id");
    Files.writeString(other, "0123456789abcdef0123456789abcdef\n");
    CtlEnv otherMachine = fx.ctlEnv().withMachineFiles(other, dir.resolve("no-dbus-id"));
    HealthStubs.serve(server, HealthStubs.ready(daemon.pid(), "gen-1", ACCOUNT));
    CtlFixture.Run run = fx.run(otherMachine, "health", "--json");
    assertThat(run.exitCode()).isEqualTo(ExitCodes.REFUSED);
    // The topology check meets it first: a home enrolled elsewhere is another machine's home.
    assertThat(run.err()).contains("non-local topology: this machine is not the enrolled workstation");
    assertThat(server.getAllServeEvents()).isEmpty();
  }

  @Test
  void anotherProfileIsRefused() throws Exception {
    Path otherProfile = Files.createDirectory(dir.resolve("other-profile"));
    fx.env.put("SOLWEBD_PROFILE", otherProfile.toString());
    HealthStubs.serve(server, HealthStubs.ready(daemon.pid(), "gen-1", ACCOUNT));
    assertFails(ExitCodes.REFUSED, "identity mismatch: the profile is " + otherProfile);
  }

  @Test
  void notEnrolledIsRefused() throws Exception {
    Files.delete(fx.home.resolve("identity.json"));
    HealthStubs.serve(server, HealthStubs.ready(daemon.pid(), "gen-1", ACCOUNT));
    assertFails(ExitCodes.REFUSED, "not enrolled");
  }

  @Test
  void identityFileWithWrongModeIsRefused() throws Exception {
    Files.setPosixFilePermissions(fx.home.resolve("identity.json"),
        java.nio.file.attribute.PosixFilePermissions.fromString("rw-r-----"));
    assertFails(ExitCodes.REFUSED, "identity file", "has mode 0640, must be 0600");
  }

  private JsonNode assertFails(int exitCode, String... reasons) throws Exception {
    return assertFails(exitCode, List.of(), reasons);
  }

  private JsonNode assertFails(int exitCode, List<String> extra, String... reasons) throws Exception {
    List<String> args = new ArrayList<>(List.of("health", "--json"));
    args.addAll(extra);
    CtlFixture.Run run = fx.run(args.toArray(String[]::new));
    assertThat(run.exitCode()).as(run.err()).isEqualTo(exitCode);
    JsonNode health = JSON.readTree(run.out());
    assertThat(health.get("ok").asBoolean()).isFalse();
    for (String reason : reasons) {
      assertThat(health.get("detail").asText()).contains(reason);
      assertThat(run.err()).contains(reason);
    }
    assertThat(run.out() + run.err()).doesNotContain(CtlFixture.TOKEN);
    return health;
  }
}

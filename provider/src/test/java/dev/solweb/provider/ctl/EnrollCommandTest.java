package dev.solweb.provider.ctl;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `solwebctl enroll --current-profile --json` with a scripted seat, and each refusal. */
class EnrollCommandTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;
  private CtlFixture fx;
  private Path identity;

  @BeforeEach
  void setUp() throws IOException {
    fx = new CtlFixture(dir);
    identity = fx.home.resolve("identity.json");
  }

  @AfterEach
  void tearDown() {
    fx.close();
  }

  @Test
  void pinsAccountCanonicalProfileAndMachineHashInAPrivateFile() throws Exception {
    Path link = Files.createSymbolicLink(dir.resolve("profile-link"), fx.profile);
    fx.env.put("SOLWEBD_PROFILE", link.toString());
    CtlFixture.Run run = enroll(seat("{\"account\": \"owner@solweb.invalid\"}"));
    assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.OK);
    JsonNode printed = JSON.readTree(run.out());
    assertThat(printed.get("expected_account").asText()).isEqualTo("owner@solweb.invalid");
    assertThat(printed.get("profile_dir").asText()).isEqualTo(fx.profile.toRealPath().toString());
    assertThat(printed.get("machine_id_sha256").asText())
        .isEqualTo(HexFormat.of().formatHex(
            MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(Path.of("/etc/machine-id")))));
    assertThat(JSON.readTree(Files.readString(identity))).isEqualTo(printed);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(identity))).isEqualTo("rw-------");
    try (var files = Files.list(fx.home)) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactly("identity.json");
    }
  }

  @Test
  void sameIdentityAgainIsANoOpAndADifferentOneIsRefused() throws Exception {
    assertThat(enroll(seat("{\"account\": \"owner@solweb.invalid\"}")).exitCode()).isZero();
    String before = Files.readString(identity);
    assertThat(enroll(seat("{\"account\": \"owner@solweb.invalid\"}")).exitCode()).isZero();
    CtlFixture.Run other = enroll(seat("{\"account\": \"second@solweb.invalid\"}"));
    assertThat(other.exitCode()).isEqualTo(ExitCodes.REFUSED);
    assertThat(other.err()).contains("an existing different identity is enrolled").contains("never rewritten");
    assertThat(Files.readString(identity)).isEqualTo(before);
  }

  @Test
  void loggedOutProfileIsRefused() throws Exception {
    CtlFixture.Run run = enroll(seat("{\"state\": \"logged_out\"}"));
    assertThat(run.exitCode()).isEqualTo(ExitCodes.REFUSED);
    assertThat(run.err()).contains("logged out: the profile has no authenticated account");
    assertThat(identity).doesNotExist();
  }

  @Test
  void challengedPageIsRefused() throws Exception {
    CtlFixture.Run run = enroll(seat("{\"state\": \"challenged\"}"));
    assertThat(run.exitCode()).isEqualTo(ExitCodes.REFUSED);
    assertThat(run.err()).contains("cannot read the authenticated account: the page is challenged");
  }

  @Test
  void existingIdentityWithWrongModeIsRefused() throws Exception {
    assertThat(enroll(seat("{\"account\": \"owner@solweb.invalid\"}")).exitCode()).isZero();
    Files.setPosixFilePermissions(identity, PosixFilePermissions.fromString("rw-r--r--"));
    CtlFixture.Run run = enroll(seat("{\"account\": \"owner@solweb.invalid\"}"));
    assertThat(run.exitCode()).isEqualTo(ExitCodes.REFUSED);
    assertThat(run.err()).contains("identity file " + identity + " has mode 0644, must be 0600");
  }

  @Test
  void missingProfileIsRefused() throws Exception {
    fx.env.put("SOLWEBD_PROFILE", dir.resolve("nowhere").toString());
    CtlFixture.Run run = enroll(seat("{}"));
    assertThat(run.exitCode()).isEqualTo(ExitCodes.REFUSED);
    assertThat(run.err()).contains("non-local profile: " + dir.resolve("nowhere") + " does not exist");
  }

  @Test
  void profileOnANetworkFilesystemIsRefused() throws Exception {
    Path mountInfo = dir.resolve("mountinfo");
    Files.writeString(mountInfo, "22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n"
        + "90 22 0:50 / " + dir + " rw,relatime shared:9 - nfs4 server:/export rw,vers=4.2\n");
    CtlFixture.Run run = fx.run(fx.ctlEnv().withMountInfo(mountInfo),
        "enroll", "--current-profile", "--json", "--seat", seat("{}"));
    assertThat(run.exitCode()).isEqualTo(ExitCodes.REFUSED);
    assertThat(run.err()).contains("non-local profile: " + fx.profile.toRealPath() + " is on a network filesystem (nfs4)");
  }

  @Test
  void ambiguousMachineIdentityIsRefused() throws Exception {
    Path machineId = dir.resolve("machine-id");
    Path dbus = dir.resolve("dbus-machine-id");
    Files.writeString(machineId, "0123456789abcdef0123456789abcdef\n");
    Files.writeString(dbus, "fedcba9876543210fedcba9876543210\n");
    CtlFixture.Run differ = fx.run(fx.ctlEnv().withMachineFiles(machineId, dbus),
        "enroll", "--current-profile", "--json", "--seat", seat("{}"));
    assertThat(differ.exitCode()).isEqualTo(ExitCodes.REFUSED);
    assertThat(differ.err()).contains("ambiguous machine identity: " + dbus + " names a different machine id");

    Files.writeString(machineId, "");
    CtlFixture.Run empty = fx.run(fx.ctlEnv().withMachineFiles(machineId, dir.resolve("none")),
        "enroll", "--current-profile", "--json", "--seat", seat("{}"));
    assertThat(empty.exitCode()).isEqualTo(ExitCodes.REFUSED);
    assertThat(empty.err()).contains("does not hold exactly one 32-hex-digit machine id");
    assertThat(identity).doesNotExist();
  }

  @Test
  void kubernetesPodIsRefused() throws Exception {
    fx.env.put("KUBERNETES_SERVICE_HOST", "10.43.0.1");
    CtlFixture.Run run = enroll(seat("{}"));
    assertThat(run.exitCode()).isEqualTo(ExitCodes.REFUSED);
    assertThat(run.err()).contains("non-local topology");
  }

  @Test
  void currentProfileIsRequired() {
    CtlFixture.Run run = fx.run("enroll", "--json");
    assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(run.err()).contains("--current-profile");
  }

  private CtlFixture.Run enroll(String seat) {
    return fx.run("enroll", "--current-profile", "--json", "--seat", seat);
  }

  private String seat(String scenarioJson) throws IOException {
    Path file = Files.createTempFile(dir, "scenario", ".json");
    Files.writeString(file, scenarioJson);
    return "scripted:" + file;
  }
}

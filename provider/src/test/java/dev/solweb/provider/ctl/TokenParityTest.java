package dev.solweb.provider.ctl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.solweb.provider.platform.MachineId;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * `solwebctl token` is answered twice: in bash by bin/solwebctl (Pi's hot path, no JVM) and in
 * Java by TokenCommand. Both run here as real processes over the same files; stdout, stderr and
 * the exit code must be byte-identical, and must be what the contract says.
 */
class TokenParityTest {

  @TempDir Path dir;
  private CtlFixture fx;
  private Path tokenFile;

  record Result(int exitCode, String out, String err) {}

  @BeforeEach
  void setUp() throws IOException {
    fx = new CtlFixture(dir);
    tokenFile = fx.home.resolve("solwebd.token");
  }

  @AfterEach
  void tearDown() {
    fx.close();
  }

  @Test
  void validTokenIsPrintedAloneByBothPaths() throws Exception {
    fx.writeToken(CtlFixture.TOKEN + "\n", "rw-------");
    assertBoth(0, CtlFixture.TOKEN + "\n", "");
  }

  @Test
  void tokenWithoutTrailingNewlineIsAccepted() throws Exception {
    fx.writeToken(CtlFixture.TOKEN, "rw-------");
    assertBoth(0, CtlFixture.TOKEN + "\n", "");
  }

  @Test
  void missingTokenFileIsRefused() throws Exception {
    assertRefused("token file " + tokenFile + " does not exist");
  }

  @Test
  void symlinkIsNotARegularFile() throws Exception {
    Path real = dir.resolve("real.token");
    fx.writePrivate(real, CtlFixture.TOKEN + "\n");
    Files.createSymbolicLink(tokenFile, real);
    assertRefused("token file " + tokenFile + " is not a regular file");
  }

  @Test
  void directoryIsNotARegularFile() throws Exception {
    Files.createDirectory(tokenFile);
    assertRefused("token file " + tokenFile + " is not a regular file");
  }

  @Test
  void groupReadableModeIsRefused() throws Exception {
    fx.writeToken(CtlFixture.TOKEN + "\n", "rw-r--r--");
    assertRefused("token file " + tokenFile + " has mode 0644, must be 0600");
  }

  @Test
  void readOnlyModeIsRefused() throws Exception {
    fx.writeToken(CtlFixture.TOKEN + "\n", "r--------");
    assertRefused("token file " + tokenFile + " has mode 0400, must be 0600");
  }

  @Test
  void foreignOwnerIsRefused() throws Exception {
    assumeTrue(new CtlFixture(dir.resolve("uid")).ctlEnv().euid() == 0, "chown to another uid needs root");
    fx.writeToken(CtlFixture.TOKEN + "\n", "rw-------");
    Files.setAttribute(tokenFile, "unix:uid", 12345);
    assertRefused("token file " + tokenFile + " is owned by uid 12345, not the current user (uid 0)");
  }

  @Test
  void emptyFileIsRefused() throws Exception {
    fx.writeToken("", "rw-------");
    assertRefused("token file " + tokenFile + " is empty");
  }

  @Test
  void newlineOnlyIsMalformed() throws Exception {
    fx.writeToken("\n", "rw-------");
    assertRefused("token file " + tokenFile + " is malformed");
  }

  @Test
  void secondLineIsMalformed() throws Exception {
    fx.writeToken(CtlFixture.TOKEN + "\nsecond\n", "rw-------");
    assertRefused("token file " + tokenFile + " is malformed");
  }

  @Test
  void kubernetesPodIsANonLocalTopology() throws Exception {
    fx.writeToken(CtlFixture.TOKEN + "\n", "rw-------");
    fx.env.put("KUBERNETES_SERVICE_HOST", "10.43.0.1");
    assertRefused("non-local topology: KUBERNETES_SERVICE_HOST is set (solweb runs only on the workstation)");
  }

  @Test
  void homeEnrolledOnAnotherMachineIsANonLocalTopology() throws Exception {
    fx.writeToken(CtlFixture.TOKEN + "\n", "rw-------");
    Path identity = fx.home.resolve("identity.json");
    fx.writePrivate(identity, "{\"expected_account\":\"a@b.c\",\"profile_dir\":\"/p\",\"machine_id_sha256\":\""
        + "0".repeat(64) + "\"}\n");
    assertRefused("non-local topology: this machine is not the enrolled workstation (machine id hash differs from "
        + identity + ")");
  }

  @Test
  void homeEnrolledOnThisMachineGivesTheToken() throws Exception {
    fx.writeToken(CtlFixture.TOKEN + "\n", "rw-------");
    String hash = MachineId.sha256Of(Path.of("/etc/machine-id"));
    fx.writePrivate(fx.home.resolve("identity.json"),
        "{\n  \"expected_account\" : \"a@b.c\",\n  \"machine_id_sha256\" :\n \"" + hash + "\"\n}\n");
    assertBoth(0, CtlFixture.TOKEN + "\n", "");
  }

  @Test
  void malformedIdentityIsRefused() throws Exception {
    fx.writeToken(CtlFixture.TOKEN + "\n", "rw-------");
    Path identity = fx.home.resolve("identity.json");
    fx.writePrivate(identity, "{\"machine_id_sha256\": \"short\"}");
    assertRefused("identity file " + identity + " is malformed");
  }

  @Test
  void relativeHomeWithTrailingSlashResolvesAlike() throws Exception {
    fx.env.put("SOLWEBD_HOME", "home/");
    assertRefused("token file " + tokenFile + " does not exist");
  }

  @Test
  void defaultHomeIsUnderHome() throws Exception {
    fx.env.remove("SOLWEBD_HOME");
    Path defaultHome = dir.resolve(".overdeck/gptbridge");
    Files.createDirectories(defaultHome);
    Files.writeString(defaultHome.resolve("solwebd.token"), CtlFixture.TOKEN + "\n");
    Files.setPosixFilePermissions(defaultHome.resolve("solwebd.token"), PosixFilePermissions.fromString("rw-------"));
    assertBoth(0, CtlFixture.TOKEN + "\n", "");
  }

  private void assertRefused(String reason) throws Exception {
    assertBoth(ExitCodes.REFUSED, "", "solwebctl token: " + reason + "\n");
  }

  private void assertBoth(int exitCode, String out, String err) throws Exception {
    Result bash = launch(false);
    Result jvm = launch(true);
    assertThat(jvm).as("the JVM path must equal the bash path").isEqualTo(bash);
    assertThat(bash).isEqualTo(new Result(exitCode, out, err));
  }

  private Result launch(boolean jvm) throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(CtlFixture.ROOT.resolve("bin/solwebctl").toString(), "token")
        .directory(dir.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    Map<String, String> env = builder.environment();
    env.clear();
    env.putAll(new HashMap<>(fx.env));
    if (jvm) {
      env.put("SOLWEBCTL_JVM_TOKEN", "1");
    }
    Process process = builder.start();
    byte[] out = process.getInputStream().readAllBytes();
    byte[] err = process.getErrorStream().readAllBytes();
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return new Result(process.exitValue(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
  }
}

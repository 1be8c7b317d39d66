package dev.solweb.provider.ctl;

import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import dev.solweb.provider.daemon.Version;
import dev.solweb.provider.platform.ProcessInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * solwebctl running from an install tree (a root with lib/provider.classpath, as bin/install lays
 * it out) trusts only a daemon whose -cp lies wholly in that tree's lib/ and that reports this
 * build's version. The stand-in processes carry real command lines; health is stubbed.
 */
class InstalledOwnershipTest {

  static final String ACCOUNT = "owner@solweb.invalid";
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;
  private CtlFixture fx;
  private WireMockServer server;
  private Path root;
  private CtlEnv installed;

  @BeforeEach
  void setUp() throws Exception {
    fx = new CtlFixture(dir);
    fx.enroll(ACCOUNT);
    fx.writeToken(CtlFixture.TOKEN + "\n", "rw-------");
    server = new WireMockServer(options().dynamicPort().bindAddress("127.0.0.1"));
    server.start();
    root = Files.createDirectories(dir.resolve("prefix"));
    Files.createDirectories(root.resolve("lib"));
    Files.writeString(root.resolve("lib/provider.classpath"), "@LIB@/solweb-provider.jar:@LIB@/picocli.jar\n");
    installed = CtlEnv.of(fx.env, root);
  }

  @AfterEach
  void tearDown() {
    server.stop();
    fx.close();
  }

  private Process daemonWithClasspath(String classpath) throws Exception {
    Process process = fx.start("bash", "-c", "sleep 600; true", "java", "-Dsolweb.root=" + root, "-cp", classpath,
        ServiceControl.DAEMON_MAIN_CLASS);
    fx.writeState(process.pid(), ProcessInfo.startTicksOf(process.pid()), "gen-1", server.port());
    return process;
  }

  private void serveHealth(Process daemon, String version) {
    HealthStubs.serve(server, HealthStubs.ready(daemon.pid(), "gen-1", ACCOUNT).put("version", version));
  }

  @Test
  void theInstalledDaemonOfThisBuildIsAccepted() throws Exception {
    Process daemon = daemonWithClasspath(root + "/lib/solweb-provider.jar:" + root + "/lib/picocli.jar");
    serveHealth(daemon, Version.current());
    CtlFixture.Run run = fx.run(installed, "health", "--json");
    assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(ExitCodes.OK);
    assertThat(JSON.readTree(run.out()).get("version").asText()).isEqualTo(Version.current());
  }

  @Test
  void aDevelopmentDaemonFromTheRepoIsRefusedByEnsureWithoutStartingAnother() throws Exception {
    Process dev = daemonWithClasspath(CtlFixture.ROOT.resolve("provider/target/classes") + ":" + root + "/lib/picocli.jar");
    serveHealth(dev, Version.current());
    CtlFixture.Run run = fx.run(installed, "ensure", "--seat", "scripted:echo", "--json");
    assertThat(run.exitCode()).isEqualTo(ExitCodes.OWNERSHIP);
    String detail = JSON.readTree(run.out()).get("detail").asText();
    assertThat(detail).contains("is not our installed solwebd", "a development build ("
        + CtlFixture.ROOT.resolve("provider/target/classes") + ")", "not the installed " + root.resolve("lib"));
    assertThat(server.getAllServeEvents()).as("its health is not even asked").isEmpty();
    assertThat(dev.isAlive()).as("never stopped or killed").isTrue();
    assertThat(fx.home.resolve("solwebd.log")).as("no second daemon launched").doesNotExist();
  }

  @Test
  void theSameDevelopmentDaemonIsAcceptedByTheRepoSolwebctl() throws Exception {
    Process dev = daemonWithClasspath(CtlFixture.ROOT.resolve("provider/target/classes").toString());
    serveHealth(dev, "0.1.0-other");
    CtlFixture.Run run = fx.run("health", "--json");
    assertThat(run.exitCode()).as(run.out()).isEqualTo(ExitCodes.OK);
  }

  @Test
  void anInstalledDaemonOfAnotherBuildIsRefused() throws Exception {
    Process old = daemonWithClasspath(root + "/lib/solweb-provider.jar");
    serveHealth(old, "0.0.9+abcdef0123");
    CtlFixture.Run run = fx.run(installed, "health", "--json");
    assertThat(run.exitCode()).isEqualTo(ExitCodes.OWNERSHIP);
    assertThat(JSON.readTree(run.out()).get("detail").asText())
        .contains("runs version 0.0.9+abcdef0123, the installed one is " + Version.current(), "solwebctl stop");
  }

  @Test
  void oneClasspathEntryOutsideTheTreeIsEnoughToRefuse() throws Exception {
    Process mixed = daemonWithClasspath(root + "/lib/solweb-provider.jar:/opt/elsewhere/patch.jar");
    serveHealth(mixed, Version.current());
    CtlFixture.Run run = fx.run(installed, "health", "--json");
    assertThat(run.exitCode()).isEqualTo(ExitCodes.OWNERSHIP);
    assertThat(JSON.readTree(run.out()).get("detail").asText()).contains("runs code from /opt/elsewhere/patch.jar");
  }
}

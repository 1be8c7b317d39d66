package dev.solweb.provider.ctl;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ensure passes on the daemon's own one-line cause when the daemon it launched could not start a seat. */
class EnsureDiagnosticsTest {

  @TempDir Path dir;
  private CtlFixture fx;

  @BeforeEach
  void setUp() throws IOException {
    fx = new CtlFixture(dir);
    fx.env.put("SOLWEBD_PORT", "0");
    fx.env.put("SOLWEBCTL_START_TIMEOUT_S", "60");
    fx.enroll(EnsureStopTest.ACCOUNT);
  }

  @AfterEach
  void tearDown() {
    fx.close();
  }

  @Test
  void aDaemonRefusedBeforeListeningIsReportedWithItsCause() {
    Path missing = dir.resolve("no-chromium");
    CtlFixture.Run run = fx.run("ensure", "--json", "--headless", "--chromium", missing.toString());
    assertThat(run.exitCode()).isEqualTo(ExitCodes.START_FAILED);
    assertThat(run.err()).startsWith("solwebctl ensure: solwebd exited with code 3 before it was ready: cannot start:"
        + " Chromium missing: " + missing + " is not an executable file; fix: install it");
    assertThat(fx.home.resolve("solwebd.state.json")).doesNotExist();
  }

  @Test
  void aDaemonThatExitsAfterListeningBecauseNoSeatStartedIsReportedWithTheSeatsCause() throws Exception {
    // An executable that is not Chromium: the precheck passes, the launch itself fails.
    Path notChromium = Files.writeString(dir.resolve("not-chromium"), "#!/bin/sh\nexit 1\n");
    Files.setPosixFilePermissions(notChromium, PosixFilePermissions.fromString("rwx------"));
    CtlFixture.Run run = fx.run("ensure", "--json", "--headless", "--chromium", notChromium.toString());
    assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.START_FAILED);
    assertThat(run.err()).startsWith("solwebctl ensure: solwebd exited with code 3 before it was ready: seat 0 cannot start: ")
        .contains("(log: " + fx.home.resolve("solwebd.log") + ")").doesNotContain("stale state file");
    assertThat(Files.readString(fx.home.resolve("solwebd.log"))).contains("no seat could start; exiting 3");
    assertThat(fx.home.resolve("solwebd.state.json")).doesNotExist();
  }
}

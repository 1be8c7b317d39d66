package dev.solweb.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Keeps {@code bin/test} honest: every external program that a test (or the killgate proving
 * ground the tests run) starts is in bin/test's install table, so a fresh machine gets it before
 * the tests need it. Adding a test that starts a new program fails here until bin/test installs it.
 */
class EveryStartedProgramIsInstalledTest {

  /** Test sources of every module, and killgate's main code (fakesol, the gate, the bench), which tests run. */
  static List<Path> sourcesThatRunInTests() throws IOException {
    Path root = Repo.root();
    List<Path> roots = new ArrayList<>();
    try (Stream<Path> modules = Files.list(root)) {
      // testkit's own tests are left out: their sources are the scan's examples, not launches.
      modules.filter(m -> Files.isRegularFile(m.resolve("pom.xml")) && !m.getFileName().toString().equals("testkit"))
          .sorted().forEach(m -> roots.add(m.resolve("src/test/java")));
    }
    roots.add(root.resolve("killgate/src/main/java"));
    return roots;
  }

  @Test
  void binTestInstallsEveryProgramTheTestsStart() throws IOException {
    InstallTable table = InstallTable.ofThisCheckout();
    List<LaunchSites.Launch> launches = LaunchSites.in(sourcesThatRunInTests());

    // The scan sees the launches this issue was about (HeadedRig's Xvfb, Chromium, the node clients),
    // so an empty or blind scan cannot pass as a clean one.
    assertThat(launches).extracting(LaunchSites.Launch::program).contains("Xvfb", "chromium", "node", "kill");
    assertThat(launches).as("programs tests start that bin/test's install table (programs=(...)) lacks")
        .filteredOn(l -> table.packageOf(l.program()).isEmpty()).isEmpty();
  }

  @Test
  void theScanFindsEachKindOfLaunchAndSkipsComments() {
    String source = """
        class X {
          void run() throws Exception {
            new ProcessBuilder("Xvfb", "-displayfd", "1").start();
            new ProcessBuilder(List.of("kill", "-s", "TERM")).start();
            Path node = Programs.require("node");
            String script = "#!/bin/sh\\nexec /usr/bin/chromium \\"$@\\"\\n";
            Path pi = ROOT.resolve("tools/pi/node_modules/.bin/pi");
            // new ProcessBuilder("commented-out")
            /* new ProcessBuilder("also-commented") */
            new ProcessBuilder(java, "-cp", "not-a-command").start();
            env.put("PATH", "/usr/local/bin:/usr/bin:/bin");
            process(300, 1, "/usr/bin/java\\0-jar\\0solwebd.jar\\0");
          }
        }
        """;
    assertThat(LaunchSites.in(Path.of("X.java"), source)).extracting(LaunchSites.Launch::program)
        .containsExactly("Xvfb", "kill", "node", "sh", "chromium", "node", "java");
    assertThat(LaunchSites.in(Path.of("X.java"), source).get(0).line()).isEqualTo(3);
  }

  @Test
  void aProgramMissingFromTheTableIsNamed() {
    InstallTable table = InstallTable.parse(List.of("programs=(", "  Xvfb xvfb  # the X server", ")"));
    List<LaunchSites.Launch> launches = LaunchSites.in(Path.of("T.java"), "new ProcessBuilder(\"tmux\").start();");
    assertThat(launches).filteredOn(l -> table.packageOf(l.program()).isEmpty())
        .extracting(LaunchSites.Launch::toString).containsExactly("tmux (T.java:1)");
    assertThat(table.packageOf("Xvfb")).contains("xvfb");
  }

  @Test
  void theTableIsReadAsBinTestReadsIt() {
    InstallTable table = InstallTable.parse(List.of("x=1", "programs=(", "  # program  package", "  /usr/bin/chromium chromium",
        "", "  node nodejs", ")", "node other"));
    assertThat(table.programs()).containsExactly(java.util.Map.entry("/usr/bin/chromium", "chromium"),
        java.util.Map.entry("node", "nodejs"));
    assertThat(table.packageOf("chromium")).contains("chromium");
    assertThatThrownBy(() -> InstallTable.parse(List.of("programs=(", "  node", ")")))
        .hasMessageContaining("line 2").hasMessageContaining("PROGRAM PACKAGE");
    assertThatThrownBy(() -> InstallTable.parse(List.of("programs=(", "  node nodejs")))
        .hasMessageContaining("never closed");
  }
}

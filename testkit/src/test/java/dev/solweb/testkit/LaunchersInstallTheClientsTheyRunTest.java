package dev.solweb.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/killgate} installs the pinned clients its run starts from their lockfiles (Pi always,
 * Claude Code unless {@code --only} leaves check 12 out) through {@code bin/lib.sh}'s one rule,
 * {@code solweb_npm_tools}, which bin/test and bin/demo share. Run on a copy of the launchers in a
 * temporary tree whose {@code npm} and {@code java} only record what they were asked: no registry,
 * no JVM.
 */
class LaunchersInstallTheClientsTheyRunTest {

  @TempDir Path tree;
  private Path fakes;

  @BeforeEach
  void aTreeWithTheLaunchersAndRecordingFakes() throws IOException {
    Path root = Repo.root();
    Files.createDirectories(tree.resolve("bin"));
    for (String launcher : List.of("killgate", "lib.sh")) {
      Files.copy(root.resolve("bin").resolve(launcher), tree.resolve("bin").resolve(launcher));
    }
    // An install tree's classpath list: solweb_java then runs no build.
    Files.createDirectories(tree.resolve("lib"));
    Files.writeString(tree.resolve("lib/killgate.classpath"), "");
    for (String tool : List.of("pi", "ccr", "codex")) {
      Files.createDirectories(tree.resolve("tools").resolve(tool));
      Files.writeString(tree.resolve("tools").resolve(tool).resolve("package-lock.json"), "{}");
    }
    fakes = Files.createDirectories(tree.resolve("fakes"));
    // npm ci --prefix DIR --no-audit --no-fund: recorded, and finished as npm finishes (its .package-lock.json last).
    script("npm", "echo \"$*\" >> " + tree.resolve("npm.log") + "\nmkdir -p \"$3/node_modules\" && echo {} > \"$3/node_modules/.package-lock.json\"\n");
    script("java", "echo \"$*\" >> " + tree.resolve("java.log") + "\n");
  }

  private void script(String name, String body) throws IOException {
    Path file = fakes.resolve(name);
    Files.writeString(file, "#!/bin/sh\n" + body);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  private List<String> run(String... command) throws Exception {
    List<String> argv = new ArrayList<>(List.of(command));
    ProcessBuilder pb = new ProcessBuilder(argv).directory(tree.toFile()).redirectErrorStream(true);
    pb.environment().clear();
    pb.environment().put("PATH", fakes + ":/usr/bin:/bin");
    pb.environment().put("HOME", tree.toString());
    pb.environment().put("JAVA", fakes.resolve("java").toString());
    Process process = pb.start();
    String out = new String(process.getInputStream().readAllBytes());
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(out).isZero();
    return npmCalls();
  }

  private List<String> npmCalls() throws IOException {
    Path log = tree.resolve("npm.log");
    return Files.exists(log) ? Files.readAllLines(log) : List.of();
  }

  private String ci(String tool) {
    return "ci --prefix " + tree.resolve("tools").resolve(tool) + " --no-audit --no-fund";
  }

  @Test
  void helpInstallsNothing() throws Exception {
    assertThat(run(tree.resolve("bin/killgate").toString(), "--help")).isEmpty();
    assertThat(Files.readString(tree.resolve("java.log"))).contains("dev.solweb.killgate.gate.KillGate --help");
  }

  @Test
  void aWholeRunInstallsPiAndClaudeCodeOnceEach() throws Exception {
    assertThat(run(tree.resolve("bin/killgate").toString(), "--seat", "scripted")).containsExactly(ci("pi"), ci("ccr"));
    assertThat(run(tree.resolve("bin/killgate").toString(), "--seat", "scripted")).as("installed: not again")
        .containsExactly(ci("pi"), ci("ccr"));
  }

  @Test
  void onlyTheChecksItRunsDecideTheClients() throws Exception {
    assertThat(run(tree.resolve("bin/killgate").toString(), "--only", "1,5,13")).containsExactly(ci("pi"));
    assertThat(run(tree.resolve("bin/killgate").toString(), "--only=11,12")).containsExactly(ci("pi"), ci("ccr"));
  }

  @Test
  void aLockfileNewerThanTheInstallIsInstalledAgain() throws Exception {
    run(tree.resolve("bin/killgate").toString(), "--only", "1");
    Path modules = tree.resolve("tools/pi/node_modules");
    Files.setLastModifiedTime(modules, FileTime.from(Instant.parse("2026-01-01T00:00:00Z")));
    Files.setLastModifiedTime(tree.resolve("tools/pi/package-lock.json"), FileTime.from(Instant.parse("2026-02-01T00:00:00Z")));

    assertThat(run(tree.resolve("bin/killgate").toString(), "--only", "1")).containsExactly(ci("pi"), ci("pi"));
  }

  @Test
  void aLinkedInstallIsAnotherCheckoutsAndNeverReinstalledFromHere() throws Exception {
    Path elsewhere = Files.createDirectories(tree.resolve("elsewhere/node_modules"));
    Files.createSymbolicLink(tree.resolve("tools/codex/node_modules"), elsewhere);
    Files.setLastModifiedTime(elsewhere, FileTime.from(Instant.parse("2026-01-01T00:00:00Z")));

    assertThat(run("bash", "-c", "source bin/lib.sh; solweb_npm_tools codex")).isEmpty();
    assertThat(elsewhere.resolve(".package-lock.json")).doesNotExist();
  }
}

package dev.solweb.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProgramsTest {
  static final InstallTable TABLE = InstallTable.parse(List.of("programs=(", "Xvfb xvfb", "/opt/x/chromium chromium", ")"));

  @TempDir Path tmp;

  Path executable(Path dir, String name) throws Exception {
    Files.createDirectories(dir);
    Path file = dir.resolve(name);
    Files.writeString(file, "#!/bin/sh\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx------"));
    return file;
  }

  @Test
  void aProgramOnPathIsFoundInTheFirstDirectoryThatHasIt() throws Exception {
    Path second = executable(tmp.resolve("b"), "Xvfb");
    Files.createDirectories(tmp.resolve("a"));
    assertThat(Programs.require("Xvfb", TABLE, tmp.resolve("a") + File.pathSeparator + tmp.resolve("b"))).isEqualTo(second);
  }

  @Test
  void aMissingProgramFailsWithOneLineNamingItsPackageAndBinTest() {
    assertThatThrownBy(() -> Programs.require("Xvfb", TABLE, tmp.toString()))
        .isInstanceOf(Programs.MissingProgram.class)
        .hasMessage("Xvfb is not installed (not on PATH): it comes in Debian's package xvfb; run bin/test, which installs"
            + " every program the tests start (or: apt-get install xvfb)")
        .satisfies(e -> assertThat(e.getStackTrace()).isEmpty())
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
  }

  @Test
  void anAbsolutePathMustBeThatExecutableFile() throws Exception {
    assertThatThrownBy(() -> Programs.require("/opt/x/chromium", TABLE, tmp.toString()))
        .isInstanceOf(Programs.MissingProgram.class)
        .hasMessageStartingWith("/opt/x/chromium is not installed: it comes in Debian's package chromium;");
    Files.createDirectories(tmp.resolve("dir/chromium"));
    assertThat(Programs.locate(tmp.resolve("dir/chromium").toString(), null)).isEmpty();
    Path file = executable(tmp.resolve("bin"), "chromium");
    assertThat(Programs.locate(file.toString(), null)).contains(file);
  }

  @Test
  void aProgramTheTableLacksIsAProgrammingErrorThatSaysToAddIt() {
    assertThatThrownBy(() -> Programs.require("tmux", TABLE, tmp.toString()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("tmux is not in bin/test's install table").hasMessageContaining("add it");
  }

  @Test
  void theRealTableHasTheProgramsThisIssueWasAbout() {
    assertThat(InstallTable.ofThisCheckout().packageOf("Xvfb")).contains("xvfb");
    assertThat(InstallTable.ofThisCheckout().packageOf("chromium")).contains("chromium");
  }
}

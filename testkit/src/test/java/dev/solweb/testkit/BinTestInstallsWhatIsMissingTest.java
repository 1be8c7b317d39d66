package dev.solweb.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/test --missing} on a PATH that holds only what the script itself runs: it names the
 * package of every program on PATH that is absent, once each, and drops one as soon as it is there.
 * That is the decision bin/test acts on before it calls apt-get.
 */
class BinTestInstallsWhatIsMissingTest {
  @TempDir Path tmp;

  List<String> missing(Path... pathDirs) throws Exception {
    StringBuilder path = new StringBuilder();
    for (Path dir : pathDirs) {
      path.append(path.isEmpty() ? "" : File.pathSeparator).append(dir);
    }
    ProcessBuilder pb = new ProcessBuilder(Repo.root().resolve("bin/test").toString(), "--missing")
        .redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    pb.environment().clear();
    pb.environment().put("PATH", path.toString());
    Process process = pb.start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(out).isZero();
    return out.lines().toList();
  }

  /** A directory with the few programs the script's own first lines need (bash for its shebang). */
  Path scriptTools() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("tools"));
    for (String tool : List.of("bash", "dirname", "readlink")) {
      // copies, not links: JUnit warns about every link out of a temp dir it deletes
      Files.copy(Programs.locate(tool, System.getenv("PATH")).orElseThrow(), dir.resolve(tool), StandardCopyOption.COPY_ATTRIBUTES);
    }
    return dir;
  }

  @Test
  void aMachineWithoutXvfbGetsXvfbInstalledAndOnceItIsThereNot() throws Exception {
    Path tools = scriptTools();
    List<String> bare = missing(tools);
    assertThat(bare).contains("xvfb", "nodejs", "npm", "maven", "openjdk-17-jdk-headless", "procps").doesNotHaveDuplicates();

    Path xvfb = Files.createDirectories(tmp.resolve("xvfb"));
    Files.writeString(xvfb.resolve("Xvfb"), "#!/bin/sh\n");
    Files.setPosixFilePermissions(xvfb.resolve("Xvfb"), PosixFilePermissions.fromString("rwx------"));
    assertThat(missing(tools, xvfb)).doesNotContain("xvfb").contains("nodejs");
  }
}

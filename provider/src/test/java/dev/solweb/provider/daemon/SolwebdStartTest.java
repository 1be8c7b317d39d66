package dev.solweb.provider.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import dev.solweb.provider.platform.TokenFile;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** solwebd refuses to start, with a clear message and exit 3, when it would be unsafe. */
class SolwebdStartTest {
  @TempDir Path home;

  private int run(StringWriter err, String... args) {
    CommandLine command = new CommandLine(new Solwebd());
    command.setErr(new PrintWriter(err, true));
    command.setOut(new PrintWriter(new StringWriter(), true));
    return command.execute(args);
  }

  @Test
  void refusesANonLoopbackBindAddress() {
    StringWriter err = new StringWriter();

    int exit = run(err, "--host", "0.0.0.0", "--seat", "scripted:demo", "--home", home.toString(), "--port", "0");

    assertThat(exit).isEqualTo(Solwebd.EXIT_CANNOT_START);
    assertThat(err.toString()).contains("refusing to bind 0.0.0.0", "loopback");
    assertThat(home.resolve(TokenFile.NAME)).doesNotExist();
  }

  @Test
  void refusesATokenFileThatOthersCanRead() throws Exception {
    Path token = home.resolve(TokenFile.NAME);
    Files.writeString(token, "secret-value\n");
    Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-r--r--"));
    StringWriter err = new StringWriter();

    int exit = run(err, "--seat", "scripted:demo", "--home", home.toString(), "--port", "0");

    assertThat(exit).isEqualTo(Solwebd.EXIT_CANNOT_START);
    assertThat(err.toString()).contains(token.toString(), "has mode 0644, must be 0600").doesNotContain("secret-value");
  }

  @Test
  void refusesAnUnknownSeatRatherThanFallingBackToAnother() {
    StringWriter err = new StringWriter();

    int exit = run(err, "--seat", "fake", "--home", home.toString(), "--port", "0");

    assertThat(exit).isEqualTo(Solwebd.EXIT_CANNOT_START);
    assertThat(err.toString()).contains("unknown seat 'fake'");
  }

  @Test
  void refusesAScenarioThatDoesNotExist() {
    StringWriter err = new StringWriter();

    int exit = run(err, "--seat", "scripted:no-such-scenario", "--home", home.toString(), "--port", "0");

    assertThat(exit).isEqualTo(Solwebd.EXIT_CANNOT_START);
    assertThat(err.toString()).contains("no-such-scenario", "bundled: demo");
  }
}

package dev.solweb.testkit;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The external programs tests start. A test asks for each one here before it starts it, so that
 * on a machine that lacks it (someone running {@code mvn} without {@code bin/test}) it fails with
 * one line naming the program, its package and {@code bin/test}, instead of an IOException trace
 * from deep inside a fixture.
 */
public final class Programs {
  private Programs() {
  }

  /**
   * The executable for {@code program} (an absolute path, or a name looked up on PATH).
   *
   * @throws MissingProgram when it is not there
   * @throws IllegalStateException when {@code program} is not in bin/test's install table: then
   *     bin/test would never install it, and the table must gain it
   */
  public static Path require(String program) {
    return require(program, InstallTable.ofThisCheckout(), System.getenv("PATH"));
  }

  static Path require(String program, InstallTable table, String path) {
    String debianPackage = table.packageOf(program).orElseThrow(() -> new IllegalStateException(
        "Programs.require(\"" + program + "\"): " + program + " is not in bin/test's install table (programs=(...)); "
            + "add it with its Debian package, so bin/test installs it on a fresh machine"));
    return locate(program, path).orElseThrow(() -> new MissingProgram(program + " is not installed"
        + (program.startsWith("/") ? "" : " (not on PATH)") + ": it comes in Debian's package " + debianPackage
        + "; run bin/test, which installs every program the tests start (or: apt-get install " + debianPackage + ")"));
  }

  static Optional<Path> locate(String program, String path) {
    if (program.startsWith("/")) {
      Path file = Path.of(program);
      return Files.isExecutable(file) && !Files.isDirectory(file) ? Optional.of(file) : Optional.empty();
    }
    if (path == null) {
      return Optional.empty();
    }
    for (String dir : path.split(File.pathSeparator)) {
      if (dir.isEmpty()) {
        continue;
      }
      Path file = Path.of(dir, program);
      if (Files.isExecutable(file) && !Files.isDirectory(file)) {
        return Optional.of(file);
      }
    }
    return Optional.empty();
  }

  /**
   * A program a test needs is not on this machine: a one-line failure. It carries no stack trace,
   * since where the fixture asked is not the news; the message says what to run.
   */
  public static final class MissingProgram extends AssertionError {
    private static final long serialVersionUID = 1L;

    MissingProgram(String message) {
      super(message);
      setStackTrace(new StackTraceElement[0]);
    }
  }
}

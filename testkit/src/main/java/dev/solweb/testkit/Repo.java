package dev.solweb.testkit;

import java.nio.file.Files;
import java.nio.file.Path;

/** The checkout the tests run in, found from the module directory Maven runs each module's tests in. */
public final class Repo {
  private Repo() {
  }

  /** The repository's root: the nearest directory at or above the working directory holding {@code bin/test}. */
  public static Path root() {
    Path start = Path.of(System.getProperty("user.dir")).toAbsolutePath().normalize();
    for (Path dir = start; dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve("bin/test")) && Files.isRegularFile(dir.resolve("pom.xml"))) {
        return dir;
      }
    }
    throw new IllegalStateException("no solweb checkout (a directory with bin/test and pom.xml) at or above " + start);
  }
}

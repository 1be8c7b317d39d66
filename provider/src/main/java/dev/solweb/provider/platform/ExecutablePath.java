package dev.solweb.provider.platform;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** A program looked up on a {@code PATH} value, as a shell would: the first executable of that name. */
public final class ExecutablePath {

  private ExecutablePath() {}

  /** @param path a {@code PATH} value, or null or empty (then nothing is found) */
  public static Optional<Path> find(String program, String path) {
    if (path == null || path.isEmpty()) {
      return Optional.empty();
    }
    for (String dir : path.split(File.pathSeparator)) {
      Path candidate = Path.of(dir.isEmpty() ? "." : dir, program);
      if (Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }
}

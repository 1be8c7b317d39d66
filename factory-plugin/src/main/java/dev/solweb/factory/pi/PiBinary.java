package dev.solweb.factory.pi;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Finds the pinned Pi: {@code PI_BIN} if set, else {@code <SOLWEB_ROOT>/tools/pi/node_modules/.bin/pi}
 * (installed by {@code npm ci --prefix tools/pi}; {@code bin/factory-gpt} sets SOLWEB_ROOT). A
 * {@code pi} that merely happens to be on PATH is not used: it may be another version than the
 * one the provider was proven against.
 */
public final class PiBinary {

  public static final String ENV = "PI_BIN";
  public static final String ROOT_ENV = "SOLWEB_ROOT";

  private PiBinary() {}

  public static Optional<Path> locate(Map<String, String> env) {
    String explicit = env.get(ENV);
    if (explicit != null && !explicit.isBlank()) {
      Path bin = Path.of(explicit);
      return Files.isExecutable(bin) ? Optional.of(bin) : Optional.empty();
    }
    String root = env.get(ROOT_ENV);
    if (root != null && !root.isBlank()) {
      Path bin = Path.of(root, "tools", "pi", "node_modules", ".bin", "pi");
      if (Files.isExecutable(bin)) {
        return Optional.of(bin);
      }
    }
    return Optional.empty();
  }

  /** The message for a missing Pi, naming both ways to provide it. */
  public static String missingMessage(Map<String, String> env) {
    return "pinned Pi not found: set PI_BIN, or run `npm ci --prefix tools/pi` in the solweb checkout"
        + (env.get(ROOT_ENV) == null ? "" : " (" + env.get(ROOT_ENV) + ")");
  }
}

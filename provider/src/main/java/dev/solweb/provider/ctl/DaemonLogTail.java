package dev.solweb.provider.ctl;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Reads why a daemon that ensure launched did not come up: solwebd prints each start failure as
 * one line ("solwebd: cannot start: ..." or "solwebd: seat N cannot start: ..."), and ensure
 * appends its output to the log, so the last such line written since the launch is the cause.
 */
final class DaemonLogTail {
  private static final int MAX_READ = 1 << 20;

  private DaemonLogTail() {}

  static Optional<String> causeSince(Path log, long offset) {
    String text;
    try (RandomAccessFile file = new RandomAccessFile(log.toFile(), "r")) {
      long start = Math.max(offset, file.length() - MAX_READ);
      byte[] bytes = new byte[(int) Math.max(0, file.length() - start)];
      file.seek(start);
      file.readFully(bytes);
      text = new String(bytes, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return Optional.empty();
    }
    String cause = null;
    for (String line : text.split("\n")) {
      if (line.startsWith("solwebd: ") && line.contains("cannot start")) {
        cause = line.substring("solwebd: ".length()).strip();
      }
    }
    return Optional.ofNullable(cause);
  }
}

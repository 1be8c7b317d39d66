package dev.solweb.provider.http.operator;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The last lines of the daemon's log ({@code <home>/solwebd.log}, java.util.logging records and
 * what solwebctl ensure appended): at most {@value #MAX_BYTES} bytes are read from its end, so a
 * large log costs the page nothing. The log never holds the token (GUIDE: never in logs).
 */
final class LogTail {
  static final int MAX_BYTES = 64 * 1024;
  static final int MAX_LINES = 200;

  private LogTail() {}

  /** The last {@code lines} lines (at most {@value #MAX_LINES}), oldest first; empty when there is no log. */
  static List<String> last(Path log, int lines) throws IOException {
    if (log == null || !Files.isRegularFile(log)) {
      return List.of();
    }
    byte[] bytes;
    boolean cut;
    try (RandomAccessFile file = new RandomAccessFile(log.toFile(), "r")) {
      long start = Math.max(0, file.length() - MAX_BYTES);
      cut = start > 0;
      bytes = new byte[(int) (file.length() - start)];
      file.seek(start);
      file.readFully(bytes);
    }
    List<String> all = new ArrayList<>(Arrays.asList(new String(bytes, StandardCharsets.UTF_8).split("\r?\n")));
    if (cut && !all.isEmpty()) {
      all.remove(0); // the first line read is only the end of a line
    }
    while (!all.isEmpty() && all.get(all.size() - 1).isEmpty()) {
      all.remove(all.size() - 1);
    }
    int keep = Math.min(Math.min(lines, MAX_LINES), all.size());
    return List.copyOf(all.subList(all.size() - keep, all.size()));
  }
}

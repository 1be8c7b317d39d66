package dev.solweb.provider.ctl;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What Linux /proc says about one pid. Start ticks (field 22 of /proc/&lt;pid&gt;/stat, clock ticks
 * since boot) tell a process apart from a later one that reuses its pid.
 */
public record ProcessInfo(long pid, long startTicks, int uid, List<String> cmdline) {

  /** The live process with this pid, or empty when there is none. */
  public static Optional<ProcessInfo> of(Path proc, long pid) {
    Path dir = proc.resolve(Long.toString(pid));
    try {
      String stat = Files.readString(dir.resolve("stat"), StandardCharsets.UTF_8);
      // comm (field 2) may hold spaces and parens: fields resume after the last ')'.
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
      long startTicks = Long.parseLong(fields[19]);
      int uid = -1;
      for (String line : Files.readAllLines(dir.resolve("status"), StandardCharsets.UTF_8)) {
        if (line.startsWith("Uid:")) {
          uid = Integer.parseInt(line.substring(4).trim().split("\\s+")[1]);
        }
      }
      String raw = Files.readString(dir.resolve("cmdline"), StandardCharsets.UTF_8);
      List<String> cmdline = raw.isEmpty() ? List.of() : List.of(raw.split("\0"));
      return Optional.of(new ProcessInfo(pid, startTicks, uid, cmdline));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /** Start ticks of a live pid, as the daemon records them (for tests and the state file). */
  public static long startTicksOf(long pid) {
    return of(Path.of("/proc"), pid)
        .orElseThrow(() -> new IllegalStateException("no process " + pid))
        .startTicks();
  }
}

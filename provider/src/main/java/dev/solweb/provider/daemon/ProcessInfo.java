package dev.solweb.provider.daemon;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

/** Facts about a Linux process, read from {@code /proc}. */
public final class ProcessInfo {
  private ProcessInfo() {}

  /**
   * The process start time in clock ticks since boot (field 22 of {@code /proc/<pid>/stat}):
   * with the pid it identifies a process even after its pid is reused.
   */
  public static OptionalLong startTicks(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      // The command name (field 2) may hold spaces and parentheses: split after its last ')'.
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return OptionalLong.of(Long.parseLong(fields[19]));
    } catch (IOException | RuntimeException e) {
      return OptionalLong.empty();
    }
  }
}

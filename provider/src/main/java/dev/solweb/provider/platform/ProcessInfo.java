package dev.solweb.provider.platform;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What Linux /proc says about one pid: the one reader of {@code /proc/<pid>/stat}, {@code status}
 * and {@code cmdline} for the whole project. Start ticks (field 22 of stat, clock ticks since
 * boot) tell a process apart from a later one that reuses its pid.
 *
 * @param state the stat state letter ({@code R}, {@code S}, {@code Z} for a zombie, ...)
 * @param ppid the parent pid
 * @param pgrp the process group id
 * @param cmdline the NUL-separated arguments; a process that rewrote its command line (Chromium's
 *     zygote children) shows one space-joined string here
 */
public record ProcessInfo(long pid, char state, long ppid, long pgrp, long startTicks, int uid, List<String> cmdline) {
  public static final Path PROC = Path.of("/proc");

  /** The live process with this pid, or empty when there is none. */
  public static Optional<ProcessInfo> of(Path proc, long pid) {
    Path dir = proc.resolve(Long.toString(pid));
    try {
      String stat = Files.readString(dir.resolve("stat"), StandardCharsets.UTF_8);
      // comm (field 2) may hold spaces and parens: fields resume after the last ')'.
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
      char state = fields[0].charAt(0);
      long ppid = Long.parseLong(fields[1]);
      long pgrp = Long.parseLong(fields[2]);
      long startTicks = Long.parseLong(fields[19]);
      int uid = -1;
      for (String line : Files.readAllLines(dir.resolve("status"), StandardCharsets.UTF_8)) {
        if (line.startsWith("Uid:")) {
          uid = Integer.parseInt(line.substring(4).trim().split("\\s+")[1]);
        }
      }
      String raw = Files.readString(dir.resolve("cmdline"), StandardCharsets.UTF_8);
      List<String> cmdline = raw.isEmpty() ? List.of() : List.of(raw.split("\0"));
      return Optional.of(new ProcessInfo(pid, state, ppid, pgrp, startTicks, uid, cmdline));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /** {@link #of(Path, long)} on the real {@code /proc}. */
  public static Optional<ProcessInfo> of(long pid) {
    return of(PROC, pid);
  }

  /** Every process {@code proc} lists (those that end while it is read are left out). */
  public static List<ProcessInfo> all(Path proc) {
    List<ProcessInfo> all = new ArrayList<>();
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(proc, "[0-9]*")) {
      for (Path dir : dirs) {
        of(proc, Long.parseLong(dir.getFileName().toString())).ifPresent(all::add);
      }
    } catch (IOException | NumberFormatException e) {
      return all;
    }
    return all;
  }

  /** False for a zombie: it has exited and only awaits its reaper. */
  public boolean running() {
    return state != 'Z';
  }

  /**
   * Whether {@code pid} still runs. {@link ProcessHandle#isAlive()} (kill 0) reports a zombie as
   * alive; on a machine whose init does not reap orphans that is every exited daemon.
   */
  public static boolean isRunning(long pid) {
    return of(pid).map(ProcessInfo::running).orElse(false);
  }

  /** Start ticks of a live pid, as the daemon records them (for tests and the state file). */
  public static long startTicksOf(long pid) {
    return of(PROC, pid)
        .orElseThrow(() -> new IllegalStateException("no process " + pid))
        .startTicks();
  }
}

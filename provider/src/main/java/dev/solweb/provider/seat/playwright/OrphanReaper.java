package dev.solweb.provider.seat.playwright;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Finds and ends Chromium processes left running on a profile, for example by a daemon that was
 * killed with SIGKILL. Only called while holding the {@link ProfileLock}, so any process still on
 * the profile belongs to no live daemon. Processes are matched by the exact
 * {@code --user-data-dir=<profile>} argument in {@code /proc/<pid>/cmdline}.
 */
public final class OrphanReaper {

  private OrphanReaper() {}

  /** The pids of processes whose command line names {@code profileDir} as their user data dir. */
  public static List<Long> find(Path profileDir) {
    String wanted = "--user-data-dir=" + profileDir.toAbsolutePath().normalize();
    long self = ProcessHandle.current().pid();
    List<Long> pids = new ArrayList<>();
    try (DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
      for (Path proc : procs) {
        long pid = Long.parseLong(proc.getFileName().toString());
        if (pid != self && cmdlineHas(proc.resolve("cmdline"), wanted)) {
          pids.add(pid);
        }
      }
    } catch (IOException e) {
      return pids;
    }
    return pids;
  }

  private static boolean cmdlineHas(Path cmdline, String wanted) {
    try {
      byte[] raw = Files.readAllBytes(cmdline);
      for (String arg : new String(raw, StandardCharsets.UTF_8).split("\0")) {
        if (arg.equals(wanted)) {
          return true;
        }
      }
      return false;
    } catch (IOException | SecurityException e) {
      return false; // the process ended or is not ours to read
    }
  }

  /** Kills every process on the profile and waits briefly for them to go; returns how many. */
  public static int reap(Path profileDir) {
    List<ProcessHandle> victims = new ArrayList<>();
    for (long pid : find(profileDir)) {
      ProcessHandle.of(pid).ifPresent(handle -> {
        handle.destroyForcibly();
        victims.add(handle);
      });
    }
    for (ProcessHandle victim : victims) {
      try {
        victim.onExit().get(3, TimeUnit.SECONDS);
      } catch (Exception e) {
        // A zombie awaiting its parent is already harmless: it holds no profile files.
      }
    }
    return victims.size();
  }
}

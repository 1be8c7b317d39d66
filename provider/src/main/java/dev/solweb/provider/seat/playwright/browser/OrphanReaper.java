package dev.solweb.provider.seat.playwright.browser;

import dev.solweb.provider.ctl.ProcessInfo;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Finds and ends Chromium processes left running on a profile, for example by a daemon that was
 * killed with SIGKILL. Only called while holding the {@link dev.solweb.provider.seat.playwright.browser.ProfileLock},
 * so any process still on the profile belongs to no live daemon.
 *
 * <p>A process is on the profile when its command line carries the exact
 * {@code --user-data-dir=<profile>} argument, or descends from one that does. Chromium's zygote
 * children (renderers, GPU, utility) rewrite their command line into one space-joined string, and
 * some never had the argument: they are found by the space-separated token and by parentage.
 */
public final class OrphanReaper {

  private OrphanReaper() {}

  /** The pids of processes on {@code profileDir}: named there, or descended from one that is. */
  public static List<Long> find(Path profileDir) {
    return find(ProcessInfo.PROC, profileDir, ProcessHandle.current().pid());
  }

  static List<Long> find(Path proc, Path profileDir, long self) {
    String wanted = "--user-data-dir=" + profileDir.toAbsolutePath().normalize();
    List<ProcessInfo> all = ProcessInfo.all(proc);
    Map<Long, List<Long>> children = new HashMap<>();
    Set<Long> found = new LinkedHashSet<>();
    for (ProcessInfo process : all) {
      children.computeIfAbsent(process.ppid(), parent -> new ArrayList<>()).add(process.pid());
      if (process.pid() != self && names(process.cmdline(), wanted)) {
        found.add(process.pid());
      }
    }
    List<Long> frontier = new ArrayList<>(found);
    while (!frontier.isEmpty()) {
      long parent = frontier.remove(frontier.size() - 1);
      for (long child : children.getOrDefault(parent, List.of())) {
        if (child != self && found.add(child)) {
          frontier.add(child);
        }
      }
    }
    return List.copyOf(found);
  }

  private static boolean names(List<String> cmdline, String wanted) {
    for (String arg : cmdline) {
      if (arg.equals(wanted) || (" " + arg + " ").contains(" " + wanted + " ")) {
        return true;
      }
    }
    return false;
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

package dev.solweb.factory.pi;

import dev.solweb.provider.platform.ProcessInfo;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Ends a process spawned through {@code setsid} together with everything it started.
 *
 * <p>{@code kill -- -pgid} alone is not enough for Pi: its bash tool spawns each command with
 * Node's {@code detached: true}, i.e. in a session and process group of its own (pi-coding-agent
 * core/tools/bash.js), so a tool's {@code sleep 1000} is NOT in Pi's group. Pi kills those groups
 * from its own SIGTERM handler, but a SIGKILLed or wedged Pi cannot. So this class, without relying
 * on Pi: freezes Pi's group (SIGSTOP, so nothing new is forked), walks the live descendants by
 * parent pid until the set is stable, freezes their groups too, then SIGKILLs every group found
 * and every descendant. Descendants must be found BEFORE Pi dies: afterwards they are reparented
 * and the lineage is gone.
 */
public final class ProcessGroup {

  private ProcessGroup() {}

  /** The process group id of {@code pid}, from {@code /proc/<pid>/stat}; empty once it is gone. */
  public static Optional<Long> pgidOf(long pid) {
    return ProcessInfo.of(pid).map(ProcessInfo::pgrp);
  }

  /** Kills {@code root}'s process group, every descendant and every descendant's group. */
  public static void killTree(ProcessHandle root) {
    Set<Long> groups = new LinkedHashSet<>();
    Set<Long> pids = new LinkedHashSet<>();
    pids.add(root.pid());
    pgidOf(root.pid()).ifPresent(groups::add);
    signal("STOP", groups, pids);
    for (int round = 0; round < 10; round++) {
      int before = groups.size() + pids.size();
      List<ProcessHandle> descendants = new ArrayList<>(root.descendants().toList());
      for (ProcessHandle child : descendants) {
        pids.add(child.pid());
        pgidOf(child.pid()).ifPresent(groups::add);
      }
      signal("STOP", groups, pids);
      if (groups.size() + pids.size() == before) {
        break;
      }
    }
    signal("KILL", groups, pids);
  }

  /**
   * Sends {@code signal} to each group (as {@code -pgid}) and each pid, via bash's builtin kill
   * (bash is Essential on Debian; the kill(1) binary comes from procps, which is not).
   */
  private static void signal(String signal, Set<Long> groups, Set<Long> pids) {
    List<String> command = new ArrayList<>(List.of("bash", "-c", "kill -s \"$0\" -- \"$@\" 2>/dev/null", signal));
    // Never signal group 0/1 or our own group: a process that shares ours was not spawned by setsid.
    long ownGroup = pgidOf(ProcessHandle.current().pid()).orElse(-1L);
    groups.stream().filter(g -> g > 1 && g != ownGroup).forEach(g -> command.add("-" + g));
    pids.stream().filter(p -> p > 1 && p != ProcessHandle.current().pid()).forEach(p -> command.add(Long.toString(p)));
    if (command.size() == 4) {
      return; // nothing but the script and the signal name
    }
    try {
      Process kill = new ProcessBuilder(command)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD)
          .redirectError(ProcessBuilder.Redirect.DISCARD)
          .start();
      kill.waitFor();
    } catch (IOException e) {
      // No bash: fall back to the JDK, which reaches pids but not groups.
      pids.forEach(p -> ProcessHandle.of(p).ifPresent(ProcessHandle::destroyForcibly));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

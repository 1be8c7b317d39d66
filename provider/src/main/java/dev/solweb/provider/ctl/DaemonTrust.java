package dev.solweb.provider.ctl;

import com.fasterxml.jackson.databind.JsonNode;
import dev.solweb.provider.daemon.StateFile;
import dev.solweb.provider.daemon.Version;
import dev.solweb.provider.platform.ProcessInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Whether a running daemon is ours (seed 001's "Canonical solwebctl"): it runs as this user, its
 * command line is our installed solwebd (from an install tree: every -cp entry in
 * {@code <root>/lib}), /healthz reports the pid and instance_generation of the state file and,
 * installed, this build's version. Each check throws {@link CtlException} with
 * {@link ExitCodes#OWNERSHIP} naming what differs; solwebctl never signals or restarts a daemon
 * that fails one.
 */
final class DaemonTrust {

  private final CtlEnv env;

  DaemonTrust(CtlEnv env) {
    this.env = env;
  }

  /**
   * The process must be our installed solwebd. In an install tree (the root has
   * {@code lib/provider.classpath}) every entry of its {@code -cp} must lie in {@code <root>/lib/}:
   * the code it runs is the installed code, so a development daemon started from a source checkout
   * (classes under {@code provider/target}) is refused even if its main class and port match. From
   * the source repo, a command line naming the repo is enough (that daemon is the repo's own).
   */
  void requireOurDaemon(StateFile state, ProcessInfo process) throws CtlException {
    if (process.uid() != env.euid()) {
      throw new CtlException(ExitCodes.OWNERSHIP,
          "pid " + state.pid() + " runs as uid " + process.uid() + ", not the current user");
    }
    if (!process.cmdline().contains(ServiceControl.DAEMON_MAIN_CLASS)) {
      throw new CtlException(ExitCodes.OWNERSHIP, "pid " + state.pid() + " is not our installed solwebd (no "
          + ServiceControl.DAEMON_MAIN_CLASS + " in its command line)");
    }
    if (env.root() == null) {
      return;
    }
    if (!installTree()) {
      if (process.cmdline().stream().noneMatch(arg -> arg.contains(env.root().toString() + "/"))) {
        throw new CtlException(ExitCodes.OWNERSHIP,
            "pid " + state.pid() + " is not our installed solwebd (not started from " + env.root() + ")");
      }
      return;
    }
    Path lib = env.root().resolve("lib");
    List<String> classpath = classpath(process.cmdline());
    List<String> foreign = classpath.stream().filter(entry -> !Path.of(entry).normalize().startsWith(lib)).toList();
    if (classpath.isEmpty() || !foreign.isEmpty()) {
      String from = foreign.isEmpty() ? "no -cp in its command line" : foreign.get(0);
      boolean dev = from.contains("/target/classes") || from.contains("/.m2/");
      throw new CtlException(ExitCodes.OWNERSHIP, "pid " + state.pid() + " is not our installed solwebd: it runs "
          + (dev ? "a development build (" + from + ")" : "code from " + from) + ", not the installed " + lib
          + ". solwebctl neither adopts nor stops it: stop it where it was started (that checkout's"
          + " bin/solwebctl stop, or POST /shutdown), then ensure again");
    }
  }

  /** Whether this solwebctl runs from an install tree (bin/lib.sh's layout with lib/), not the repo. */
  private boolean installTree() {
    return env.root() != null && Files.isRegularFile(env.root().resolve("lib").resolve("provider.classpath"));
  }

  // The value after -cp/-classpath/--class-path (or --class-path=), split on ':'.
  static List<String> classpath(List<String> cmdline) {
    for (int i = 0; i < cmdline.size(); i++) {
      String arg = cmdline.get(i);
      if ((arg.equals("-cp") || arg.equals("-classpath") || arg.equals("--class-path")) && i + 1 < cmdline.size()) {
        return List.of(cmdline.get(i + 1).split(":"));
      }
      if (arg.startsWith("--class-path=")) {
        return List.of(arg.substring("--class-path=".length()).split(":"));
      }
    }
    return List.of();
  }

  /**
   * An installed solwebctl trusts only a daemon of its own build: after a re-install the daemon
   * still running the old jars reports the old version and is refused until it is stopped.
   */
  void requireInstalledVersion(StateFile state, ProviderHealth health) throws CtlException {
    String installed = Version.current();
    if (installTree() && !installed.equals(health.version())) {
      throw new CtlException(ExitCodes.OWNERSHIP, "solwebd pid " + state.pid() + " runs version "
          + health.version() + ", the installed one is " + installed
          + " (started before the last install); stop it (solwebctl stop --json), then ensure again");
    }
  }

  static void requireSameInstance(StateFile state, JsonNode health) throws CtlException {
    long pid = health.path("pid").asLong(-1);
    String generation = health.path("instance_generation").asText("");
    if (pid != state.pid() || !generation.equals(state.instanceGeneration())) {
      throw new CtlException(ExitCodes.OWNERSHIP, "health on port " + state.port() + " is from another instance"
          + " (pid " + pid + ", generation " + generation + "; the state file says pid " + state.pid()
          + ", generation " + state.instanceGeneration() + ")");
    }
  }
}

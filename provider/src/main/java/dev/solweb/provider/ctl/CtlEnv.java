package dev.solweb.provider.ctl;

import dev.solweb.provider.daemon.StateFile;
import dev.solweb.provider.platform.MachineId;
import dev.solweb.provider.platform.Refused;
import dev.solweb.provider.platform.SolwebHome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Everything solwebctl reads from its surroundings, resolved once: the environment, the daemon
 * home and profile, the install root and the machine files. Production uses {@link #fromSystem};
 * tests build one over temp dirs, so no test touches the real home.
 *
 * @param env the process environment (the daemon is launched with it)
 * @param home the daemon home ({@link SolwebHome}): {@code SOLWEBD_HOME}, else {@code $HOME/.overdeck/gptbridge}
 * @param profileDir the browser profile: {@code SOLWEBD_PROFILE}, else {@code <home>/profile}
 * @param root the install root (the directory holding {@code bin/solwebd}), or null when unknown
 * @param machineIdFile {@code /etc/machine-id}
 * @param dbusMachineIdFile {@code /var/lib/dbus/machine-id}: when present it must agree
 * @param mountInfoFile {@code /proc/self/mountinfo}, to tell a local profile from a network one
 * @param proc {@code /proc}
 */
public record CtlEnv(
    Map<String, String> env,
    Path home,
    Path profileDir,
    Path root,
    Path machineIdFile,
    Path dbusMachineIdFile,
    Path mountInfoFile,
    Path proc) {

  public static final String ROOT_PROPERTY = "solweb.root";
  public static final int DEFAULT_PORT = 8791;

  public CtlEnv {
    env = Map.copyOf(env);
  }

  public static CtlEnv fromSystem() {
    String root = System.getProperty(ROOT_PROPERTY);
    return of(System.getenv(), root == null || root.isEmpty() ? null : Path.of(root));
  }

  /** Resolves the home and profile from {@code env} exactly as bin/solwebctl's token fast path does. */
  public static CtlEnv of(Map<String, String> env, Path root) {
    Path home = SolwebHome.daemonHome(env);
    String profile = env.get("SOLWEBD_PROFILE");
    Path profileDir = profile == null || profile.isEmpty() ? home.resolve("profile") : SolwebHome.absolute(profile);
    return new CtlEnv(env, home, profileDir, root, Path.of("/etc/machine-id"),
        Path.of("/var/lib/dbus/machine-id"), Path.of("/proc/self/mountinfo"), Path.of("/proc"));
  }

  public CtlEnv withMachineFiles(Path machineId, Path dbusMachineId) {
    return new CtlEnv(env, home, profileDir, root, machineId, dbusMachineId, mountInfoFile, proc);
  }

  /** This environment with another browser profile ({@code --profile}). */
  public CtlEnv withProfile(Path profile) {
    return new CtlEnv(env, home, profile, root, machineIdFile, dbusMachineIdFile, mountInfoFile, proc);
  }

  public CtlEnv withMountInfo(Path mountInfo) {
    return new CtlEnv(env, home, profileDir, root, machineIdFile, dbusMachineIdFile, mountInfo, proc);
  }

  public Path tokenFile() {
    return home.resolve("solwebd.token");
  }

  public Path stateFile() {
    return home.resolve("solwebd.state.json");
  }

  /**
   * The daemon's state file, when one was written.
   *
   * @throws CtlException {@link ExitCodes#OWNERSHIP} when it is unreadable or malformed
   */
  public Optional<StateFile> daemonState() throws CtlException {
    try {
      return StateFile.read(stateFile());
    } catch (IOException e) {
      throw new CtlException(ExitCodes.OWNERSHIP,
          "state file " + stateFile() + " is malformed (" + e.getMessage() + "); not trusting it", e);
    }
  }

  public Path identityFile() {
    return home.resolve("identity.json");
  }

  public Path lockFile() {
    return home.resolve("solwebctl.lock");
  }

  public Path daemonLog() {
    return home.resolve("solwebd.log");
  }

  /** solwebctl's own record of launches and stops (never the token). */
  public Path ctlLog() {
    return home.resolve("solwebctl.log");
  }

  /** The port a new daemon listens on: {@code SOLWEBD_PORT}, else 8791 (0 = ephemeral). */
  public int port() throws CtlException {
    String port = env.get("SOLWEBD_PORT");
    if (port == null || port.isEmpty()) {
      return DEFAULT_PORT;
    }
    try {
      int value = Integer.parseInt(port);
      if (value < 0 || value > 65535) {
        throw new NumberFormatException();
      }
      return value;
    } catch (NumberFormatException e) {
      throw new CtlException(ExitCodes.USAGE, "SOLWEBD_PORT must be a port number 0-65535, got: " + port);
    }
  }

  /** The daemon launcher: {@code SOLWEBD_BIN}, else {@code <root>/bin/solwebd}. */
  public Path daemonLauncher() throws CtlException {
    String bin = env.get("SOLWEBD_BIN");
    if (bin != null && !bin.isEmpty()) {
      return Path.of(bin);
    }
    if (root == null) {
      throw new CtlException(ExitCodes.START_FAILED,
          "cannot find bin/solwebd: run solwebctl through bin/solwebctl (it sets -D" + ROOT_PROPERTY + ")");
    }
    return root.resolve("bin").resolve("solwebd");
  }

  /**
   * This machine's id hash, proven unambiguous ({@link MachineId#unambiguousSha256}).
   *
   * @throws CtlException {@link ExitCodes#REFUSED} "ambiguous machine identity: ..."
   */
  public String machineIdSha256() throws CtlException {
    try {
      return MachineId.unambiguousSha256(machineIdFile, dbusMachineIdFile);
    } catch (Refused e) {
      throw CtlException.refused(e);
    }
  }

  /** The effective uid of this process, from /proc/self/status (Java has no portable getuid). */
  public int euid() {
    try {
      for (String line : Files.readAllLines(proc.resolve("self").resolve("status"))) {
        if (line.startsWith("Uid:")) {
          return Integer.parseInt(line.substring(4).trim().split("\\s+")[1]);
        }
      }
    } catch (IOException | RuntimeException e) {
      throw new IllegalStateException("cannot read the effective uid from /proc/self/status", e);
    }
    throw new IllegalStateException("/proc/self/status has no Uid: line");
  }
}

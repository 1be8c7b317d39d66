package dev.solweb.provider.ctl;

import com.fasterxml.jackson.databind.JsonNode;
import dev.solweb.provider.daemon.StateFile;
import dev.solweb.provider.dispatch.HealthSnapshot;
import dev.solweb.provider.platform.HostName;
import dev.solweb.provider.platform.Poll;
import dev.solweb.provider.platform.ProcessInfo;
import dev.solweb.provider.platform.SecureFile;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Service control for one daemon home: observe, ensure (start at most one daemon), stop. The
 * commands only parse flags and print; every rule of seed 001's "Canonical solwebctl" lives here.
 *
 * <p>Trust: a daemon is ours only when the state file's pid is alive, its /proc start ticks equal
 * the recorded ones, it runs as this user, its command line is our installed solwebd (from an
 * install tree: every -cp entry in {@code <root>/lib}), and /healthz (asked with the token) reports
 * the same pid and instance_generation (and, installed, this build's version). Anything else
 * fails closed with {@link ExitCodes#OWNERSHIP} ({@link DaemonTrust}); solwebctl never signals or restarts a daemon.
 */
public final class ServiceControl {

  public static final String DAEMON_MAIN_CLASS = "dev.solweb.provider.daemon.Solwebd";
  static final Duration POLL = Duration.ofMillis(100);

  private final CtlEnv env;
  private final Duration startTimeout;
  private final String host;
  private final DaemonTrust trust;

  public ServiceControl(CtlEnv env, Duration startTimeout) {
    this.env = env;
    this.trust = new DaemonTrust(env);
    this.startTimeout = startTimeout;
    this.host = HostName.get().orElse("localhost");
  }

  /** The startup timeout: {@code SOLWEBCTL_START_TIMEOUT_S}, else 120 s (a browser seat is slow to start). */
  public static Duration startTimeout(CtlEnv env) {
    String value = env.env().get("SOLWEBCTL_START_TIMEOUT_S");
    return Duration.ofSeconds(value == null || value.isEmpty() ? 120 : Long.parseLong(value));
  }

  /** health: observes the running daemon; never starts or stops anything. */
  public Outcome health(int minSeats) {
    try {
      Topology.requireLocal(env);
      ProviderIdentity identity = verifiedIdentity();
      Optional<StateFile> state = env.daemonState();
      if (state.isEmpty()) {
        return notRunning();
      }
      return observe(state.get(), identity, minSeats);
    } catch (CtlException e) {
      return refused(e);
    }
  }

  /**
   * ensure: returns the running daemon's health, or starts one and waits for it. Startup is
   * serialized by a lock file, so concurrent ensures launch at most one daemon. A running daemon
   * is never restarted, whatever its state or seat count.
   */
  @SuppressWarnings("try") // the lock is held for the block's duration, not used in it
  public Outcome ensure(LaunchRequest launch) {
    try {
      Topology.requireLocal(env);
      ProviderIdentity identity = verifiedIdentity();
      try (StartLock lock = StartLock.acquire(env.lockFile(), startTimeout.plusSeconds(30))) {
        Optional<StateFile> state = env.daemonState();
        if (state.isPresent()) {
          return waitWhileStarting(state.get(), identity, launch.seats(), Instant.now().plus(startTimeout), null);
        }
        return launchAndWait(launch, identity);
      }
    } catch (CtlException e) {
      return refused(e);
    }
  }

  /**
   * stop: asks our daemon to shut down (POST /shutdown, never a signal) and waits for it to exit.
   * A state file whose process is proven gone (no such pid, or a pid now owned by a process with
   * other start ticks) is removed; that is the only way a stale state file is replaced.
   */
  @SuppressWarnings("try") // the lock is held for the block's duration, not used in it
  public Outcome stop() {
    try {
      Topology.requireLocal(env);
      try (StartLock lock = StartLock.acquire(env.lockFile(), startTimeout.plusSeconds(30))) {
        Optional<StateFile> read = env.daemonState();
        if (read.isEmpty()) {
          return new Outcome(ExitCodes.OK, ProviderHealth.without(endpoint(env.port()), host, "solwebd is not running"));
        }
        StateFile state = read.get();
        Optional<ProcessInfo> process = ProcessInfo.of(env.proc(), state.pid());
        if (process.isEmpty() || process.get().startTicks() != state.processStartTicks()) {
          Files.deleteIfExists(env.stateFile());
          String why = process.isEmpty() ? "was not running" : "now belongs to another process (other start ticks)";
          log("removed stale state file: pid " + state.pid() + " " + why);
          return new Outcome(ExitCodes.OK, ProviderHealth.without(endpoint(state.port()), host,
              "removed stale state file: pid " + state.pid() + " " + why));
        }
        trust.requireOurDaemon(state, process.get());
        DaemonClient client = new DaemonClient(state.port(), ClientToken.read(env));
        JsonNode health;
        try {
          health = client.health();
          DaemonTrust.requireSameInstance(state, health);
          client.shutdown();
        } catch (DaemonClient.Unreachable e) {
          throw new CtlException(ExitCodes.START_FAILED,
              "solwebd pid " + state.pid() + " does not answer on port " + state.port() + "; not stopping it blindly");
        }
        boolean exited = Poll.until(Duration.ofSeconds(30), POLL, () -> ProcessInfo.of(env.proc(), state.pid())
            .filter(p -> p.startTicks() == state.processStartTicks()).isPresent() ? Optional.empty() : Optional.of(true))
            .isPresent();
        if (!exited) {
          return new Outcome(ExitCodes.NOT_READY, ProviderHealth.without(endpoint(state.port()), host,
              "solwebd pid " + state.pid() + " accepted /shutdown but did not exit within 30s"));
        }
        Files.deleteIfExists(env.stateFile());
        log("stopped solwebd pid " + state.pid());
        return new Outcome(ExitCodes.OK,
            ProviderHealth.without(endpoint(state.port()), host, "stopped solwebd pid " + state.pid()));
      }
    } catch (CtlException e) {
      return refused(e);
    } catch (IOException e) {
      return refused(new CtlException(ExitCodes.INTERNAL, "stop failed: " + e.getMessage(), e));
    }
  }

  // Identity first: nothing is started or trusted for a machine/profile that is not the enrolled one.
  private ProviderIdentity verifiedIdentity() throws CtlException {
    ProviderIdentity identity = ProviderIdentity.load(env);
    String machine = env.machineIdSha256();
    if (!machine.equals(identity.machineIdSha256())) {
      throw new CtlException(ExitCodes.REFUSED,
          "identity mismatch: this machine's id hash differs from the enrolled one in " + env.identityFile());
    }
    Path profile = Profile.canonicalLocal(env);
    if (!profile.toString().equals(identity.profileDir())) {
      throw new CtlException(ExitCodes.REFUSED, "identity mismatch: the profile is " + profile
          + ", the enrolled profile is " + identity.profileDir());
    }
    return identity;
  }

  private Outcome launchAndWait(LaunchRequest launch, ProviderIdentity identity) throws CtlException {
    int port = env.port();
    Path launcher = env.daemonLauncher();
    if (!Files.isExecutable(launcher)) {
      throw new CtlException(ExitCodes.START_FAILED, "the daemon launcher " + launcher + " is not executable");
    }
    List<String> command = new ArrayList<>();
    // A session of its own: the daemon outlives this CLI and the terminal's Ctrl-C.
    if (Files.isExecutable(Path.of("/usr/bin/setsid"))) {
      command.add("/usr/bin/setsid");
    }
    command.add(launcher.toString());
    command.addAll(launch.daemonArgs(env, port));
    Process process;
    long logStart;
    try {
      SecureFile.createPrivateDirectories(env.home());
      File log = env.daemonLog().toFile();
      logStart = log.length();
      ProcessBuilder builder = new ProcessBuilder(command)
          .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
          .redirectOutput(ProcessBuilder.Redirect.appendTo(log))
          .redirectErrorStream(true);
      builder.environment().clear();
      builder.environment().putAll(env.env());
      process = builder.start();
    } catch (IOException e) {
      throw new CtlException(ExitCodes.START_FAILED, "cannot start " + launcher + ": " + e.getMessage(), e);
    }
    log("launched solwebd (launcher pid " + process.pid() + ", seat " + launch.seat() + ", seats "
        + launch.seats() + ", port " + port + ")");
    Instant deadline = Instant.now().plus(startTimeout);
    StateFile state = Poll.until(startTimeout, POLL, () -> {
      Optional<StateFile> written = env.daemonState();
      if (written.isEmpty() && !process.isAlive()) {
        throw exitedEarly(process, logStart);
      }
      return written;
    }).orElseThrow(() -> new CtlException(ExitCodes.START_FAILED, "solwebd wrote no state file within "
        + startTimeout.toSeconds() + "s; see " + env.daemonLog()));
    try {
      return waitWhileStarting(state, identity, launch.seats(), deadline, process);
    } catch (CtlException e) {
      // It exited while we watched it start (no seat could start): its own words, not "stale state file"
      // or "not our solwebd" (a process on its way out has no command line left to prove it).
      if (process.isAlive() && !exitsSoon(process)) {
        throw e;
      }
      throw exitedEarly(process, logStart);
    }
  }

  /** The launched daemon exited: its exit code and its own cause line ("solwebd: ... cannot start: ..."). */
  private CtlException exitedEarly(Process process, long logStart) {
    try {
      process.waitFor(5, java.util.concurrent.TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    String cause = DaemonLogTail.causeSince(env.daemonLog(), logStart)
        .map(line -> ": " + line).orElse("; see " + env.daemonLog());
    return new CtlException(ExitCodes.START_FAILED, "solwebd exited with code "
        + (process.isAlive() ? "(still exiting)" : Integer.toString(process.exitValue())) + " before it was ready" + cause);
  }

  // A daemon that is starting (or not yet answering right after its state file appeared) is
  // waited for; any other answer, good or bad, is final.
  // launched: the daemon this ensure started (null for one found running); once it has exited, waiting ends.
  private Outcome waitWhileStarting(StateFile state, ProviderIdentity identity, int minSeats, Instant deadline,
      Process launched) throws CtlException {
    return Poll.until(POLL, () -> {
      Outcome outcome;
      try {
        outcome = observe(state, identity, minSeats);
      } catch (CtlException e) {
        if (e.exitCode() != ExitCodes.START_FAILED || Instant.now().isAfter(deadline)
            || (launched != null && !launched.isAlive())) {
          throw e;
        }
        return Optional.empty();
      }
      if (outcome.health().state().equals("starting") && !Instant.now().isAfter(deadline)) {
        return Optional.empty();
      }
      if (outcome.health().state().equals("starting")) {
        return Optional.of(new Outcome(ExitCodes.START_FAILED, outcome.health().refused(
            "solwebd is still starting after " + startTimeout.toSeconds() + "s; see " + env.daemonLog())));
      }
      if (!outcome.health().ok() && exitsSoon(launched)) {
        // A daemon that gives up (no seat could start) may answer one poll before it goes:
        // its exit and its own cause line are the answer, not that passing state.
        throw new CtlException(ExitCodes.START_FAILED, "solwebd exited while starting");
      }
      return Optional.of(outcome);
    });
  }

  private static boolean exitsSoon(Process launched) {
    if (launched == null) {
      return false;
    }
    try {
      return launched.waitFor(2, java.util.concurrent.TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Proves ownership, asks /healthz and computes ok. @throws CtlException START_FAILED when unreachable */
  private Outcome observe(StateFile state, ProviderIdentity identity, int minSeats) throws CtlException {
    Optional<ProcessInfo> process = ProcessInfo.of(env.proc(), state.pid());
    if (process.isEmpty()) {
      throw new CtlException(ExitCodes.OWNERSHIP, "stale state file " + env.stateFile() + ": pid " + state.pid()
          + " is not running (solwebctl stop --json removes it)");
    }
    if (process.get().startTicks() != state.processStartTicks()) {
      throw new CtlException(ExitCodes.OWNERSHIP, "stale state file " + env.stateFile() + ": pid " + state.pid()
          + " was reused (start ticks " + process.get().startTicks() + ", state file says "
          + state.processStartTicks() + "; solwebctl stop --json removes it)");
    }
    trust.requireOurDaemon(state, process.get());
    JsonNode node;
    try {
      node = new DaemonClient(state.port(), ClientToken.read(env)).health();
    } catch (DaemonClient.Unreachable e) {
      throw new CtlException(ExitCodes.START_FAILED, e.getMessage() + " (pid " + state.pid() + ")", e);
    }
    DaemonTrust.requireSameInstance(state, node);
    ProviderHealth health = parseHealth(node, state);
    trust.requireInstalledVersion(state, health);
    if (health.account() != null && !health.account().equals(identity.expectedAccount())) {
      return new Outcome(ExitCodes.REFUSED, health.refused("account mismatch: the browser is logged into "
          + health.account() + ", the enrolled account is " + identity.expectedAccount() + "; fix: to use "
          + health.account() + ", solwebctl stop, remove " + env.identityFile() + " and run solwebctl login; to use "
          + identity.expectedAccount() + ", solwebctl stop, sign out of " + health.account() + " in the profile, then"
          + " solwebctl login"));
    }
    if (!health.state().equals("ready")) {
      String why = health.detail() != null ? health.detail() : "solwebd is " + health.state();
      return new Outcome(ExitCodes.NOT_READY, health.refused(HealthSnapshot.causeLine(health.state(), why)));
    }
    if (!health.authenticated() || health.account() == null) {
      return new Outcome(ExitCodes.NOT_READY, health.refused("not authenticated: the browser reports no account"));
    }
    List<String> missing = new ArrayList<>(ProviderHealth.REQUIRED_MODELS);
    missing.removeAll(health.models());
    if (!missing.isEmpty()) {
      return new Outcome(ExitCodes.NOT_READY, health.refused("required models missing: " + missing));
    }
    if (health.seats() < minSeats) {
      return new Outcome(ExitCodes.NOT_READY, health.refused("insufficient seats: solwebd runs " + health.seats()
          + ", " + minSeats + " required (a running daemon is never restarted; stop it, then ensure --seats "
          + minSeats + ")"));
    }
    return new Outcome(ExitCodes.OK, new ProviderHealth(true, "ready", health.endpoint(), host, health.account(),
        health.seats(), health.queue(), health.active(), health.models(), true, health.pid(),
        health.processStartTicks(), health.instanceGeneration(), health.version(), null, health.detail()));
  }

  private ProviderHealth parseHealth(JsonNode node, StateFile state) throws CtlException {
    String daemonState = node.path("state").asText("");
    if (!ProviderHealth.STATES.contains(daemonState)) {
      throw new CtlException(ExitCodes.OWNERSHIP, "malformed health: unknown state '" + daemonState + "'");
    }
    String capResumeAt = textOrNull(node, "cap_resume_at");
    if (daemonState.equals("capped") && capResumeAt == null) {
      throw new CtlException(ExitCodes.OWNERSHIP, "malformed health: state capped without cap_resume_at");
    }
    JsonNode seats = node.path("seats");
    List<String> models = new ArrayList<>();
    node.path("models").forEach(model -> models.add(model.isTextual() ? model.asText() : model.path("id").asText()));
    return new ProviderHealth(false, daemonState, endpoint(state.port()), host, textOrNull(node, "account"),
        seats.isArray() ? seats.size() : seats.asInt(0), node.path("queue").asInt(0), node.path("active").asInt(0),
        models, node.path("authenticated").asBoolean(false), state.pid(), state.processStartTicks(),
        state.instanceGeneration(), node.path("version").asText(state.version()), capResumeAt,
        textOrNull(node, "detail"));
  }

  private Outcome notRunning() throws CtlException {
    return new Outcome(ExitCodes.NOT_READY, ProviderHealth.without(endpoint(env.port()), host,
        "solwebd is not running (no " + env.stateFile() + ")"));
  }

  private Outcome refused(CtlException e) {
    int port;
    try {
      port = env.daemonState().map(StateFile::port).orElse(env.port());
    } catch (CtlException unreadable) {
      port = CtlEnv.DEFAULT_PORT;
    }
    return new Outcome(e.exitCode(), ProviderHealth.without(endpoint(port), host, e.getMessage()));
  }

  private static String textOrNull(JsonNode node, String field) {
    JsonNode value = node.get(field);
    return value == null || value.isNull() ? null : value.asText();
  }

  private static String endpoint(int port) {
    return "http://127.0.0.1:" + port + "/v1";
  }

  private void log(String line) {
    try {
      SecureFile.createPrivateDirectories(env.home());
      Files.writeString(env.ctlLog(), Instant.now() + " pid " + ProcessHandle.current().pid() + " " + line + "\n",
          StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    } catch (IOException e) {
      // The log is a convenience; the verb's outcome does not depend on it.
    }
  }
}

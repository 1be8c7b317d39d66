package dev.solweb.provider.ctl;

import dev.solweb.provider.daemon.StateFile;
import dev.solweb.provider.platform.ProcessInfo;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * How {@code solwebctl conversations} reaches the managed conversations: through the solwebd of
 * this home when one runs (its state file names a live process with the same start ticks), else
 * the registry file itself, which only a daemon would otherwise hold.
 */
final class ManagedConversations {

  /** A delete through the daemon waits for the turns ahead of each conversation and the deletes themselves. */
  static final Duration DELETE_WAIT = Duration.ofHours(1);
  static final Duration LIST_WAIT = Duration.ofSeconds(10);

  private ManagedConversations() {}

  static Path registryFile(CtlEnv env) {
    return env.home().resolve("registry.json");
  }

  /** The running daemon of this home, or empty when none runs (no state file, or a stale one). */
  static Optional<DaemonClient> runningDaemon(CtlEnv env) throws CtlException {
    Optional<StateFile> state = env.daemonState();
    if (state.isEmpty()) {
      return Optional.empty();
    }
    boolean alive = ProcessInfo.of(env.proc(), state.get().pid())
        .map(info -> info.startTicks() == state.get().processStartTicks()).orElse(false);
    return alive ? Optional.of(new DaemonClient(state.get().port(), ClientToken.read(env))) : Optional.empty();
  }
}

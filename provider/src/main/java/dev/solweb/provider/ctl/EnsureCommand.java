package dev.solweb.provider.ctl;

import dev.solweb.provider.daemon.SeatMixin;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

@Command(
    header = "Start solwebd unless it runs, verify it, print ProviderHealth.",
    name = "ensure",
    description = {
      "Start solwebd if none runs (serialized: concurrent ensures launch at most one daemon), then",
      "verify it and print ProviderHealth. Requires enrollment; the machine id hash and canonical",
      "profile must match identity.json before anything starts, and the live account must equal",
      "expected_account. A running daemon is never killed or restarted: too few seats, a cap, a",
      "logged-out page or any other state fails. A stale state file fails closed (exit 4);",
      "`solwebctl stop` removes it once the process is proven gone.",
      "",
      "Refusals: non-local topology, not enrolled, identity/account mismatch, wrong token or",
      "identity file owner/mode, stale or reused pid, a pid that is not our installed solwebd,",
      "health from another instance, malformed health, startup timeout ($SOLWEBCTL_START_TIMEOUT_S, 120).",
    })
final class EnsureCommand implements Callable<Integer> {

  @ParentCommand Solwebctl parent;
  @Spec CommandSpec spec;

  @Option(names = "--json", description = "Print ProviderHealth as JSON.")
  boolean json;

  @Option(names = "--seats", paramLabel = "N", defaultValue = "1",
      description = "Minimum seats; a new daemon starts with N. Default: ${DEFAULT-VALUE}.")
  int seats;

  /** Passed on to a daemon this command starts; ignored when one already runs. */
  @Mixin SeatMixin seat;

  @Override
  public Integer call() {
    LaunchRequest launch;
    try {
      launch = new LaunchRequest(seats, seat.seat(), seat.browser().args());
    } catch (IllegalArgumentException e) {
      spec.commandLine().getErr().println("solwebctl ensure: " + e.getMessage());
      return ExitCodes.USAGE;
    }
    CtlEnv env = parent.env.withProfile(seat.profileOr(parent.env.profileDir()));
    ServiceControl control = new ServiceControl(env, ServiceControl.startTimeout(env));
    return Solwebctl.print(spec, "ensure", json, control.ensure(launch));
  }
}

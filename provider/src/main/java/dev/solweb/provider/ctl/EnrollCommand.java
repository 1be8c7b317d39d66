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
    header = "Pin account, profile and machine in identity.json.",
    name = "enroll",
    description = {
      "Pin this workstation's identity in <home>/identity.json (mode 0600, written atomically):",
      "the authenticated account read through the seat's probe, the canonical profile path, and",
      "the SHA-256 of /etc/machine-id. Prints ProviderIdentity. Enrolling again with the same",
      "identity is a no-op; deployment never creates or rewrites it.",
      "",
      "Refusals (exit 3): logged-out profile, unreadable account, non-local profile (missing,",
      "foreign-owned, or on a network filesystem), KUBERNETES_SERVICE_HOST set, an existing",
      "different identity, identity.json with wrong owner or mode, ambiguous machine id",
      "(missing/malformed /etc/machine-id, or a different /var/lib/dbus/machine-id).",
      "The playwright seat opens the profile itself: stop a daemon using it first.",
    })
final class EnrollCommand implements Callable<Integer> {

  @ParentCommand Solwebctl parent;
  @Spec CommandSpec spec;

  @Option(names = "--current-profile", required = true,
      description = "Enroll the current profile ($SOLWEBD_PROFILE, else <home>/profile); required.")
  boolean currentProfile;

  @Option(names = "--json", description = "Print ProviderIdentity as JSON.")
  boolean json;

  @Mixin SeatMixin seat;

  @Override
  public Integer call() {
    try {
      CtlEnv env = parent.env.withProfile(seat.profileOr(parent.env.profileDir()));
      ProviderIdentity identity = new Enrollment(env).enroll(SeatChoice.opener(env, seat));
      spec.commandLine().getOut().println(json ? identity.toJson()
          : "enrolled " + identity.expectedAccount() + " " + identity.profileDir());
      spec.commandLine().getOut().flush();
      return ExitCodes.OK;
    } catch (CtlException e) {
      spec.commandLine().getErr().println("solwebctl enroll: " + e.getMessage());
      return e.exitCode();
    }
  }
}

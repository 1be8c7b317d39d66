package dev.solweb.provider.ctl;

import dev.solweb.provider.platform.SecureFile;
import dev.solweb.provider.seat.BrowserSeat;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.SeatProbe;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * {@code solwebctl enroll --current-profile}: pins the account the profile is logged into, the
 * canonical profile path and this machine's id hash in identity.json. Enrollment is written once;
 * an existing different identity is refused, never rewritten.
 */
final class Enrollment {

  /** Opens the seat enrollment probes; the caller closes it. */
  @FunctionalInterface
  public interface SeatOpener {
    BrowserSeat open() throws CtlException;
  }

  private final CtlEnv env;

  public Enrollment(CtlEnv env) {
    this.env = env;
  }

  /** @throws CtlException {@link ExitCodes#REFUSED} for every refusal in seed 001 */
  public ProviderIdentity enroll(SeatOpener seats) throws CtlException {
    String k8s = env.env().get("KUBERNETES_SERVICE_HOST");
    if (k8s != null && !k8s.isEmpty()) {
      throw new CtlException(ExitCodes.REFUSED,
          "non-local topology: KUBERNETES_SERVICE_HOST is set (solweb runs only on the workstation)");
    }
    String machine = env.machineIdSha256();
    Path profile = Profile.canonicalLocal(env);
    ProviderIdentity existing = null;
    if (Files.exists(env.identityFile(), LinkOption.NOFOLLOW_LINKS)) {
      existing = ProviderIdentity.load(env); // refuses wrong owner, mode or a malformed file
    }
    String account = authenticatedAccount(seats);
    ProviderIdentity identity = new ProviderIdentity(account, profile.toString(), machine);
    if (existing != null) {
      if (existing.equals(identity)) {
        return existing;
      }
      throw new CtlException(ExitCodes.REFUSED, "an existing different identity is enrolled in " + env.identityFile()
          + " (" + existing.expectedAccount() + ", " + existing.profileDir() + "); enrollment is never rewritten,"
          + " remove that file by hand to re-enroll");
    }
    try {
      SecureFile.writeAtomic(env.identityFile(), identity.toJson() + "\n");
    } catch (IOException e) {
      throw new CtlException(ExitCodes.INTERNAL, "cannot write " + env.identityFile() + ": " + e.getMessage(), e);
    }
    return identity;
  }

  private static String authenticatedAccount(SeatOpener seats) throws CtlException {
    try (BrowserSeat seat = seats.open()) {
      SeatProbe probe = seat.probe();
      if (probe.state() == SeatProbe.State.LOGGED_OUT) {
        throw new CtlException(ExitCodes.REFUSED, "logged out: the profile has no authenticated account ("
            + probe.detail() + ")");
      }
      boolean readable = probe.state() == SeatProbe.State.READY || probe.state() == SeatProbe.State.CAPPED;
      if (!readable || probe.account() == null || probe.account().isBlank()) {
        throw new CtlException(ExitCodes.REFUSED, "cannot read the authenticated account: the page is "
            + probe.state().name().toLowerCase() + " (" + probe.detail() + ")");
      }
      return probe.account();
    } catch (SeatException e) {
      throw new CtlException(ExitCodes.REFUSED, "cannot read the authenticated account: " + e.getMessage(), e);
    }
  }
}

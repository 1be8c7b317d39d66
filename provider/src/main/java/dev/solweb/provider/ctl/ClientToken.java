package dev.solweb.provider.ctl;

import dev.solweb.provider.platform.Refused;
import dev.solweb.provider.platform.TokenFile;

/**
 * The daemon's token as a client reads it: the topology first (only on the enrolled workstation),
 * then {@link TokenFile}'s checks, in the order and with the texts of bin/solwebctl's fast path.
 */
public final class ClientToken {
  private ClientToken() {}

  /** The token, without its newline. @throws CtlException {@link ExitCodes#REFUSED} */
  public static String read(CtlEnv env) throws CtlException {
    Topology.requireLocal(env);
    try {
      return TokenFile.read(env.tokenFile(), env.euid());
    } catch (Refused e) {
      throw CtlException.refused(e);
    }
  }
}

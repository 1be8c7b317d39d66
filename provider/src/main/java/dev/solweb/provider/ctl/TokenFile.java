package dev.solweb.provider.ctl;

import java.util.regex.Pattern;

/**
 * The daemon's bearer token, read for a client. Same checks, same order, same texts as the
 * bash fast path in bin/solwebctl (TokenParityTest proves it): topology, then the file.
 */
public final class TokenFile {

  private static final Pattern TOKEN_LINE = Pattern.compile("[A-Za-z0-9_-]+\n?");

  private TokenFile() {}

  /** The token, without its newline. @throws CtlException {@link ExitCodes#REFUSED} */
  public static String read(CtlEnv env) throws CtlException {
    Topology.requireLocal(env);
    String text = SecureFile.readPrivate(env.tokenFile(), "token file", env.euid());
    if (!TOKEN_LINE.matcher(text).matches()) {
      throw new CtlException(ExitCodes.REFUSED, "token file " + env.tokenFile() + " is malformed");
    }
    return text.strip();
  }
}

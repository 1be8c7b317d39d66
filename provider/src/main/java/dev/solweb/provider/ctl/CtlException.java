package dev.solweb.provider.ctl;

import dev.solweb.provider.platform.Refused;

/**
 * Carries an exit code and a one-line reason out of deep code to the command that prints it
 * (jbang's ExitException). The message never contains the token.
 */
public final class CtlException extends Exception {
  private final int exitCode;

  public CtlException(int exitCode, String message) {
    super(message);
    this.exitCode = exitCode;
  }

  public CtlException(int exitCode, String message, Throwable cause) {
    super(message, cause);
    this.exitCode = exitCode;
  }

  /** A platform check's refusal ({@link ExitCodes#REFUSED}), its message unchanged. */
  public static CtlException refused(Refused refused) {
    return new CtlException(ExitCodes.REFUSED, refused.getMessage(), refused);
  }

  public int exitCode() {
    return exitCode;
  }
}

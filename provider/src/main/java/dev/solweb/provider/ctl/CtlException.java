package dev.solweb.provider.ctl;

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

  public int exitCode() {
    return exitCode;
  }
}

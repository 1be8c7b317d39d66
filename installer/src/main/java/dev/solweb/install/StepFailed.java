package dev.solweb.install;

/** One step cannot be done safely; the installer reports it, does the other steps and exits non-zero. */
public final class StepFailed extends Exception {
  private static final long serialVersionUID = 1L;

  public StepFailed(String message) {
    super(message);
  }

  public StepFailed(String message, Throwable cause) {
    super(message, cause);
  }
}

package dev.solweb.factory.cli;

/**
 * factory-gpt's own exit codes, named once. In wrapper mode, once Factory has started, the exit
 * code is Factory's own, unchanged.
 */
public final class FactoryGptExit {
  public static final int OK = 0;
  /** The attempt ran and failed: a typed provider failure, a timeout, a Pi error. */
  public static final int ATTEMPT_FAILED = 1;
  /** Bad arguments (picocli's USAGE). */
  public static final int USAGE = 2;
  /** Preflight refused: nothing was created. */
  public static final int REFUSED = 3;
  /** Factory, Pi or a preset is not installed. */
  public static final int NOT_INSTALLED = 4;
  /** The attempt was cancelled (SIGINT/SIGTERM while a phase ran). */
  public static final int CANCELLED = 5;
  /** A bug: an unexpected exception. */
  public static final int INTERNAL = 6;

  private FactoryGptExit() {}
}

package dev.solweb.provider.ctl;

/**
 * solwebctl's exit codes, named once. Scripts (factory-gpt's preflight, sw) branch on them, so
 * a code never changes meaning. The bash fast path of {@code token} in {@code bin/solwebctl}
 * uses the same numbers.
 */
public final class ExitCodes {
  /** The verb did what it says; for ensure/health the provider is ok. */
  public static final int OK = 0;
  /** The daemon is owned and answered, but is not ok: not running, starting, logged out, capped,
   *  degraded, not authenticated, required models missing or fewer seats than asked for. */
  public static final int NOT_READY = 1;
  /** Bad arguments (picocli's USAGE). */
  public static final int USAGE = 2;
  /** A security or identity refusal: token file, enrollment, account, machine, profile, topology. */
  public static final int REFUSED = 3;
  /** Process ownership could not be proven: stale or malformed state file, reused pid, a process
   *  that is not our solwebd, a health answer from another instance, malformed health. Fails closed. */
  public static final int OWNERSHIP = 4;
  /** The daemon could not be started, or did not answer health before the startup timeout. */
  public static final int START_FAILED = 5;
  /** A bug: an unexpected exception. */
  public static final int INTERNAL = 6;
  /** conversations delete: some named conversations were skipped (in use) or failed; each says why. */
  public static final int INCOMPLETE = 7;

  private ExitCodes() {}
}

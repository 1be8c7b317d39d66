package dev.solweb.provider.sw;

/**
 * sw's exit codes (seed 000 section 5, the wrapper contract). The harness branches on them, so
 * they never change meaning. {@link #FAILED} is the one code the contract table does not name:
 * Claude Code ran and ended with an error that is neither a cap nor an unreachable provider.
 */
final class SwExit {
  /** Claude Code ran to completion. */
  public static final int COMPLETED = 0;
  /** Claude Code ended with an error (not a cap, not an unreachable solwebd, ccr or ChatGPT). */
  public static final int FAILED = 1;
  /** Bad or missing arguments. */
  public static final int USAGE = 2;
  /** solwebd or ccr unreachable or unstartable, ChatGPT logged out, or the tools are not installed. */
  public static final int UNAVAILABLE = 3;
  /** The ChatGPT usage cap; the status line carries resume_at. */
  public static final int CAPPED = 75;
  /** --timeout elapsed and Claude Code was killed. */
  public static final int TIMEOUT = 124;

  private SwExit() {}

  static String statusName(int code) {
    return switch (code) {
      case COMPLETED -> "completed";
      case FAILED -> "failed";
      case USAGE -> "usage";
      case UNAVAILABLE -> "unavailable";
      case CAPPED -> "capped";
      case TIMEOUT -> "timeout";
      default -> throw new IllegalStateException("Unhandled sw exit code: " + code);
    };
  }
}

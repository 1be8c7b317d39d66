package dev.solweb.provider.translate;

/**
 * The request does not extend what the conversation already holds (the client compacted or
 * rewrote its history, or added nothing): open a fresh conversation and type the whole history.
 * A desynced conversation is replaced, never patched.
 */
final class ReplayNeeded extends Exception {
  private final ReplayCause cause;

  ReplayNeeded(ReplayCause cause, String why) {
    super(why, null, false, false);
    this.cause = cause;
  }

  ReplayCause replayCause() {
    return cause;
  }
}

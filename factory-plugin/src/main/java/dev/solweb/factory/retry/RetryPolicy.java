package dev.solweb.factory.retry;

import dev.solweb.factory.pi.PiResult;
import dev.solweb.factory.pi.PiResult.Outcome;
import dev.solweb.provider.failure.ProviderFailure;

/**
 * The retry gate for one attempt (seed 001, "Typed provider failures" 4-7). Factory has no
 * deferred-provider scheduler, so nothing here schedules anything: a decision only says whether
 * Factory's existing policy may retry now.
 *
 * <ul>
 *   <li>{@code capped}: never now; the attempt ends visibly with {@code resume_at} (no automatic
 *       deferral is claimed);
 *   <li>{@code unavailable} (logged out, wrong account, seat broken after its one rebuild),
 *       {@code protocol} (after solwebd's one repair), {@code cancelled}: never now;
 *   <li>{@code context_overflow}: Pi's compaction owns it (compact, retry once); reaching the
 *       receipt means that already failed, so no retry here either;
 *   <li>{@code timeout}: Factory's own timeout lifecycle decides;
 *   <li>an untyped Pi error (no ProviderFailure reached Pi, e.g. connection refused): never now;
 *       retrying blind is how retry storms start.
 * </ul>
 */
public final class RetryPolicy {

  /** What Factory may do after an attempt. */
  public enum Verdict {
    /** The attempt completed; nothing to retry. */
    NOT_NEEDED("not_needed"),
    /** No immediate retry, whatever Factory's generic policy says. */
    NO_IMMEDIATE_RETRY("no_immediate_retry"),
    /** The failure is Factory's to judge with its existing policy (timeouts). */
    FACTORY_POLICY("factory_policy");

    private final String wireName;

    Verdict(String wireName) {
      this.wireName = wireName;
    }

    public String wireName() {
      return wireName;
    }
  }

  /** A decision with the reason printed to the user and stored in the receipt. */
  public record Decision(Verdict verdict, String reason, String resumeAt) {
    public boolean mayRetryNow() {
      return verdict != Verdict.NO_IMMEDIATE_RETRY && verdict != Verdict.NOT_NEEDED;
    }
  }

  private RetryPolicy() {}

  public static Decision decide(PiResult result) {
    if (result.outcome() == Outcome.COMPLETED) {
      return new Decision(Verdict.NOT_NEEDED, "completed", null);
    }
    ProviderFailure failure = result.providerFailure();
    if (failure == null) {
      return new Decision(Verdict.NO_IMMEDIATE_RETRY,
          "untyped Pi failure (no provider metadata): not retried blind", null);
    }
    return switch (failure.kind()) {
      case CAPPED -> new Decision(Verdict.NO_IMMEDIATE_RETRY,
          "usage cap: ends here; provider resumes at " + failure.resumeAt() + " (no automatic deferral)",
          failure.resumeAt());
      case UNAVAILABLE -> new Decision(Verdict.NO_IMMEDIATE_RETRY,
          "provider unavailable (logged out, wrong account or broken seat): fix the provider first", null);
      case PROTOCOL -> new Decision(Verdict.NO_IMMEDIATE_RETRY,
          "protocol drift persisted after solwebd's one repair", null);
      case CANCELLED -> new Decision(Verdict.NO_IMMEDIATE_RETRY, "cancelled by the caller", null);
      case CONTEXT_OVERFLOW -> new Decision(Verdict.NO_IMMEDIATE_RETRY,
          "context overflow is Pi's compaction's job, and its one compact-and-retry did not fit", null);
      case TIMEOUT -> new Decision(Verdict.FACTORY_POLICY, "turn timeout: Factory's timeout policy decides", null);
    };
  }
}

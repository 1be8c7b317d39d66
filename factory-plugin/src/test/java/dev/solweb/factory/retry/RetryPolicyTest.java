package dev.solweb.factory.retry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.solweb.factory.pi.PiResult;
import dev.solweb.factory.pi.PiResult.Outcome;
import dev.solweb.factory.retry.RetryPolicy.Verdict;
import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.failure.ProviderFailure.Kind;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {

  static PiResult result(Outcome outcome, ProviderFailure failure) {
    Instant t = Instant.parse("2026-11-30T18:00:00Z");
    return new PiResult(outcome, "", List.of(), List.of(), List.of(), 0, failure, null, null, 0, 0, 0, t, t);
  }

  @ParameterizedTest
  @EnumSource(value = Kind.class, names = {"CAPPED", "UNAVAILABLE", "PROTOCOL", "CANCELLED", "CONTEXT_OVERFLOW"})
  void noImmediateRetryForProviderFailures(Kind kind) {
    RetryPolicy.Decision d = RetryPolicy.decide(result(Outcome.FAILED, ProviderFailure.of(kind, "x")));
    assertThat(d.verdict()).isEqualTo(Verdict.NO_IMMEDIATE_RETRY);
    assertThat(d.mayRetryNow()).isFalse();
  }

  @Test
  void capEndsVisiblyWithResumeAtAndClaimsNoDeferral() {
    ProviderFailure cap = new ProviderFailure(Kind.CAPPED, "cap", 60L, "2026-11-30T19:00:00Z");
    RetryPolicy.Decision d = RetryPolicy.decide(result(Outcome.FAILED, cap));
    assertThat(d.resumeAt()).isEqualTo("2026-11-30T19:00:00Z");
    assertThat(d.reason()).contains("2026-11-30T19:00:00Z").contains("no automatic deferral");
  }

  @Test
  void overflowIsPiCompactionsJob() {
    assertThat(RetryPolicy.decide(result(Outcome.FAILED, ProviderFailure.of(Kind.CONTEXT_OVERFLOW, "x"))).reason())
        .contains("compaction");
  }

  @Test
  void untypedFailuresAreNotRetriedBlindAndTimeoutsGoToFactory() {
    assertThat(RetryPolicy.decide(result(Outcome.ERROR, null)).verdict()).isEqualTo(Verdict.NO_IMMEDIATE_RETRY);
    assertThat(RetryPolicy.decide(result(Outcome.TIMEOUT, ProviderFailure.of(Kind.TIMEOUT, "t"))).verdict())
        .isEqualTo(Verdict.FACTORY_POLICY);
    assertThat(RetryPolicy.decide(result(Outcome.COMPLETED, null)).verdict()).isEqualTo(Verdict.NOT_NEEDED);
  }
}

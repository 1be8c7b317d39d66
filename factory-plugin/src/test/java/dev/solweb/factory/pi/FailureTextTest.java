package dev.solweb.factory.pi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.failure.ProviderFailure.Kind;
import org.junit.jupiter.api.Test;

class FailureTextTest {

  @Test
  void recoversTheRawProviderFailureExactly() {
    ProviderFailure cap = new ProviderFailure(Kind.CAPPED, "usage cap: wait", 3600L, "2026-12-01T00:00:00Z");
    String pi = "429 " + cap.message() + "\n" + cap.toJson();
    assertThat(FailureText.parse(pi)).contains(cap);
  }

  @Test
  void textWithoutTheRawPayloadIsUntyped() {
    assertThat(FailureText.parse("Connection error.")).isEmpty();
    assertThat(FailureText.parse("429 capped: x resume_at=2026-12-01T00:00:00Z")).isEmpty();
    assertThat(FailureText.parse("503 down\n{\"kind\":\"bogus\",\"detail\":\"x\"}")).isEmpty();
    assertThat(FailureText.parse(null)).isEmpty();
  }
}

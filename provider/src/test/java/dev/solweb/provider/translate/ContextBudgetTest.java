package dev.solweb.provider.translate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.solweb.provider.failure.ProviderFailure;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ContextBudgetTest {

  @Test
  void estimateCountsUtf8BytesNotChars() {
    assertThat(ContextBudget.estimateTokens("abc")).isEqualTo(3);
    assertThat(ContextBudget.estimateTokens("é")).isEqualTo(2);
    assertThat(ContextBudget.estimateTokens("€")).isEqualTo(3);
    assertThat(ContextBudget.estimateTokens("😀")).isEqualTo(4); // two Java chars, four bytes
    assertThat(ContextBudget.estimateTokens("a€😀")).isEqualTo(8);
    assertThat(ContextBudget.estimateTokens("")).isZero();
  }

  @Test
  void estimatedInputAddsPerMessageAndPerToolOverhead() {
    assertThat(ContextBudget.estimateInput("é", 3, 2)).isEqualTo(2 + 3 * 16 + 2 * 8);
  }

  @Test
  void sendExactlyFillingTheWindowIsAccepted() {
    // 50000 + 30000 + 24000 + 16000 reserved = 120000
    assertThat(ContextBudget.check(50_000, 24_000, 30_000, 0)).isEmpty();
  }

  @Test
  void sendOneTokenOverTheWindowIsRejectedAsContextOverflow() {
    Optional<ProviderFailure> failure = ContextBudget.check(50_000, 24_000, 30_001, 0);

    assertThat(failure).hasValueSatisfying(f -> {
      assertThat(f.kind()).isEqualTo(ProviderFailure.Kind.CONTEXT_OVERFLOW);
      assertThat(f.message()).contains("exceeds the context window").contains("120001");
    });
  }

  @Test
  void accumulatedOutputCountsAgainstTheWindow() {
    assertThat(ContextBudget.check(50_000, 24_001, 30_000, 0)).isPresent();
    assertThat(ContextBudget.check(50_001, 24_000, 30_000, 0)).isPresent();
  }

  @Test
  void mandatoryRulesAndSchemasOverTheInputCeilingAreRejected() {
    assertThat(ContextBudget.INPUT_CEILING).isEqualTo(104_000);

    Optional<ProviderFailure> failure = ContextBudget.check(0, 0, 104_001, 104_001);

    assertThat(failure).hasValueSatisfying(f -> {
      assertThat(f.kind()).isEqualTo(ProviderFailure.Kind.CONTEXT_OVERFLOW);
      assertThat(f.message()).contains("exceeds the context window").contains("104001");
    });
  }

  @Test
  void mandatoryAtTheCeilingIsAccepted() {
    assertThat(ContextBudget.check(0, 0, 104_000, 104_000)).isEmpty();
  }
}

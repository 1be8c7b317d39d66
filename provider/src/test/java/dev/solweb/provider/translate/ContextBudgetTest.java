package dev.solweb.provider.translate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.solweb.provider.failure.ProviderFailure;
import java.util.List;
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

  private static Message tool(String id, int chars) {
    return new Message(Message.Role.TOOL, "x".repeat(chars), List.of(), id);
  }

  @Test
  void aReplayThatCannotFitNamesTheMessageThatCannotFitEvenAloneAndByHowMuch() {
    // One tool result at the 60000-char bound, typed at 3 bytes a char (box drawing): 180000 tokens.
    Message huge = new Message(Message.Role.TOOL, "─".repeat(60_000), List.of(), "call_7_big");
    List<Message> replay = List.of(Message.system("rules"), Message.user("task"), tool("call_6_small", 100), huge);
    long mandatory = 8_000;
    long alone = mandatory + ContextBudget.estimateInput(TurnEnvelope.block(huge), 1, 0) + 16_000;

    Optional<ProviderFailure> failure = ContextBudget.check(0, 0, 200_000, mandatory, replay);

    assertThat(failure).hasValueSatisfying(f -> assertThat(f.message())
        .contains("exceeds the context window of 120000 by 96000")
        .contains("messages[3] (the tool result for call_7_big, " + (alone - mandatory - 16_000) + " tokens)")
        .contains("cannot fit even alone")
        .contains("it needs " + alone + ", so it must shrink by at least " + (alone - 120_000) + " tokens")
        .contains("compaction cannot help"));
  }

  @Test
  void aReplayWhoseMessagesFitAloneNamesTheLargestAndAsksForCompaction() {
    List<Message> replay = List.of(Message.user("task"), tool("call_1_a", 40_000), tool("call_2_b", 50_000),
        tool("call_3_c", 30_000));

    Optional<ProviderFailure> failure = ContextBudget.check(0, 0, 125_000, 5_000, replay);

    assertThat(failure).hasValueSatisfying(f -> assertThat(f.message())
        .contains("exceeds the context window")
        .contains("the largest of the 4 messages is messages[2] (the tool result for call_2_b, ")
        .endsWith("; compact the history; nothing was sent")
        .doesNotContain("cannot fit"));
  }

  @Test
  void aDeltaOverflowSaysCompactWithoutNamingMessages() {
    assertThat(ContextBudget.check(90_000, 1_000, 20_000, 0)).hasValueSatisfying(f -> assertThat(f.message())
        .contains("by 7000").endsWith("; compact the history; nothing was sent"));
  }
}

package dev.solweb.provider.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class ReplyRulesTest {

  @Test
  void theCapIsAWholeNumberFromOneToTheLimit() {
    assertThat(ReplyRules.parseCap("8")).isEqualTo(8);
    assertThat(ReplyRules.parseCap(" 1 ")).isEqualTo(1);
    assertThat(ReplyRules.parseCap("64")).isEqualTo(64);
    for (String bad : List.of("0", "65", "-3", "eight", "2.5", "")) {
      assertThatThrownBy(() -> ReplyRules.parseCap(bad)).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("SOLWEBD_MAX_CALLS must be a whole number from 1 (one call per reply) to 64, got \"" + bad + "\"");
    }
  }

  @Test
  void parallelToolCallsFalseMeansOneCallWhateverTheCap() {
    assertThat(ReplyRules.of(List.of(), false, 8).maxCalls()).isEqualTo(1);
    assertThat(ReplyRules.of(List.of(), false, 8).oneByRequest()).isTrue();
    assertThat(ReplyRules.of(List.of(), true, 5).maxCalls()).isEqualTo(5);
    assertThat(ReplyRules.of(List.of(), true, 1).oneByRequest()).isFalse();
  }
}

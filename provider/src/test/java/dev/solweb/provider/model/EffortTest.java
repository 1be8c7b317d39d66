package dev.solweb.provider.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class EffortTest {

  @Test
  void modelIdsCarryTheEffortSuffix() {
    assertThat(Effort.modelIds())
        .containsExactly("sol-web-instant", "sol-web-medium", "sol-web-high", "sol-web-xhigh", "sol-web-pro");
  }

  @Test
  void everyModelIdParsesBackToItsEffort() {
    for (Effort effort : Effort.values()) {
      assertThat(Effort.fromModelId(effort.modelId())).contains(effort);
    }
    assertThat(Effort.fromModelId("sol-web-xhigh")).contains(Effort.XHIGH);
  }

  @Test
  void unknownOrForeignModelIdsAreEmpty() {
    assertThat(Effort.fromModelId("sol-web-ultra")).isEmpty();
    assertThat(Effort.fromModelId("sol-web-")).isEmpty();
    assertThat(Effort.fromModelId("gpt-4o")).isEmpty();
    assertThat(Effort.fromModelId("high")).isEmpty();
    assertThat(Effort.fromModelId(null)).isEmpty();
  }

  @Test
  void labelsAreTheMenuTexts() {
    assertThat(Effort.values()).extracting(Effort::label)
        .containsExactly("Instant", "Medium", "High", "Extra High", "Pro");
  }

  @Test
  void menuLabelsMapToEfforts() {
    assertThat(Effort.fromLabel("Extra High")).contains(Effort.XHIGH);
    assertThat(Effort.fromLabel("  extra high ")).contains(Effort.XHIGH);
    assertThat(Effort.fromLabel("xhigh")).contains(Effort.XHIGH);
    assertThat(Effort.fromLabel("High")).contains(Effort.HIGH);
    for (Effort effort : Effort.values()) {
      assertThat(Effort.fromLabel(effort.label())).contains(effort);
    }
  }

  @Test
  void unknownLabelIsEmptyNeverAGuess() {
    assertThat(Effort.fromLabel("Thinking")).isEmpty();
    assertThat(Effort.fromLabel("Higher")).isEmpty();
    assertThat(Effort.fromLabel("")).isEmpty();
    assertThat(Effort.fromLabel(null)).isEmpty();
  }
}

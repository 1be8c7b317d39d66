package dev.solweb.factory.receipt;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ReportExtractorTest {

  private static String report(String text) {
    return ReportExtractor.lastTopLevelObject(text).map(Object::toString).orElse(null);
  }

  @Test
  void takesTheLastTopLevelObject() {
    assertThat(report("first {\"a\":1} then {\"status\":\"done\"} end")).isEqualTo("{\"status\":\"done\"}");
  }

  @Test
  void nestedObjectsAreNotCandidates() {
    assertThat(report("{\"status\":\"done\",\"detail\":{\"inner\":true}}")).isEqualTo(
        "{\"status\":\"done\",\"detail\":{\"inner\":true}}");
  }

  @Test
  void fencedJsonAndBracesInProseAreHandled() {
    assertThat(report("Use {curly} words.\n```json\n{\"status\":\"blocked\",\"why\":\"} in a string\"}\n```\n"))
        .isEqualTo("{\"status\":\"blocked\",\"why\":\"} in a string\"}");
  }

  @Test
  void noObjectMeansMissing() {
    assertThat(report("All done, no report.")).isNull();
    assertThat(report("[1,2] and {broken")).isNull();
    assertThat(report(null)).isNull();
  }
}

package dev.solweb.provider.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import org.junit.jupiter.api.Test;

/** The scenario's late-2026 page options (fakesol's shapes, Work mode, capped tiers) and their errors. */
class ScenarioPageOptionsTest {

  @Test
  void theLateShapesModeCappedTiersAndReplyFaultsParse() {
    Scenario s = Scenario.parse("{\"dom\": \"2026-10\", \"locale\": \"ru\", \"mode\": \"work\","
        + " \"capped_efforts\": {\"Pro\": \"2026-08-16T00:00:00Z\"}, \"slider_drops_first_key\": true,"
        + " \"default\": [{\"prose\": \"q?\", \"fault\": \"structured_question\"}, {\"prose\": \"a\", \"safety_review_ms\": 800,"
        + " \"connection_interrupted_ms\": 500, \"turn_state_stuck\": true, \"canvas\": true}]}");
    assertThat(s.dom()).isEqualTo("2026-10");
    assertThat(s.mode()).isEqualTo("work");
    assertThat(s.cappedEfforts()).containsEntry("Pro", "2026-08-16T00:00:00Z");
    assertThat(s.sliderDropsFirstKey()).isTrue();
    assertThat(s.defaultReplies().get(0).fault()).isEqualTo(ScriptedReply.Fault.STRUCTURED_QUESTION);
    ScriptedReply r = s.defaultReplies().get(1);
    assertThat(r.safetyReviewMs()).isEqualTo(800);
    assertThat(r.connectionInterruptedMs()).isEqualTo(500);
    assertThat(r.turnStateStuck()).isTrue();
    assertThat(r.canvas()).isTrue();
    assertThat(Scenario.parse("{\"dom\": \"2026-09-turnkey\"}").mode()).isEqualTo("chat");
    assertThat(s.withDom("2026-09").withLocale("en").cappedEfforts()).containsKey("Pro");
  }

  @Test
  void aWrongModeOrCappedTierIsRefusedNamingWhatIsWrong() {
    assertThatThrownBy(() -> Scenario.parse("{\"mode\": \"agent\"}")).isInstanceOf(UncheckedIOException.class)
        .hasMessageContaining("mode must be chat or work");
    assertThatThrownBy(() -> Scenario.parse("{\"capped_efforts\": {\"Turbo\": \"2026-08-16T00:00:00Z\"}}"))
        .hasMessageContaining("Turbo is no effort label");
    assertThatThrownBy(() -> Scenario.parse("{\"capped_efforts\": {\"Pro\": \"Aug 16\"}}"))
        .hasMessageContaining("capped_efforts.Pro must be an ISO-8601 instant");
    assertThatThrownBy(() -> Scenario.parse("{\"dom\": \"2026-12\"}")).hasMessageContaining("2026-09-en, 2026-10, 2026-11");
  }
}

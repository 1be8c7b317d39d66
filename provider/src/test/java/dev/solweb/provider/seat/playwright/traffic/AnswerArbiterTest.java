package dev.solweb.provider.seat.playwright.traffic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.solweb.provider.seat.playwright.traffic.AnswerArbiter.Decision;
import dev.solweb.provider.seat.playwright.traffic.AnswerArbiter.Poll;
import org.junit.jupiter.api.Test;

class AnswerArbiterTest {

  @Test
  void aCompleteStreamEndsTheTurnWhateverTheDomShows() {
    assertThat(AnswerArbiter.decide(new Poll(true, true, false, false, false, false, false))).isEqualTo(Decision.STREAM);
    assertThat(AnswerArbiter.decide(new Poll(true, true, true, false, false, false, true))).isEqualTo(Decision.STREAM);
  }

  @Test
  void aDomThatLooksFinishedWhileTheStreamIsLiveIsAFalsePause() {
    assertThat(AnswerArbiter.decide(new Poll(true, false, true, false, false, false, true))).isEqualTo(Decision.WAIT);
  }

  @Test
  void theDomDecidesAloneWithoutAStreamAfterAnUnfollowedHandoffAndOnAnImageTurn() {
    assertThat(AnswerArbiter.decide(new Poll(false, false, false, false, false, false, true))).isEqualTo(Decision.DOM);
    assertThat(AnswerArbiter.decide(new Poll(true, false, false, true, false, false, true))).isEqualTo(Decision.DOM);
    assertThat(AnswerArbiter.decide(new Poll(true, false, false, false, true, false, true))).isEqualTo(Decision.DOM);
  }

  @Test
  void aStreamThatDiedWithoutItsTerminalFramesLeavesTheDomToDecideAsADisagreement() {
    assertThat(AnswerArbiter.decide(new Poll(true, false, false, false, false, false, true))).isEqualTo(Decision.DOM_OVER_DEAD_STREAM);
  }

  @Test
  void aStreamThatDiedMidAnswerVetoesAFinishedLookingDom() {
    assertThat(AnswerArbiter.decide(new Poll(true, false, false, false, false, true, true))).isEqualTo(Decision.CUT);
    assertThat(AnswerArbiter.decide(new Poll(true, false, true, false, false, true, true))).as("unless it still runs")
        .isEqualTo(Decision.WAIT);
  }

  @Test
  void nothingEndsWhileNeitherRuleHolds() {
    for (boolean seen : new boolean[] {true, false}) {
      for (boolean live : new boolean[] {true, false}) {
        assertThat(AnswerArbiter.decide(new Poll(seen, false, live, !live, live, false, false))).isEqualTo(Decision.WAIT);
      }
    }
  }
}

package dev.solweb.killgate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.solweb.provider.failure.ProviderFailure.Kind;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.SeatReply;
import dev.solweb.provider.seat.playwright.PlaywrightSeat;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The seat on every fakesol page shape of 2026 (REAL-PAGE rows 1-4, 9) and in both locales. */
class SeatVariantsTest extends SeatHarness {

  private static final String BLOCKS = "{\"prose\": \"Two blocks.\", \"blocks\": [\"{\\\"tool\\\": \\\"write\\\"}\", \"a\\n\\n  b\\nc\"]}";

  @ParameterizedTest
  @ValueSource(strings = {"2026-03", "2026-07", "2026-08", "2026-09", "2026-09-turnkey", "2026-10"})
  void effortIsChosenAndReadBackAndCodeBlocksAreReadOnceFromCopyAndFromTheDom(String dom) throws Exception {
    PlaywrightSeat seat = seatOn(scenario("{\"dom\": \"" + dom + "\", \"default\": [" + BLOCKS + ", " + BLOCKS + "]}"));
    seat.openNew();
    assertThat(seat.setEffort(Effort.PRO)).isEqualTo(Effort.PRO);
    assertThat(seat.setEffort(Effort.INSTANT)).isEqualTo(Effort.INSTANT);
    assertThat(seat.setEffort(Effort.XHIGH)).isEqualTo(Effort.XHIGH);
    SeatReply copied = seat.send("first");
    assertThat(copied.codeBlocks()).containsExactly("{\"tool\": \"write\"}", "a\n\n  b\nc");
    assertThat(sol.sends().get(0).effort()).isEqualTo(Effort.XHIGH);

    sol.breakCopyButtons();
    seat.resume(copied.conversationUrl());
    seat.setEffort(Effort.HIGH);
    SeatReply fromDom = seat.send("second");
    assertThat(fromDom.codeBlocks()).containsExactly("{\"tool\": \"write\"}", "a\n\n  b\nc");
    assertThat(fromDom.prose()).isEqualTo("Two blocks.");
    assertThat(sol.sends().get(1).effort()).isEqualTo(Effort.HIGH);
  }

  @ParameterizedTest
  @CsvSource({"2026-07", "2026-08", "2026-09", "2026-09-turnkey", "2026-10"})
  void theRussianPageMapsItsLabels(String dom) throws Exception {
    PlaywrightSeat seat = seatOn(scenario("{\"dom\": \"" + dom + "\", \"locale\": \"ru\", \"default\": [{\"prose\": \"Да.\"}]}"));
    seat.openNew();
    assertThat(seat.setEffort(Effort.HIGH)).isEqualTo(Effort.HIGH);
    assertThat(seat.setEffort(Effort.MEDIUM)).isEqualTo(Effort.MEDIUM);
    assertThat(seat.send("Привет").prose()).isEqualTo("Да.");
    assertThat(sol.sends().get(0).effort()).isEqualTo(Effort.MEDIUM);
  }

  @ParameterizedTest
  @ValueSource(strings = {"2026-07", "2026-09", "2026-09-turnkey", "2026-10"})
  void aFlashingActionBarAndASettledProPreambleNeverCompleteEarlyAndTheIdComesFromTheHistory(String dom) throws Exception {
    PlaywrightSeat seat = seatOn(scenario("{\"dom\": \"" + dom + "\", \"default\": [{\"prose\": \"The real answer.\","
        + " \"preamble\": \"I'll think about this carefully.\", \"preamble_ms\": 1500, \"thinking_ms\": 2500,"
        + " \"flash_action_bar\": true, \"no_durable_url\": true}]}"));
    seat.openNew();
    seat.setEffort(Effort.PRO);
    SeatReply reply = seat.send("hard question");
    assertThat(reply.prose()).isEqualTo("The real answer.");
    // The address bar never showed /c/<id>: the history link that appeared with the turn did.
    assertThat(reply.conversationUrl()).isEqualTo(sol.url() + "c/" + sol.sends().get(0).conversationId());
  }

  @ParameterizedTest
  @ValueSource(strings = {"2026-09", "2026-10"})
  void aLabelTheSeatCannotMapIsUnavailableNamingIt(String dom) throws Exception {
    PlaywrightSeat seat = seatOn(scenario("{\"dom\": \"" + dom + "\", \"default\": [{\"prose\": \"one\"},"
        + " {\"prose\": \"two\", \"effort_label\": \"Think longer\"}]}"));
    seat.openNew();
    seat.setEffort(Effort.HIGH);
    String url = seat.send("first").conversationUrl();
    PlaywrightSeat again = newSeat();
    again.resume(url);
    assertThatThrownBy(() -> again.setEffort(Effort.HIGH)).isInstanceOfSatisfying(SeatException.class, e -> {
      assertThat(e.failure().kind()).isEqualTo(Kind.UNAVAILABLE);
      assertThat(e.failure().detail()).contains("Think longer");
      assertThat(e.afterSend()).isFalse();
    });
    assertThat(sol.sends()).hasSize(1);
  }

  /** The deferred cross-check finds each streamed answer in the DOM and agrees with it, on every shape. */
  @ParameterizedTest
  @ValueSource(strings = {"2026-03", "2026-07", "2026-08", "2026-09", "2026-09-turnkey", "2026-10"})
  void theStreamAndTheDomAgreeOnEveryTurnOfEveryShape(String dom) throws Exception {
    PlaywrightSeat seat = seatOn(scenario("{\"dom\": \"" + dom + "\", \"default\": [" + BLOCKS + ", " + BLOCKS + ", " + BLOCKS + "]}"));
    long before = dev.solweb.provider.seat.AnswerStats.GLOBAL.disagreements();
    seat.probe();
    seat.openNew();
    seat.setEffort(Effort.HIGH);
    String url = seat.send("first").conversationUrl();
    for (String text : new String[] {"second", "third"}) {
      seat.probe(); // runs the deferred cross-check of the turn before
      seat.resume(url);
      seat.setEffort(Effort.HIGH);
      assertThat(seat.send(text).codeBlocks()).containsExactly("{\"tool\": \"write\"}", "a\n\n  b\nc");
    }
    seat.probe();
    assertThat(dev.solweb.provider.seat.AnswerStats.GLOBAL.disagreements()).isEqualTo(before);
  }
}

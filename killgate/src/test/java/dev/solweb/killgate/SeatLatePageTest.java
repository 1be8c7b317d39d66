package dev.solweb.killgate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.solweb.provider.failure.ProviderFailure.Kind;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.SeatReply;
import dev.solweb.provider.seat.playwright.PlaywrightSeat;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The seat on fakesol's late-2026 pages (REAL-PAGE rows 13-16, 19-21, 26-29): what October added
 * to choosing an effort (Work mode, a capped tier, a slider that drops a key) and the page's traps
 * around a turn's end (a wrapper whose state lies, status lines that are not the end, a question
 * that is no answer, a Canvas editor beside the composer). Where the DOM must decide alone, the
 * stream hands off to a channel the seat does not follow.
 */
class SeatLatePageTest extends SeatHarness {

  /** The stream hands off where the seat cannot follow it: the DOM rule decides alone. */
  private static final String DOM_DECIDES = "\"stream\": {\"fault\": \"handoff_unfollowed\"}";

  private PlaywrightSeat ready(String scenarioJson) throws Exception {
    PlaywrightSeat seat = seatOn(scenario(scenarioJson));
    seat.openNew();
    return seat;
  }

  @ParameterizedTest
  @ValueSource(strings = {"en", "ru"})
  void aBrowserLeftInWorkModeIsSwitchedToChatBeforeTheEffortIsChosen(String locale) throws Exception {
    PlaywrightSeat seat = ready("{\"dom\": \"2026-10\", \"locale\": \"" + locale + "\", \"mode\": \"work\","
        + " \"default\": [{\"prose\": \"done\"}]}");

    assertThat(seat.setEffort(Effort.HIGH)).isEqualTo(Effort.HIGH);
    assertThat(sol.mode()).isEqualTo("chat");
    assertThat(seat.send("in chat mode").prose()).isEqualTo("done");
    assertThat(sol.sends()).singleElement().satisfies(s -> {
      assertThat(s.effort()).isEqualTo(Effort.HIGH);
      assertThat(s.effortLabel()).isEqualTo("High"); // not the Work family's request
    });
  }

  @ParameterizedTest
  @CsvSource({"2026-07, en", "2026-09, en", "2026-10, ru"})
  void aCappedTierIsATypedCapUntilItsTooltipsDayAndNothingIsSent(String dom, String locale) throws Exception {
    PlaywrightSeat seat = ready("{\"dom\": \"" + dom + "\", \"locale\": \"" + locale + "\","
        + " \"capped_efforts\": {\"Pro\": \"2027-08-16T00:00:00Z\"}, \"default\": [{\"prose\": \"x\"}]}");

    assertThatThrownBy(() -> seat.setEffort(Effort.PRO)).isInstanceOfSatisfying(SeatException.class, e -> {
      assertThat(e.failure().kind()).isEqualTo(Kind.CAPPED);
      assertThat(e.failure().detail()).contains("cannot set effort Pro", "disabled", "2027").doesNotContain("estimate");
      assertThat(Instant.parse(e.failure().resumeAt()))
          .isEqualTo(LocalDate.of(2027, 8, 16).atStartOfDay(ZoneId.systemDefault()).toInstant());
      assertThat(e.afterSend()).isFalse();
    });
    assertThat(seat.setEffort(Effort.HIGH)).isEqualTo(Effort.HIGH); // the other tiers still work
    assertThat(sol.sends()).isEmpty();
  }

  @Test
  void aPowerSliderThatDropsAKeyPressIsReadBackAndPressedAgain() throws Exception {
    PlaywrightSeat seat = ready("{\"dom\": \"2026-10\", \"slider_drops_first_key\": true, \"default\": [{\"prose\": \"ok\"}]}");

    assertThat(seat.setEffort(Effort.XHIGH)).isEqualTo(Effort.XHIGH);
    seat.send("go");
    assertThat(sol.sends()).singleElement().satisfies(s -> assertThat(s.effort()).isEqualTo(Effort.XHIGH));
  }

  @ParameterizedTest
  @ValueSource(strings = {"2026-09-turnkey", "2026-10"})
  void theWrapperStuckAtInProgressDecidesNothingOnEitherRule(String dom) throws Exception {
    PlaywrightSeat seat = ready("{\"dom\": \"" + dom + "\", \"default\": [{\"prose\": \"by the stream\", \"turn_state_stuck\": true},"
        + " {\"prose\": \"by the DOM\", \"turn_state_stuck\": true, \"stream_ms\": 800, " + DOM_DECIDES + "}]}");
    seat.setEffort(Effort.HIGH);

    SeatReply streamed = seat.send("one");
    assertThat(streamed.prose()).isEqualTo("by the stream");
    assertThat(streamed.source()).isEqualTo(SeatReply.Source.STREAM);
    SeatReply read = seat.send("two");
    assertThat(read.prose()).isEqualTo("by the DOM");
    assertThat(read.source()).isEqualTo(SeatReply.Source.DOM);
    assertThat(sol.sends()).hasSize(2);
  }

  @ParameterizedTest
  @CsvSource({"safety_review_ms, en", "connection_interrupted_ms, en", "safety_review_ms, ru", "connection_interrupted_ms, ru"})
  void aStatusLineThatIsNotTheEndNeverEndsTheTurnEarly(String field, String locale) throws Exception {
    PlaywrightSeat seat = ready("{\"dom\": \"2026-10\", \"locale\": \"" + locale + "\", \"default\": [{\"prose\":"
        + " \"The whole answer, long enough to stream in parts.\", \"stream_ms\": 600, \"" + field + "\": 2500, "
        + DOM_DECIDES + "}]}");
    seat.setEffort(Effort.HIGH);

    SeatReply reply = seat.send("go");

    assertThat(reply.prose()).isEqualTo("The whole answer, long enough to stream in parts.");
    assertThat(reply.source()).isEqualTo(SeatReply.Source.DOM);
    assertThat(sol.sends()).hasSize(1);
  }

  @ParameterizedTest
  @ValueSource(strings = {"en", "ru"})
  void aStructuredQuestionIsATypedFailureAfterSendNeverAnAnswer(String locale) throws Exception {
    PlaywrightSeat seat = ready("{\"dom\": \"2026-10\", \"locale\": \"" + locale + "\", \"default\": [{\"fault\":"
        + " \"structured_question\", \"prose\": \"Which one?\"}, {\"prose\": \"answered\"}]}");
    seat.setEffort(Effort.HIGH);

    assertThatThrownBy(() -> seat.send("ask me")).isInstanceOfSatisfying(SeatException.class, e -> {
      assertThat(e.failure().kind()).isEqualTo(Kind.UNAVAILABLE);
      assertThat(e.failure().detail()).contains("structured question", "has not answered");
      assertThat(e.afterSend()).isTrue();
    });
    assertThat(sol.sends()).hasSize(1);
  }

  @Test
  void aCanvasEditorBesideTheComposerIsNeverTypedInto() throws Exception {
    PlaywrightSeat seat = ready("{\"dom\": \"2026-10\", \"default\": [{\"prose\": \"In the canvas.\", \"blocks\": [\"print(1)\"],"
        + " \"canvas\": true}, {\"prose\": \"second\"}]}");
    seat.setEffort(Effort.HIGH);
    String url = seat.send("make code").conversationUrl();

    seat.resume(url);
    seat.setEffort(Effort.HIGH);
    assertThat(seat.send("now the next prompt").prose()).isEqualTo("second");

    assertThat(sol.canvasEdits()).isZero();
    assertThat(sol.sends()).extracting(s -> s.text()).containsExactly("make code", "now the next prompt");
  }

  @ParameterizedTest
  @ValueSource(strings = {"2026-09-turnkey", "2026-10"})
  void aLongConversationMountsOnlySomeExchangesAndEveryTurnStillReadsItsOwnAnswer(String dom) throws Exception {
    StringBuilder replies = new StringBuilder();
    for (int i = 0; i < 8; i++) {
      replies.append(i == 0 ? "" : ", ").append("{\"prose\": \"answer ").append(i).append("\", \"blocks\": [\"{\\\"n\\\": ")
          .append(i).append("}\"]}");
    }
    PlaywrightSeat seat = ready("{\"dom\": \"" + dom + "\", \"default\": [" + replies + "]}");
    seat.setEffort(Effort.MEDIUM);
    String url = null;
    for (int i = 0; i < 8; i++) {
      if (url != null) {
        seat.resume(url);
      }
      SeatReply r = seat.send("prompt " + i);
      assertThat(r.prose()).isEqualTo("answer " + i);
      assertThat(r.codeBlocks()).containsExactly("{\"n\": " + i + "}");
      url = r.conversationUrl();
    }
    assertThat(sol.sends()).hasSize(8);
  }

  /** REAL-PAGE row 23: a project named by its bare id is the same project; its chats are found, kept and resumed in it. */
  @Test
  void aProjectGivenByItsBareIdOpensAndKeepsItsChatsThere() throws Exception {
    PlaywrightSeat seat = seatOn(scenario("{\"default\": [{\"prose\": \"one\"}, {\"prose\": \"two\"}]}"));
    String slug = sol.history().project("Solweb work");
    String bare = slug.substring(0, "g-p-".length() + 32);
    seat.openNew(new dev.solweb.provider.translate.ConversationPlace.Project(sol.url() + "g/" + bare + "/project"));
    seat.setEffort(Effort.HIGH);

    SeatReply first = seat.send("in the project");
    assertThat(first.conversationUrl()).matches(java.util.regex.Pattern.quote(sol.url() + "g/" + bare + "/c/") + "[0-9a-f-]{36}");
    seat.resume(first.conversationUrl());
    seat.setEffort(Effort.HIGH);
    assertThat(seat.send("again").prose()).isEqualTo("two");
    assertThat(sol.sends()).extracting(s -> s.conversationId()).containsOnly(sol.sends().get(0).conversationId());
  }
}

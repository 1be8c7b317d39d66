package dev.solweb.killgate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.solweb.killgate.fakesol.PageWire;
import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.seat.AnswerStats;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.SeatReply;
import dev.solweb.provider.seat.SentMessage;
import dev.solweb.provider.seat.playwright.PlaywrightSeat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The page's own requests as the seat's truth (REAL-PAGE rows 17, 25, 31), on fakesol's wire
 * ({@code wire.js}): the effort checked from {@code /prepare} before Send, the Send proven by the
 * page's turn request and what it names reported at once, and an older page (no {@code /prepare})
 * still read back by its pill.
 */
class SeatWireTest extends SeatHarness {

  private static final String TWO_TURNS = "{\"default\": [{\"prose\": \"one\"}, {\"prose\": \"two\"}, {\"prose\": \"three\"}]}";
  private static final String SEPTEMBER_TWO_TURNS =
      "{\"dom\": \"2026-09\", \"default\": [{\"prose\": \"one\"}, {\"prose\": \"two\"}, {\"prose\": \"three\"}]}";

  /** After one ordinary turn (the seat then knows the page prepares), the page's requests carry {@code effort} from its next load. */
  private void pageWillSend(PlaywrightSeat seat, Effort effort) throws Exception {
    seat.setEffort(Effort.HIGH);
    seat.send("warm up");
    sol.wire().pageEffort(effort);
    seat.probe();
    seat.openNew();
    seat.setEffort(Effort.HIGH);
  }

  private PlaywrightSeat preparingSeat(String scenario) throws Exception {
    PlaywrightSeat seat = seatOn(scenario(scenario));
    sol.wire().prepare(true);
    seat.probe();
    seat.openNew(); // the page reads its wire settings when it loads
    return seat;
  }

  @Test
  void theEffortComesFromThePagesPrepareAndTheSendFromItsTurnRequest() throws Exception {
    PlaywrightSeat seat = preparingSeat(TWO_TURNS);
    seat.setEffort(Effort.HIGH);
    List<SentMessage> sent = new CopyOnWriteArrayList<>();
    seat.onSent(sent::add);
    SeatReply first = seat.send("hello");

    String conversation = sol.sends().get(0).conversationId();
    List<String> userIds = sol.userMessageIds(conversation);
    assertThat(sol.sends()).singleElement().satisfies(s -> assertThat(s.effort()).isEqualTo(Effort.HIGH));
    assertThat(sol.wire().prepares()).isNotEmpty().allSatisfy(p -> {
      assertThat(p.model()).isEqualTo("gpt-5-6-thinking");
      assertThat(p.thinkingEffort()).isEqualTo("extended");
    });
    // A new chat: the request names the user message at once, the stream the conversation a moment later.
    assertThat(sent).extracting(SentMessage::userMessageId).containsOnly(userIds.get(0));
    assertThat(sent.get(0).conversationUrl()).isNull();
    assertThat(sent.get(sent.size() - 1).conversationUrl()).isEqualTo(first.conversationUrl());

    sent.clear();
    seat.probe();
    seat.resume(first.conversationUrl());
    seat.setEffort(Effort.HIGH);
    seat.send("again");
    // A follow-up's request names both: one report.
    assertThat(sent).containsExactly(new SentMessage(sol.userMessageIds(conversation).get(1), first.conversationUrl()));
  }

  @Test
  void aPageThatWouldSendAnotherEffortIsChosenAgainOnceThenRefusedBeforeSendNamingBoth() throws Exception {
    // The July menu: choosing again clicks the effort row, and the page prepares again for it.
    PlaywrightSeat seat = preparingSeat("{\"dom\": \"2026-07\", \"default\": [{\"prose\": \"one\"}, {\"prose\": \"two\"}]}");
    pageWillSend(seat, Effort.MEDIUM); // a browser left in Work mode: the pill says High, the requests say Medium
    int prepares = sol.wire().prepares().size();

    assertThatThrownBy(() -> seat.send("never sent")).isInstanceOfSatisfying(SeatException.class, e -> {
      assertThat(e.afterSend()).isFalse();
      assertThat(e.failure().kind()).isEqualTo(ProviderFailure.Kind.UNAVAILABLE);
      assertThat(e.failure().detail()).contains("model gpt-5-6-thinking, thinking_effort standard (Medium)")
          .contains("High was asked").contains("also after choosing it again").endsWith("nothing was sent");
    });
    assertThat(sol.sends()).as("nothing reached the conversation endpoint").hasSize(1);
    assertThat(sol.wire().prepares().size() - prepares).as("the first /prepare and one after choosing again").isGreaterThanOrEqualTo(2);
  }

  @Test
  void anOlderPageWithoutPrepareHasItsPillReadBackAndASendUnderAnotherEffortIsRecordedNotResent() throws Exception {
    // September's page posts no /prepare (the default shape, October's, does: row 17).
    PlaywrightSeat seat = seatOn(scenario(SEPTEMBER_TWO_TURNS));
    sol.wire().pageEffort(Effort.MEDIUM); // a stale pill: it says High, the request carries Medium
    seat.probe();
    seat.openNew();
    seat.setEffort(Effort.HIGH);
    long before = AnswerStats.GLOBAL.effortMismatchesAfterSend();

    SeatReply reply = seat.send("sent under another effort");

    assertThat(reply.prose()).isEqualTo("one");
    assertThat(sol.sends()).singleElement().satisfies(s -> assertThat(s.effort()).isEqualTo(Effort.MEDIUM));
    assertThat(AnswerStats.GLOBAL.effortMismatchesAfterSend() - before).isEqualTo(1);
    assertThat(sol.wire().prepares()).as("only the older page's bare sibling, at Send")
        .allSatisfy(p -> assertThat(p.model()).isNull());
  }

  @Test
  void aSendClickThePageIgnoresIsClickedOnceMoreAndTheTurnIsSentOnce() throws Exception {
    PlaywrightSeat seat = preparingSeat(TWO_TURNS);
    sol.wire().ignoreSendClicks(1);
    seat.openNew();
    seat.setEffort(Effort.HIGH);
    SeatReply reply = seat.send("one click is not enough");
    assertThat(reply.prose()).isEqualTo("one");
    assertThat(sol.sends()).hasSize(1);
  }

  @Test
  void twoSendClicksWithNoTurnRequestAreNotASend() throws Exception {
    PlaywrightSeat seat = preparingSeat(TWO_TURNS);
    sol.wire().ignoreSendClicks(2);
    seat.openNew();
    seat.setEffort(Effort.HIGH);
    assertThatThrownBy(() -> seat.send("never sent")).isInstanceOfSatisfying(SeatException.class, e -> {
      assertThat(e.afterSend()).as("no request: nothing reached ChatGPT, a retry is safe").isFalse();
      assertThat(e.failure().detail()).contains("clicked twice").endsWith("nothing was sent");
    });
    assertThat(sol.sends()).isEmpty();
  }

  @Test
  void onASliderPageChoosingAgainSendsNoNewPrepareAndTheTurnIsRefusedNamingBoth() throws Exception {
    PlaywrightSeat seat = preparingSeat(SEPTEMBER_TWO_TURNS); // a slider already at High has nothing to move
    pageWillSend(seat, Effort.XHIGH);
    assertThatThrownBy(() -> seat.send("never sent")).isInstanceOfSatisfying(SeatException.class, e -> {
      assertThat(e.afterSend()).isFalse();
      assertThat(e.failure().detail()).contains("thinking_effort max (Extra High)").contains("High was asked")
          .endsWith("nothing was sent");
    });
    assertThat(sol.sends()).hasSize(1);
  }

  @Test
  void fakesolsDebounceIsItsOwnChoiceAndNeverNegative() {
    assertThat(PageWire.DEFAULT_DEBOUNCE.toMillis()).isEqualTo(300);
    assertThatThrownBy(() -> fakesol(scenario(TWO_TURNS)).wire().debounce(java.time.Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  /** Rows 20/22: a turn into a conversation deleted meanwhile is refused by code; nothing was taken, so it replays. */
  @Test
  void aTurnThePageRefusesAsConversationNotFoundIsAMissingConversationNotASend() throws Exception {
    PlaywrightSeat seat = seatOn(scenario(TWO_TURNS));
    seat.probe();
    seat.openNew();
    seat.setEffort(Effort.HIGH);
    String url = seat.send("first").conversationUrl();
    seat.probe();
    seat.resume(url);
    String id = sol.sends().get(0).conversationId();
    java.net.http.HttpResponse<String> deleted = java.net.http.HttpClient.newHttpClient().send(
        java.net.http.HttpRequest.newBuilder(sol.url().resolve("/api/delete")).header("content-type", "application/json")
            .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"conversation_id\": \"" + id + "\"}")).build(),
        java.net.http.HttpResponse.BodyHandlers.ofString());
    assertThat(deleted.statusCode()).isEqualTo(200);
    seat.setEffort(Effort.HIGH);
    assertThatThrownBy(() -> seat.send("into a deleted conversation")).isInstanceOfSatisfying(SeatException.class, e -> {
      assertThat(e.reason()).isEqualTo(SeatException.Reason.CONVERSATION_MISSING);
      assertThat(e.afterSend()).isFalse();
    });
    assertThat(sol.sends()).as("the page took nothing").hasSize(1);
  }
}

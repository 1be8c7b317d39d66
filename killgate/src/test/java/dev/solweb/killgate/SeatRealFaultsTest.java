package dev.solweb.killgate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.solweb.provider.failure.ProviderFailure.Kind;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.playwright.PlaywrightSeat;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real page's texts (REAL-PAGE rows 7, 8), the trusted-input composer (row 2), windowed threads (row 6). */
class SeatRealFaultsTest extends SeatHarness {

  @TempDir Path work;

  private static void failsWith(ThrowingCallable call, Kind kind, boolean afterSend, Consumer<SeatException> more) {
    assertThatThrownBy(call).isInstanceOfSatisfying(SeatException.class, e -> {
      assertThat(e.failure().kind()).isEqualTo(kind);
      assertThat(e.afterSend()).as("afterSend").isEqualTo(afterSend);
      more.accept(e);
    });
  }

  private PlaywrightSeat ready(String json) throws Exception {
    PlaywrightSeat seat = seatOn(scenario(json));
    seat.openNew();
    seat.setEffort(Effort.HIGH);
    return seat;
  }

  @Test
  void capacityAndUnusualActivityAreUnavailable() throws Exception {
    PlaywrightSeat seat = ready("{\"conversations\": [{\"replies\": [{\"fault\": \"capacity\"}]}],"
        + " \"default\": [{\"fault\": \"unusual_activity\"}]}");
    failsWith(() -> seat.send("hi"), Kind.UNAVAILABLE, true, e -> assertThat(e.failure().detail()).contains("capacity"));
    PlaywrightSeat other = newSeat();
    other.openNew();
    other.setEffort(Effort.HIGH);
    failsWith(() -> other.send("hi"), Kind.UNAVAILABLE, true, e -> assertThat(e.failure().detail()).contains("Unusual activity"));
  }

  @Test
  void theMaximumLengthErrorIsContextOverflowMarkedFull() throws Exception {
    PlaywrightSeat seat = ready("{\"default\": [{\"fault\": \"conversation_full\"}]}");
    failsWith(() -> seat.send("hi"), Kind.CONTEXT_OVERFLOW, true, e -> assertThat(e.conversationFull()).isTrue());
    assertThat(sol.sends()).hasSize(1);
  }

  @Test
  void aFeatureCapFailsAnAskWithAttachmentsBeforeSendButNotATextTurn() throws Exception {
    PlaywrightSeat seat = ready("{\"default\": [{\"fault\": \"feature_cap\", \"prose\": \"text still works\", \"resume_in_s\": 5400},"
        + " {\"fault\": \"feature_cap\", \"prose\": \"never\", \"resume_in_s\": 5400}]}");
    assertThat(seat.send("just text").prose()).isEqualTo("text still works");
    PlaywrightSeat fresh = newSeat();
    fresh.openNew();
    fresh.setEffort(Effort.HIGH);
    Path file = Files.writeString(work.resolve("notes.txt"), "x");
    failsWith(() -> fresh.ask("with a file", List.of(file), work.resolve("out")), Kind.CAPPED, false,
        e -> assertThat(e.failure().resumeAt()).isNotNull());
    assertThat(sol.sends()).hasSize(1);
  }

  @Test
  void textArrivesExactlyThroughInsertTextAndThroughTheRealPasteFallback() throws Exception {
    PlaywrightSeat seat = ready("{\"default\": [{\"prose\": \"1\"}, {\"prose\": \"2\"}, {\"prose\": \"3\"}]}");
    String kb = "x".repeat(1000) + "\nzweite Zeile ✓\n\n  indented";
    String sixty = ("line {\"k\": [1]} ünï ✓ 🙂\n").repeat(60 * 1024 / 24);
    String url = seat.send(kb).conversationUrl();
    assertThat(sol.sends().get(0).text()).isEqualTo(kb);
    seat.resume(url);
    seat.setEffort(Effort.HIGH);
    seat.send(sixty);
    assertThat(sol.sends().get(1).text()).isEqualTo(sixty);
    assertThat(sol.sends().get(1).text().length()).isEqualTo(sixty.length());
    sol.ignoreInsertText(); // the editor drops insertText: only a real Ctrl+V paste gets text in
    PlaywrightSeat again = newSeat();
    again.resume(url);
    again.setEffort(Effort.HIGH);
    again.send("pasted\nexactly");
    assertThat(sol.sends().get(2).text()).isEqualTo("pasted\nexactly");
  }

  @Test
  void aWindowedLongThreadResumesAndAnswersTheNewTurn() throws Exception {
    StringBuilder replies = new StringBuilder();
    for (int i = 0; i < 6; i++) {
      replies.append(i == 0 ? "" : ",").append("{\"prose\": \"answer ").append(i).append("\"}");
    }
    PlaywrightSeat seat = ready("{\"windowed_turns\": 4, \"default\": [" + replies + "]}");
    String url = seat.send("turn 0").conversationUrl();
    for (int i = 1; i < 5; i++) {
      seat.resume(url);
      seat.setEffort(Effort.HIGH);
      assertThat(seat.send("turn " + i).prose()).isEqualTo("answer " + i);
    }
    PlaywrightSeat again = newSeat();
    again.resume(url); // only the last 4 of 10 turns are mounted
    again.setEffort(Effort.HIGH);
    assertThat(again.send("turn 5").prose()).isEqualTo("answer 5");
  }
}

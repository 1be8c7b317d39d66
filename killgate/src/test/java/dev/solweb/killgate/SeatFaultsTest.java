package dev.solweb.killgate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.solweb.provider.failure.ProviderFailure.Kind;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.SeatProbe;
import dev.solweb.provider.seat.playwright.PlaywrightSeat;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.function.Consumer;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/** Every page fault becomes one typed failure on the right side of the Send boundary. */
class SeatFaultsTest extends SeatHarness {

  private static void failsWith(ThrowingCallable call, Kind kind, boolean afterSend, Consumer<SeatException> more) {
    assertThatThrownBy(call).isInstanceOfSatisfying(SeatException.class, e -> {
      assertThat(e.reason()).isEqualTo(SeatException.Reason.FAILED);
      assertThat(e.failure().kind()).isEqualTo(kind);
      assertThat(e.afterSend()).as("afterSend").isEqualTo(afterSend);
      more.accept(e);
    });
  }

  private PlaywrightSeat readySeat(String scenarioJson, Effort effort) throws Exception {
    PlaywrightSeat seat = seatOn(scenario(scenarioJson));
    seat.openNew();
    seat.setEffort(effort);
    return seat;
  }

  @Test
  void aCapBannerIsCappedWithTheResumeTimeItShows() throws Exception {
    Instant resume = Instant.now().plus(Duration.ofMinutes(127)).truncatedTo(ChronoUnit.MINUTES);
    PlaywrightSeat seat = readySeat("{\"default\": [{\"fault\": \"cap\", \"resume_at\": \"" + resume + "\"}]}", Effort.HIGH);
    failsWith(() -> seat.send("hi"), Kind.CAPPED, true,
        e -> assertThat(e.failure().resumeAt()).isEqualTo(resume.toString()));
  }

  @Test
  void aCapBannerInHoursIsCappedThatManyHoursAhead() throws Exception {
    PlaywrightSeat seat = readySeat("{\"default\": [{\"fault\": \"cap\", \"resume_in_s\": 14400}]}", Effort.HIGH);
    Instant expected = Instant.now().plus(Duration.ofHours(4));
    failsWith(() -> seat.send("hi"), Kind.CAPPED, true,
        e -> assertThat(Instant.parse(e.failure().resumeAt())).isBetween(expected.minusSeconds(60), expected.plusSeconds(60)));
  }

  @Test
  void aPlanLimitDowngradeBannerIsCapped() throws Exception {
    PlaywrightSeat seat = readySeat("{\"default\": [{\"fault\": \"cap_downgrade\", \"prose\": \"a quieter answer\", \"resume_in_s\": 7200}]}", Effort.PRO);
    failsWith(() -> seat.send("hi"), Kind.CAPPED, true, e -> assertThat(e.failure().resumeAt()).isNotNull());
  }

  @Test
  void aDowngradedModelSlugWithoutABannerIsCapped() throws Exception {
    PlaywrightSeat seat = readySeat("{\"default\": [{\"prose\": \"a quieter answer\", \"model_slug\": \"gpt-5-mini\"}]}", Effort.HIGH);
    failsWith(() -> seat.send("hi"), Kind.CAPPED, true, e -> assertThat(e.failure().detail()).contains("gpt-5-mini"));
  }

  @Test
  void theEffortLabelIsReadBackAndAMismatchIsNeverSent() throws Exception {
    PlaywrightSeat seat = readySeat("{\"default\": [{\"prose\": \"one\"}, {\"prose\": \"two\", \"effort_label\": \"Medium\"}]}", Effort.HIGH);
    String url = seat.send("first").conversationUrl();
    PlaywrightSeat again = newSeat();
    again.resume(url);
    // The page refuses High for this send: the label it shows is what setEffort returns...
    assertThat(again.setEffort(Effort.HIGH)).isEqualTo(Effort.MEDIUM);
    // ...and the send-time check refuses to send at the wrong effort.
    failsWith(() -> again.send("second"), Kind.UNAVAILABLE, false, e -> assertThat(e.failure().detail()).contains("Medium"));
    assertThat(sol.sends()).hasSize(1);
    assertThat(sol.sends().get(0).effortLabel()).isEqualTo("High");
  }

  @Test
  void aCapBannerLeftFromAnEarlierTurnIsNotReadAsANewCap() throws Exception {
    Instant resume = Instant.now().plus(Duration.ofMinutes(127)).truncatedTo(ChronoUnit.MINUTES);
    PlaywrightSeat seat = readySeat("{\"default\": [{\"prose\": \"one\"}, {\"fault\": \"cap\", \"resume_at\": \""
        + resume + "\"}, {\"prose\": \"three\"}]}", Effort.HIGH);
    String url = seat.send("first").conversationUrl();
    failsWith(() -> seat.send("second"), Kind.CAPPED, true, e -> { });
    // Later (the dispatcher waits out resume_at): the same page still shows the old banner.
    assertThat(seat.probe().state()).isEqualTo(SeatProbe.State.READY);
    seat.resume(url);
    seat.setEffort(Effort.HIGH);
    assertThat(seat.send("third").prose()).isEqualTo("three");
  }

  @Test
  void aLoginWallIsUnavailableBeforeSend() throws Exception {
    PlaywrightSeat seat = seatOn(scenario("{\"state\": \"logged_out\"}"));
    assertThat(seat.probe().state()).isEqualTo(SeatProbe.State.LOGGED_OUT);
    failsWith(seat::openNew, Kind.UNAVAILABLE, false, e -> assertThat(e.failure().detail()).contains("logged out"));
  }

  @Test
  void aSessionThatExpiresWhileTypingIsUnavailableAndNothingIsSent() throws Exception {
    PlaywrightSeat seat = readySeat("{\"default\": [{\"fault\": \"logged_out\"}]}", Effort.HIGH);
    failsWith(() -> seat.send("hi"), Kind.UNAVAILABLE, false, e -> assertThat(e.failure().detail()).contains("logged out"));
    assertThat(sol.sends()).isEmpty();
  }

  @Test
  void aCloudflareChallengeIsUnavailableAndNothingIsSent() throws Exception {
    PlaywrightSeat seat = readySeat("{\"default\": [{\"fault\": \"cloudflare\"}]}", Effort.HIGH);
    failsWith(() -> seat.send("hi"), Kind.UNAVAILABLE, false, e -> assertThat(e.failure().detail()).contains("Cloudflare"));
    assertThat(sol.sends()).isEmpty();
    assertThat(seat.probe().state()).isEqualTo(SeatProbe.State.CHALLENGED);
  }

  @Test
  void theTooLongBubbleIsContextOverflowAndNothingIsSent() throws Exception {
    PlaywrightSeat seat = readySeat("{\"default\": [{\"fault\": \"too_long\"}]}", Effort.HIGH);
    failsWith(() -> seat.send("x".repeat(5000)), Kind.CONTEXT_OVERFLOW, false, e -> { });
    assertThat(sol.sends()).isEmpty();
  }

  @Test
  void somethingWentWrongIsUnavailableAfterSendAndRetryIsNeverClicked() throws Exception {
    PlaywrightSeat seat = readySeat("{\"default\": [{\"fault\": \"something_went_wrong\"}]}", Effort.HIGH);
    failsWith(() -> seat.send("hi"), Kind.UNAVAILABLE, true, e -> assertThat(e.failure().detail()).contains("Something went wrong"));
    Thread.sleep(500); // anything the seat might still do would show up by now
    assertThat(sol.retryClicks()).isZero();
    assertThat(sol.sends()).hasSize(1);
  }

  @Test
  void aCappedPageAtLoadProbesCappedWithItsResumeTime() throws Exception {
    Instant resume = Instant.now().plus(Duration.ofMinutes(95)).truncatedTo(ChronoUnit.MINUTES);
    PlaywrightSeat seat = seatOn(scenario("{\"state\": \"capped\", \"cap_resume_at\": \"" + resume + "\"}"));
    SeatProbe probe = seat.probe();
    assertThat(probe.state()).isEqualTo(SeatProbe.State.CAPPED);
    assertThat(probe.capResumeAt()).isEqualTo(resume);
    failsWith(seat::openNew, Kind.CAPPED, false, e -> assertThat(e.failure().resumeAt()).isEqualTo(resume.toString()));
  }
}

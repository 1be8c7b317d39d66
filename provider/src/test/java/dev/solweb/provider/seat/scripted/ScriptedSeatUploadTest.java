package dev.solweb.provider.seat.scripted;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.solweb.provider.failure.ProviderFailure.Kind;
import dev.solweb.provider.model.Attachment;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.scenario.Scenario;
import dev.solweb.provider.scenario.ScenarioPlayer;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.UploadReadiness;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** ScriptedSeat's turns with files: what it received, and the scripted upload faults (nothing sent). */
class ScriptedSeatUploadTest {

  private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-04T17:00:00Z"), ZoneOffset.UTC);
  private static final Attachment LOG = new Attachment("test.log", "application/octet-stream",
      "ok\n".getBytes(StandardCharsets.UTF_8), "made-up-for-the-test");

  private ScriptedSeat seat(String json) throws SeatException {
    ScriptedSeat seat = new ScriptedSeat(new ScenarioPlayer(Scenario.parse(json)), CLOCK);
    seat.openNew();
    seat.setEffort(Effort.MEDIUM);
    return seat;
  }

  @Test
  void aTurnWithFilesIsRecordedWithThem() throws Exception {
    ScriptedSeat seat = seat("{\"default\": [{\"prose\": \"read it\"}]}");

    assertThat(seat.send("look", List.of(LOG)).prose()).isEqualTo("read it");

    assertThat(seat.received()).hasSize(1);
    assertThat(seat.received().get(0)).extracting(Attachment::sha256).containsExactly("made-up-for-the-test");
  }

  @Test
  void aSeatReadyOnTheChipAloneSendsWithoutItsFilesAsTheScriptedPageDropsThem() throws Exception {
    ScenarioPlayer player = new ScenarioPlayer(Scenario.parse("{\"default\": [{\"prose\": \"what file?\"}]}"));
    ScriptedSeat seat = new ScriptedSeat(player, CLOCK, UploadReadiness.CHIP);
    seat.openNew();
    seat.setEffort(Effort.MEDIUM);

    assertThat(seat.send("look", List.of(LOG)).prose()).isEqualTo("what file?");

    assertThat(seat.received()).isEmpty();
    assertThat(player.sends()).singleElement().satisfies(s -> {
      assertThat(s.text()).isEqualTo("look");
      assertThat(s.attachments()).isEmpty();
    });
  }

  @Test
  void aScriptedUploadFailureSendsNothing() throws Exception {
    ScriptedSeat seat = seat("{\"default\": [{\"fault\": \"upload_failed\"}]}");

    assertThatThrownBy(() -> seat.send("look", List.of(LOG))).isInstanceOfSatisfying(SeatException.class, e -> {
      assertThat(e.afterSend()).isFalse();
      assertThat(e.failure().kind()).isEqualTo(Kind.UNAVAILABLE);
    });
    assertThat(seat.received()).isEmpty();
  }

  @Test
  void aScriptedThrottleIsCappedBeforeAnythingIsTypedAndATextTurnStillAnswers() throws Exception {
    // Nothing was sent, so the next turn opens its conversation afresh: the script's first reply again.
    ScriptedSeat seat = seat("{\"default\": [{\"fault\": \"upload_throttled\", \"resume_in_s\": 600,"
        + " \"prose\": \"text is fine\"}]}");

    assertThatThrownBy(() -> seat.send("look", List.of(LOG))).isInstanceOfSatisfying(SeatException.class, e -> {
      assertThat(e.afterSend()).isFalse();
      assertThat(e.failure().kind()).isEqualTo(Kind.CAPPED);
      assertThat(e.failure().resumeAt()).isEqualTo("2026-12-04T17:10:00Z");
    });
    assertThat(seat.send("no files", List.of()).prose()).isEqualTo("text is fine");
  }

  @Test
  void moreThanTenFilesAreRefusedBeforeSend() throws Exception {
    ScriptedSeat seat = seat("{\"default\": [{\"prose\": \"never\"}]}");
    List<Attachment> eleven = Collections.nCopies(Attachment.MAX_PER_TURN + 1, LOG);

    assertThatThrownBy(() -> seat.send("many", eleven))
        .isInstanceOfSatisfying(SeatException.class, e -> assertThat(e.afterSend()).isFalse());
    assertThat(seat.received()).isEmpty();
  }
}

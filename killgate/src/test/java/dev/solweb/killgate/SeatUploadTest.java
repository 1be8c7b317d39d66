package dev.solweb.killgate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.solweb.killgate.fakesol.FakeSolUploads;
import dev.solweb.killgate.fakesol.FakeSolUploads.Fault;
import dev.solweb.killgate.fakesol.PageMutations;
import dev.solweb.provider.failure.ProviderFailure.Kind;
import dev.solweb.provider.model.Attachment;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.SeatReply;
import dev.solweb.provider.seat.playwright.PlaywrightSeat;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The seat's uploads on fakesol in Chromium (issue 29), one page fault each (REAL-PAGE rows 44-49):
 * never a Send without its files, never a file sent twice, and the bytes fakesol received are the
 * bytes the seat was given (sha256).
 */
class SeatUploadTest extends SeatHarness {

  private static final String TWO_ANSWERS = "{\"default\": [{\"prose\": \"seen\"}, {\"prose\": \"again\"}]}";

  private PlaywrightSeat ready(Fault... faults) throws Exception {
    return ready(PageMutations.Plan.NONE, faults);
  }

  /** A seat on fakesol's page rendered through {@code plan}, with these upload faults. */
  private PlaywrightSeat ready(PageMutations.Plan plan, Fault... faults) throws Exception {
    fakesol(scenario(TWO_ANSWERS), plan);
    for (Fault f : faults) {
      sol.uploads().fault(f);
    }
    factory = dev.solweb.provider.seat.playwright.PlaywrightSeatFactory.create(options(), java.time.Clock.systemUTC(),
        dev.solweb.provider.seat.playwright.page.CompletionTracker.Rule.DEFAULT);
    PlaywrightSeat seat = newSeat();
    seat.openNew();
    seat.setEffort(Effort.MEDIUM);
    return seat;
  }

  /** What reached the page with the one Send there was: every file once, byte for byte. */
  private void assertSentExactly(List<Attachment> files) {
    assertThat(sol.sends()).hasSize(1);
    List<FakeSolUploads.Turn> turns = sol.uploads().turns();
    assertThat(turns).hasSize(1);
    assertThat(turns.get(0).files()).extracting(FakeSolUploads.Stored::sha256)
        .containsExactlyInAnyOrderElementsOf(files.stream().map(Attachment::sha256).toList());
    assertThat(turns.get(0).files()).extracting(FakeSolUploads.Stored::fileId).doesNotHaveDuplicates();
    assertThat(sol.uploads().createRequests()).isEqualTo(files.size()); // each file uploaded once
  }

  @Test
  void anImageAndALogGoUpThroughTheirOwnInputsAndTheSendNamesBoth() throws Exception {
    PlaywrightSeat seat = ready();
    List<Attachment> files = List.of(UploadFiles.png("screen.png", 2_000, 1), UploadFiles.log("test.log", 200_000));

    SeatReply reply = seat.send("what failed?", files);

    assertThat(reply.prose()).isEqualTo("seen");
    assertSentExactly(files);
    assertThat(sol.sends().get(0).text()).isEqualTo("what failed?");
    assertThat(sol.sends().get(0).attachments()).containsExactlyInAnyOrder("screen.png", "test.log");
    assertThat(seat.lastTimings()).containsKey("upload: input to ready");
  }

  @Test
  void theEarlyChipIsNotReadyTheSeatWaitsForProcessing() throws Exception {
    PlaywrightSeat seat = ready(Fault.EARLY_CHIP);
    List<Attachment> files = List.of(UploadFiles.log("build.log", 5_000));

    seat.send("read the log", files);

    assertSentExactly(files); // a Send on the chip alone would have dropped it (FakeSolUploadsPageTest)
    assertThat(seat.lastTimings().get("upload: input to ready"))
        .isGreaterThanOrEqualTo(Duration.ofMillis(1_000)); // it waited for the slow processing
  }

  /** On a form, and where the composer is no form (row 55): the chip goes either way. */
  @ParameterizedTest
  @ValueSource(strings = {"", "formless-send"})
  void aFailedProcessingStreamFailsTypedBeforeAnythingIsTypedAndLeavesNoChip(String mutation) throws Exception {
    PlaywrightSeat seat = ready(mutation.isEmpty() ? PageMutations.Plan.NONE : PageMutations.named(List.of(mutation), 1),
        Fault.PROCESSING_FAILS);

    assertThatThrownBy(() -> seat.send("read it", List.of(UploadFiles.log("a.log", 1_000))))
        .isInstanceOfSatisfying(SeatException.class, e -> {
          assertThat(e.afterSend()).isFalse();
          assertThat(e.failure().kind()).isEqualTo(Kind.UNAVAILABLE);
          assertThat(e.failure().message()).contains("a.log").contains("file.processing.failed");
        });
    assertThat(sol.sends()).isEmpty();

    seat.send("just text", List.of()); // the failed file's chip is gone: it does not ride along
    assertThat(sol.uploads().turns()).hasSize(1);
    assertThat(sol.uploads().turns().get(0).files()).isEmpty();
  }

  @Test
  void aThrottledUploadIsCappedWithTheTimeThePageGives() throws Exception {
    PlaywrightSeat seat = ready(Fault.THROTTLED);
    Instant until = Instant.now().plus(Duration.ofMinutes(90)).truncatedTo(ChronoUnit.MINUTES);
    sol.uploads().throttledUntil(until);

    assertThatThrownBy(() -> seat.send("look", List.of(UploadFiles.png("a.png", 500, 2))))
        .isInstanceOfSatisfying(SeatException.class, e -> {
          assertThat(e.afterSend()).isFalse();
          assertThat(e.failure().kind()).isEqualTo(Kind.CAPPED);
          assertThat(Instant.parse(e.failure().resumeAt())).isEqualTo(until);
        });
    assertThat(sol.sends()).isEmpty();
  }

  /** Row 50: the last turn's metadata said file_upload has 0 left: capped until its reset, before anything is chosen. */
  @Test
  void aPageThatSaidNoUploadsAreLeftIsCappedBeforeTheNextFileIsChosen() throws Exception {
    PlaywrightSeat seat = ready();
    sol.uploadsLeft(1);
    seat.send("the last one", List.of(UploadFiles.log("one.log", 1_000))); // its turn's metadata: file_upload 0

    assertThatThrownBy(() -> seat.send("one more", List.of(UploadFiles.log("two.log", 1_000))))
        .isInstanceOfSatisfying(SeatException.class, e -> {
          assertThat(e.afterSend()).isFalse();
          assertThat(e.failure().kind()).isEqualTo(Kind.CAPPED);
          assertThat(e.failure().message()).contains("file_upload has 0 uploads left");
          assertThat(Instant.parse(e.failure().resumeAt())).isAfter(Instant.now());
        });
    assertThat(sol.sends()).hasSize(1);
    assertThat(sol.uploads().createRequests()).as("nothing chosen for the refused turn").isEqualTo(1);

    seat.send("text still goes", List.of()); // only uploads are capped
    assertThat(sol.sends()).hasSize(2);
  }

  @Test
  void anImageFinishedWithoutTheStreamIsReadyByItsLoadedPreview() throws Exception {
    PlaywrightSeat seat = ready(Fault.IMAGE_WITHOUT_STREAM);
    List<Attachment> files = List.of(UploadFiles.png("shot.png", 3_000, 3));

    seat.send("what is this?", files);

    assertSentExactly(files);
  }

  @Test
  void aDecoyInputThatStartsNoUploadIsPassedOver() throws Exception {
    PlaywrightSeat seat = ready(Fault.DECOY_INPUT);
    List<Attachment> files = List.of(UploadFiles.log("trace.txt", 3_000));

    seat.send("explain", files);

    assertSentExactly(files);
  }

  @Test
  void withNoInputTheFileChooserOfAddFilesAndMoreIsUsedAndDuplicatesAreBothSent() throws Exception {
    PlaywrightSeat seat = ready(Fault.MENU_ONLY);
    Attachment one = UploadFiles.log("01.log", 2_000);
    List<Attachment> files = List.of(one, UploadFiles.attachment("01.log", one.mediaType(), "second".getBytes()));

    seat.send("compare", files);

    assertSentExactly(files);
  }
}

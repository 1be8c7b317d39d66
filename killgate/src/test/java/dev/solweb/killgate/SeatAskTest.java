package dev.solweb.killgate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.SeatReply;
import dev.solweb.provider.seat.playwright.PlaywrightSeat;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One-shot asks through the real PlaywrightSeat: files go up the composer's input, images come down. */
class SeatAskTest extends SeatHarness {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

  @TempDir Path work;

  @Test
  void anAttachmentReachesThePageAndTheGeneratedImageIsHarvested() throws Exception {
    PlaywrightSeat seat = seatOn(scenario("""
        {"default": [{"prose": "Here is your cat.", "images": ["cat.png"], "stream_ms": 100}]}
        """));
    Path attachment = Files.writeString(work.resolve("notes.txt"), "draw a cat");
    Path out = work.resolve("out");

    seat.openNew();
    seat.setEffort(Effort.MEDIUM);
    SeatReply reply = seat.ask("draw what the notes say", List.of(attachment), out);

    assertThat(sol.sends()).hasSize(1);
    assertThat(sol.sends().get(0).text()).isEqualTo("draw what the notes say");
    assertThat(sol.sends().get(0).attachments()).containsExactly("notes.txt");
    JsonNode control = JSON.readTree(URI.create(sol.url() + "control").toURL());
    assertThat(control.path("sends").get(0).path("attachments").get(0).asText()).isEqualTo("notes.txt");

    assertThat(reply.prose()).isEqualTo("Here is your cat.");
    // The page serves it from /backend-api/estuary/content?id=file_... and draws it twice
    // (backdrop and image): one file, named after its file id.
    assertThat(reply.images()).hasSize(1);
    assertThat(Path.of(reply.images().get(0)).getParent()).isEqualTo(out.toAbsolutePath());
    assertThat(Path.of(reply.images().get(0)).getFileName().toString()).matches("file_[0-9a-f]{32}\\.png");
    byte[] bytes = Files.readAllBytes(Path.of(reply.images().get(0)));
    assertThat(Arrays.copyOf(bytes, 8)).isEqualTo(PNG_SIGNATURE);
    assertThat(bytes.length).isGreaterThan(8);
  }

  @Test
  void aPlainSendHarvestsNothingAndAttachesNothing() throws Exception {
    PlaywrightSeat seat = seatOn(scenario("""
        {"default": [{"prose": "an image", "images": ["dog.png"]}]}
        """));
    seat.openNew();
    seat.setEffort(Effort.MEDIUM);
    SeatReply reply = seat.send("hello");
    assertThat(reply.images()).isEmpty();
    assertThat(sol.sends().get(0).attachments()).isEmpty();
  }

  @Test
  void anUnreadableAttachmentFailsBeforeAnythingIsSent() throws Exception {
    PlaywrightSeat seat = seatOn(scenario("{\"default\": [{\"prose\": \"never\"}]}"));
    seat.openNew();
    seat.setEffort(Effort.MEDIUM);
    Path missing = work.resolve("missing.txt");
    assertThatThrownBy(() -> seat.ask("x", List.of(missing), work.resolve("out")))
        .isInstanceOfSatisfying(SeatException.class, e -> assertThat(e.afterSend()).isFalse());
    assertThat(sol.sends()).isEmpty();
  }
}

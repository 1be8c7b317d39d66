package dev.solweb.provider.translate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.solweb.provider.model.Attachment;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/** The decoding of a client's file parts, on bytes: type by magic numbers, the limits, names, each refusal typed. */
class AttachmentDecoderTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long MB = 1L << 20;
  private final AttachmentDecoder decoder = AttachmentDecoder.defaults();

  @Test
  void theTypeComesFromTheBytesNotFromWhatTheClientDeclared() throws Exception {
    assertThat(decoder.image("p", TestFiles.dataUrl("image/jpeg", TestFiles.png(50, 1))).mediaType()).isEqualTo("image/png");
    assertThat(decoder.image("p", TestFiles.dataUrl("image/png", TestFiles.jpeg(50, 1))).mediaType()).isEqualTo("image/jpeg");
    byte[] gif = "GIF89a..........".getBytes(StandardCharsets.ISO_8859_1);
    assertThat(decoder.image("p", TestFiles.dataUrl("image/png", gif)).mediaType()).isEqualTo("image/gif");
    byte[] webp = "RIFF\0\0\0\0WEBPVP8 ".getBytes(StandardCharsets.ISO_8859_1);
    assertThat(decoder.image("p", TestFiles.dataUrl("image/png", webp)).mediaType()).isEqualTo("image/webp");
    assertThat(decoder.file("p", TestFiles.dataUrl("text/plain", TestFiles.pdf(80, 1)), "spec.pdf").mediaType())
        .isEqualTo("application/pdf");
    byte[] zip = "PK\u0003\u0004rest of a docx".getBytes(StandardCharsets.ISO_8859_1);
    assertThat(decoder.file("p", base64(zip), "plan.docx").mediaType()).endsWith("wordprocessingml.document");
    assertThat(decoder.file("p", base64(TestFiles.log(3, 1)), "run.log").mediaType()).isEqualTo("text/plain");
  }

  @Test
  void decodedOnceTheFileKeepsItsExactBytesAndTheirSha256() throws Exception {
    byte[] pdf = TestFiles.pdf(1000, 4);
    Attachment file = decoder.file("messages[0].content[1]", TestFiles.dataUrl("application/pdf", pdf), "spec.pdf");

    assertThat(file.bytes()).isEqualTo(pdf);
    assertThat(file.sha256()).isEqualTo(TestFiles.sha256(pdf)).hasSize(64).matches("[0-9a-f]+");
    assertThat(file.name()).isEqualTo("spec.pdf");
  }

  @Test
  void anHttpUrlIsRefusedBecauseSolwebdFetchesNothing() {
    BadRequest refused = catchThrowableOfType(() -> decoder.image("messages[1].content[0]", "https://example.com/a.png"),
        BadRequest.class);

    assertThat(refused.status()).isEqualTo(400);
    assertThat(refused.type()).isEqualTo("attachment_url_unsupported");
    assertThat(refused.getMessage()).contains("messages[1].content[0]").contains("fetches nothing from the network");
  }

  @Test
  void bytesOfNoTypeThePageTakesAreRefusedNamingTheFileAndItsFirstBytes() {
    byte[] elf = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0};

    BadRequest refused = catchThrowableOfType(() -> decoder.file("input[0].content[2]", base64(elf), "a.out"),
        BadRequest.class);

    assertThat(refused.type()).isEqualTo("unsupported_attachment_type");
    assertThat(refused.getMessage()).contains("input[0].content[2]", "a.out", "7f 45 4c 46");
  }

  @Test
  void aDocumentSentAsAnImageIsRefused() {
    BadRequest refused = catchThrowableOfType(
        () -> decoder.image("p", TestFiles.dataUrl("image/png", TestFiles.pdf(60, 1))), BadRequest.class);

    assertThat(refused.type()).isEqualTo("unsupported_attachment_type");
    assertThat(refused.getMessage()).contains("application/pdf").contains("file part");
  }

  @Test
  void aFileOverTheDaemonsLimitIsRefusedNamingTheVariable() {
    AttachmentDecoder small = new AttachmentDecoder(1000);

    BadRequest refused = catchThrowableOfType(() -> small.file("p", base64(TestFiles.pdf(1001, 1)), "big.pdf"),
        BadRequest.class);

    assertThat(refused.type()).isEqualTo("attachment_too_large");
    assertThat(refused.getMessage()).contains("big.pdf", "1001 bytes", "SOLWEBD_MAX_ATTACHMENT_MB");
    assertThat(catchThrowableOfType(() -> small.file("p", base64(TestFiles.pdf(1000, 1)), "fits.pdf"), BadRequest.class))
        .isNull();
  }

  @Test
  void anImageOverThePagesTwentyMegabytesIsRefusedBeforeItIsDecoded() {
    AttachmentDecoder roomy = new AttachmentDecoder(512 * MB);
    // A PNG head and then 21 MB of base64 that is not even valid past its head: refused on its length.
    String payload = base64(TestFiles.png(12, 1)) + "!".repeat((int) (21 * MB / 3 * 4));

    BadRequest refused = catchThrowableOfType(() -> roomy.image("p", "data:image/png;base64," + payload), BadRequest.class);

    assertThat(refused.type()).isEqualTo("attachment_too_large");
    assertThat(refused.getMessage()).contains("21.0 MB", "images up to 20 MB", "row 49");
  }

  @Test
  void badBase64AndFileIdsAreTypedRefusals() {
    assertThat(catchThrowableOfType(() -> decoder.file("p", "data:application/pdf;base64,%%%%", "x.pdf"), BadRequest.class)
        .getMessage()).contains("not valid base64");
    assertThat(catchThrowableOfType(() -> decoder.image("p", "data:image/png,rawbytes"), BadRequest.class).getMessage())
        .contains("without ;base64");
    assertThat(catchThrowableOfType(() -> decoder.file("p", null, "x.pdf"), BadRequest.class).getMessage())
        .contains("no file_data");
  }

  @Test
  void namesLoseDirectoriesAndAPastedImageGetsAStableName() throws Exception {
    Attachment file = decoder.file("p", base64(TestFiles.pdf(70, 1)), "../../home/me/secret/spec.pdf");
    Attachment image = decoder.image("p", TestFiles.dataUrl("image/png", TestFiles.png(70, 2)));

    assertThat(file.name()).isEqualTo("spec.pdf");
    assertThat(image.name()).isEqualTo("image-" + image.sha256().substring(0, 8) + ".png");
    assertThat(decoder.image("p", TestFiles.dataUrl("image/png", TestFiles.png(70, 2))).name()).isEqualTo(image.name());
  }

  @Test
  void anAnthropicImageOrDocumentBlockIsOneCall() throws Exception {
    byte[] png = TestFiles.png(90, 5);
    JsonNode image = JSON.readTree("{\"type\":\"image\",\"source\":{\"type\":\"base64\",\"media_type\":\"image/webp\","
        + "\"data\":\"" + base64(png) + "\"}}");
    JsonNode pdf = JSON.readTree("{\"type\":\"document\",\"title\":\"spec.pdf\",\"source\":{\"type\":\"base64\","
        + "\"media_type\":\"application/pdf\",\"data\":\"" + base64(TestFiles.pdf(90, 5)) + "\"}}");
    JsonNode text = JSON.readTree("{\"type\":\"document\",\"title\":\"notes.md\",\"source\":{\"type\":\"text\","
        + "\"media_type\":\"text/plain\",\"data\":\"remember the milk\"}}");
    JsonNode url = JSON.readTree("{\"type\":\"image\",\"source\":{\"type\":\"url\",\"url\":\"https://example.com/a.png\"}}");

    MessageParts parts = decoder.parts("messages[0]").text("see these")
        .anthropic("messages[0].content[1]", image).anthropic("messages[0].content[2]", pdf)
        .anthropic("messages[0].content[3]", text);

    assertThat(parts.attachments()).extracting(Attachment::mediaType).containsExactly("image/png", "application/pdf");
    assertThat(parts.attachments().get(0).sha256()).isEqualTo(TestFiles.sha256(png));
    assertThat(parts.content()).isEqualTo("see these\n[file notes.md]\nremember the milk\n[end of file notes.md]");
    assertThat(catchThrowableOfType(() -> parts.anthropic("messages[0].content[4]", url), BadRequest.class).type())
        .isEqualTo("attachment_url_unsupported");
  }

  @Test
  void aShortTextFileIsTypedAndALongOneGoesAsAFile() throws Exception {
    byte[] shortLog = TestFiles.log(100, 1);
    byte[] longLog = TestFiles.log(6000, 2); // about 200 KB

    MessageParts parts = decoder.parts("messages[0]").text("why does it fail?")
        .file("messages[0].content[1]", base64(shortLog), "short.log")
        .file("messages[0].content[2]", base64(longLog), "long.log");

    assertThat(longLog.length).isGreaterThan(180_000);
    assertThat(parts.content()).startsWith("why does it fail?\n[file short.log]\n" + new String(shortLog, StandardCharsets.UTF_8))
        .doesNotContain("long.log");
    assertThat(parts.attachments()).singleElement().satisfies(file -> {
      assertThat(file.name()).isEqualTo("long.log");
      assertThat(file.mediaType()).isEqualTo("text/plain");
      assertThat(file.bytes()).isEqualTo(longLog);
    });
  }

  @Test
  void theEleventhFileOfAMessageIsRefusedNamingIt() throws Exception {
    MessageParts parts = decoder.parts("messages[2]");
    for (int i = 0; i < Attachment.MAX_PER_TURN; i++) {
      parts.image("messages[2].content[" + i + "]", TestFiles.dataUrl("image/png", TestFiles.png(40, i)));
    }
    parts.image("messages[2].content[10]", TestFiles.dataUrl("image/png", TestFiles.png(40, 0))); // a repeat: not new

    BadRequest refused = catchThrowableOfType(() -> parts.file("messages[2].content[11]", base64(TestFiles.pdf(40, 1)),
        "eleventh.pdf"), BadRequest.class);

    assertThat(refused.type()).isEqualTo("too_many_attachments");
    assertThat(refused.getMessage()).contains("messages[2].content[11]", "eleventh.pdf", "file 11", "at most 10");
  }

  @Test
  void theBodyLimitAlwaysHoldsOneLargestFileInBase64() {
    assertThat(AttachmentDecoder.bodyLimit(8 * MB, 10 * MB)).isGreaterThan(10 * MB * 4 / 3).isLessThan(16 * MB);
    assertThat(AttachmentDecoder.bodyLimit(64 * MB, 10 * MB)).isEqualTo(64 * MB);
    assertThat(AttachmentDecoder.parseMegabytes("25")).isEqualTo(25 * MB);
    assertThat(catchThrowableOfType(() -> AttachmentDecoder.parseMegabytes("600"), IllegalArgumentException.class)
        .getMessage()).contains("SOLWEBD_MAX_ATTACHMENT_MB", "512");
  }

  private static String base64(byte[] bytes) {
    return Base64.getEncoder().encodeToString(bytes);
  }
}

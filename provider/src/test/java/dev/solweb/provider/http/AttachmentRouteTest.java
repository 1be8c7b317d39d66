package dev.solweb.provider.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.model.Attachment;
import dev.solweb.provider.seat.BrowserSeat;
import dev.solweb.provider.seat.ForwardingSeat;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.SeatReply;
import dev.solweb.provider.translate.TestFiles;
import java.net.http.HttpResponse;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Files over real HTTP, every part type of both wires: what reaches the seat (a seat that records
 * each send and its files, then lets the scripted seat answer the text), and every refusal a typed
 * 400 naming the file and the limit, nothing sent, the daemon healthy after it.
 */
class AttachmentRouteTest {
  private static final String REPLIES = "{\"default\": [{\"prose\": \"seen\"}, {\"prose\": \"seen again\"},"
      + " {\"prose\": \"and again\"}]}";
  private static final List<Sent> SENT = new CopyOnWriteArrayList<>();
  private static TestDaemon daemon;

  /** One send as the dispatcher handed it to the seat. */
  record Sent(String text, List<Attachment> files) { }

  /**
   * Records every send and its files, then has the scripted seat answer the text: the upload
   * itself is the seat's (its own tests on fakesol); this proves what the daemon asks it to upload.
   */
  static final class RecordingSeat extends ForwardingSeat {
    private final List<Sent> sent;

    RecordingSeat(BrowserSeat inner, List<Sent> sent) {
      super(inner);
      this.sent = sent;
    }

    @Override
    public SeatReply send(String text) throws SeatException {
      sent.add(new Sent(text, List.of()));
      return super.send(text);
    }

    @Override
    public SeatReply send(String text, List<Attachment> attachments) throws SeatException {
      sent.add(new Sent(text, attachments));
      return super.send(text);
    }
  }

  @BeforeAll
  static void start() throws Exception {
    daemon = new TestDaemon(REPLIES, TestDaemon.Options.defaults().seatWrapper(seat -> new RecordingSeat(seat, SENT)));
  }

  @AfterAll
  static void stop() {
    daemon.close();
  }

  private static ObjectNode chat(String firstText) {
    ObjectNode body = TestDaemon.JSON.createObjectNode().put("model", "sol-web-high");
    ArrayNode content = body.putArray("messages").addObject().put("role", "user").putArray("content");
    content.addObject().put("type", "text").put("text", firstText);
    return body;
  }

  private static ArrayNode parts(ObjectNode chat) {
    return (ArrayNode) chat.get("messages").get(0).get("content");
  }

  private static ObjectNode imageUrl(String url) {
    ObjectNode part = TestDaemon.JSON.createObjectNode().put("type", "image_url");
    part.putObject("image_url").put("url", url);
    return part;
  }

  private static ObjectNode filePart(byte[] bytes, String declared, String name) {
    ObjectNode part = TestDaemon.JSON.createObjectNode().put("type", "file");
    part.putObject("file").put("file_data", TestFiles.dataUrl(declared, bytes)).put("filename", name);
    return part;
  }

  private static ObjectNode responses(String text) {
    ObjectNode body = TestDaemon.JSON.createObjectNode().put("model", "sol-web-high").put("store", false);
    body.putArray("input").addObject().put("type", "message").put("role", "user").putArray("content").addObject()
        .put("type", "input_text").put("text", text);
    return body;
  }

  private static ArrayNode input(ObjectNode responses) {
    return (ArrayNode) responses.get("input");
  }

  private static ArrayNode userContent(ObjectNode responses) {
    return (ArrayNode) responses.get("input").get(0).get("content");
  }

  /** Posts and returns the one send this request made. */
  private static Sent sendOf(String path, ObjectNode body, Map<String, String> headers) throws Exception {
    int before = SENT.size();
    HttpResponse<String> response = daemon.post(path, body.toString(), headers);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    assertThat(SENT).hasSize(before + 1);
    return SENT.get(before);
  }

  @Test
  void aChatImageDataUrlReachesTheSeatWithItsExactBytesAndIsNamedInTheTypedText() throws Exception {
    byte[] png = TestFiles.png(5000, 11);
    ObjectNode body = chat("what is wrong with this page?");
    parts(body).add(imageUrl(TestFiles.dataUrl("image/png", png)));

    Sent sent = sendOf("/v1/chat/completions", body, Map.of());

    assertThat(sent.files()).singleElement().satisfies(file -> {
      assertThat(file.sha256()).isEqualTo(TestFiles.sha256(png));
      assertThat(file.bytes()).isEqualTo(png);
      assertThat(file.mediaType()).isEqualTo("image/png");
    });
    assertThat(sent.text()).endsWith("USER\nwhat is wrong with this page?\n[attached: image-"
        + TestFiles.sha256(png).substring(0, 8) + ".png]");
  }

  @Test
  void aChatFilePartKeepsItsNameAndIsTypedByItsBytes() throws Exception {
    byte[] pdf = TestFiles.pdf(3000, 12);
    ObjectNode body = chat("summarize the spec");
    parts(body).add(filePart(pdf, "application/octet-stream", "spec.pdf"));

    Sent sent = sendOf("/v1/chat/completions", body, Map.of());

    assertThat(sent.files()).singleElement().satisfies(file -> {
      assertThat(file.name()).isEqualTo("spec.pdf");
      assertThat(file.mediaType()).isEqualTo("application/pdf");
      assertThat(file.sha256()).isEqualTo(TestFiles.sha256(pdf));
    });
  }

  @Test
  void aShortTextFileIsTypedAndA200KbLogGoesAsAFile() throws Exception {
    byte[] notes = "step 1 failed\nstep 2 ok\n".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    byte[] log = TestFiles.log(6000, 13);
    ObjectNode body = chat("why did the build fail?");
    parts(body).add(filePart(notes, "text/plain", "notes.txt"));
    parts(body).add(filePart(log, "text/plain", "build.log"));

    Sent sent = sendOf("/v1/chat/completions", body, Map.of());

    assertThat(log.length).isGreaterThan(180_000);
    assertThat(sent.text()).contains("[file notes.txt]\nstep 1 failed\nstep 2 ok\n\n[end of file notes.txt]")
        .contains("[attached: build.log]").doesNotContain("step 5999");
    assertThat(sent.files()).singleElement().satisfies(file -> assertThat(file.bytes()).isEqualTo(log));
  }

  @Test
  void responsesInputImageAndInputFileBothGoInOneSend() throws Exception {
    byte[] jpeg = TestFiles.jpeg(2000, 14);
    byte[] pdf = TestFiles.pdf(2000, 14);
    ObjectNode body = responses("compare the screenshot with the spec");
    userContent(body).addObject().put("type", "input_image").put("image_url", TestFiles.dataUrl("image/jpeg", jpeg))
        .put("detail", "auto");
    userContent(body).addObject().put("type", "input_file").put("filename", "spec.pdf")
        .put("file_data", Base64.getEncoder().encodeToString(pdf));

    Sent sent = sendOf("/v1/responses", body, Map.of("session-id", "files-1"));

    assertThat(sent.files()).extracting(Attachment::sha256).containsExactly(TestFiles.sha256(jpeg), TestFiles.sha256(pdf));
    assertThat(sent.files()).extracting(Attachment::mediaType).containsExactly("image/jpeg", "application/pdf");
  }

  @Test
  void aToolOutputImageGoesWithItsResultAndAnEarlierFileIsNeverSentTwice() throws Exception {
    String toolLoop = "{\"default\": [{\"blocks\": [\"{\\\"tool\\\": \\\"view_image\\\", \\\"arguments\\\": {}}\"]},"
        + " {\"blocks\": [\"{\\\"tool\\\": \\\"final\\\", \\\"text\\\": \\\"fixed\\\"}\"]}]}";
    List<Sent> sent = new CopyOnWriteArrayList<>();
    try (TestDaemon codex = new TestDaemon(toolLoop, TestDaemon.Options.defaults()
        .seatWrapper(seat -> new RecordingSeat(seat, sent)))) {
      byte[] shot = TestFiles.png(4000, 15);
      byte[] viewed = TestFiles.png(4000, 16);
      ObjectNode first = responses("fix the layout");
      userContent(first).addObject().put("type", "input_image").put("image_url", TestFiles.dataUrl("image/png", shot));
      first.putArray("tools").addObject().put("type", "function").put("name", "view_image").putObject("parameters")
          .put("type", "object");
      JsonNode call = TestDaemon.json(codex.post("/v1/responses", first.toString(), Map.of("session-id", "files-2"))
          .body()).path("output").get(0);

      ObjectNode second = first.deepCopy();
      input(second).addObject().put("type", "function_call").put("call_id", call.path("call_id").asText())
          .put("name", "view_image").put("arguments", call.path("arguments").asText());
      ArrayNode output = input(second).addObject().put("type", "function_call_output")
          .put("call_id", call.path("call_id").asText()).putArray("output");
      output.addObject().put("type", "input_image").put("image_url", TestFiles.dataUrl("image/png", viewed));
      output.addObject().put("type", "input_image").put("image_url", TestFiles.dataUrl("image/png", shot));
      HttpResponse<String> done = codex.post("/v1/responses", second.toString(), Map.of("session-id", "files-2"));

      assertThat(done.statusCode()).as(done.body()).isEqualTo(200);
      assertThat(sent).hasSize(2);
      assertThat(sent.get(0).files()).extracting(Attachment::sha256).containsExactly(TestFiles.sha256(shot));
      assertThat(sent.get(1).files()).extracting(Attachment::sha256).containsExactly(TestFiles.sha256(viewed));
      assertThat(sent.get(1).text()).startsWith("TOOL RESULT [" + call.path("call_id").asText() + "]\n\n[attached: image-")
          .endsWith("[attached earlier in this conversation: image-" + TestFiles.sha256(shot).substring(0, 8) + ".png]");
      assertThat(codex.player.sends().get(1).conversationId()).isEqualTo(codex.player.sends().get(0).conversationId());
    }
  }

  @Test
  void aDeltaTurnCarriesOnlyItsNewFiles() throws Exception {
    byte[] before = TestFiles.png(3000, 17);
    byte[] after = TestFiles.png(3000, 18);
    ObjectNode first = chat("this is the page before");
    parts(first).add(imageUrl(TestFiles.dataUrl("image/png", before)));
    Sent opened = sendOf("/v1/chat/completions", first, Map.of());

    ObjectNode second = first.deepCopy();
    ArrayNode messages = (ArrayNode) second.get("messages");
    messages.addObject().put("role", "assistant").put("content", "seen");
    ArrayNode next = messages.addObject().put("role", "user").putArray("content");
    next.addObject().put("type", "text").put("text", "and after");
    next.add(imageUrl(TestFiles.dataUrl("image/png", after)));
    Sent delta = sendOf("/v1/chat/completions", second, Map.of());

    assertThat(opened.files()).extracting(Attachment::sha256).containsExactly(TestFiles.sha256(before));
    assertThat(delta.files()).extracting(Attachment::sha256).containsExactly(TestFiles.sha256(after));
    assertThat(delta.text()).startsWith("USER\nand after\n[attached: image-");
  }

  @Test
  void aCorrectionTurnCarriesNoFiles() throws Exception {
    String brokenThenFine = "{\"default\": [{\"blocks\": [\"{\\\"tool\\\": \\\"nope\\\"}\"]}, {\"prose\": \"fine\"}]}";
    List<Sent> sent = new CopyOnWriteArrayList<>();
    try (TestDaemon repaired = new TestDaemon(brokenThenFine, TestDaemon.Options.defaults()
        .seatWrapper(seat -> new RecordingSeat(seat, sent)))) {
      byte[] png = TestFiles.png(2000, 19);
      ObjectNode body = chat("what is this?");
      parts(body).add(imageUrl(TestFiles.dataUrl("image/png", png)));

      HttpResponse<String> response = repaired.post(body.toString());

      assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
      assertThat(sent).hasSize(2);
      assertThat(sent.get(0).files()).extracting(Attachment::sha256).containsExactly(TestFiles.sha256(png));
      assertThat(sent.get(1).text()).contains("unknown tool \"nope\"");
      assertThat(sent.get(1).files()).isEmpty();
    }
  }

  @Test
  void anthropicImageAndDocumentBlocksAndAToolResultsImageReachTheSeatWithTheirExactBytes() throws Exception {
    byte[] png = TestFiles.png(4000, 21);
    byte[] pdf = TestFiles.pdf(3000, 22);
    byte[] shot = TestFiles.png(2000, 23);
    ObjectNode body = TestDaemon.JSON.createObjectNode().put("model", "sol-web-high").put("max_tokens", 1024);
    ArrayNode content = body.putArray("messages").addObject().put("role", "user").putArray("content");
    content.addObject().put("type", "text").put("text", "compare the picture with the spec");
    content.addObject().put("type", "image").putObject("source").put("type", "base64").put("media_type", "image/png")
        .put("data", java.util.Base64.getEncoder().encodeToString(png));
    ObjectNode document = content.addObject().put("type", "document").put("title", "spec.pdf");
    document.putObject("source").put("type", "base64").put("media_type", "application/pdf")
        .put("data", java.util.Base64.getEncoder().encodeToString(pdf));

    Sent first = sendOf("/v1/messages", body, Map.of("anthropic-version", "2023-06-01"));

    assertThat(first.files()).extracting(Attachment::sha256).containsExactly(TestFiles.sha256(png), TestFiles.sha256(pdf));
    assertThat(first.files()).extracting(Attachment::mediaType).containsExactly("image/png", "application/pdf");
    assertThat(first.files().get(1).name()).isEqualTo("spec.pdf");

    ArrayNode messages = (ArrayNode) body.get("messages");
    messages.addObject().put("role", "assistant").putArray("content").addObject().put("type", "text").put("text", "seen");
    ArrayNode result = messages.addObject().put("role", "user").putArray("content");
    result.addObject().put("type", "text").put("text", "and this screenshot");
    result.addObject().put("type", "image").putObject("source").put("type", "base64").put("media_type", "image/png")
        .put("data", java.util.Base64.getEncoder().encodeToString(shot));

    Sent second = sendOf("/v1/messages", body, Map.of("anthropic-version", "2023-06-01"));

    assertThat(second.files()).extracting(Attachment::sha256).as("a delta turn uploads only the new file")
        .containsExactly(TestFiles.sha256(shot));
  }

  @Test
  void anAnthropicImageThatIsNoImageOrComesByUrlIsATyped400InAnthropicsShapeAndNothingIsSent() throws Exception {
    Map<String, String> sources = Map.of(
        "{\"type\": \"base64\", \"media_type\": \"image/png\", \"data\": \"AAAA\"}", "is no type the page takes",
        "{\"type\": \"url\", \"url\": \"https://example.com/a.png\"}", "network");
    for (Map.Entry<String, String> source : sources.entrySet()) {
      int before = SENT.size();
      String body = "{\"model\": \"sol-web-high\", \"max_tokens\": 64, \"messages\": [{\"role\": \"user\", \"content\": ["
          + "{\"type\": \"text\", \"text\": \"look\"}, {\"type\": \"image\", \"source\": " + source.getKey() + "}]}]}";

      HttpResponse<String> response = daemon.post("/v1/messages", body, Map.of("anthropic-version", "2023-06-01"));

      assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
      JsonNode error = TestDaemon.json(response.body());
      assertThat(error.path("type").asText()).isEqualTo("error");
      assertThat(error.path("error").path("type").asText()).isEqualTo("invalid_request_error");
      assertThat(error.path("error").path("message").asText()).contains("messages[0].content[1]").contains(source.getValue());
      assertThat(SENT).hasSize(before);
    }
    assertHealthy();
  }

  static Stream<Arguments> refusals() {
    ObjectNode httpImage = chat("look");
    parts(httpImage).add(imageUrl("https://example.com/shot.png"));
    ObjectNode fileId = chat("read it");
    parts(fileId).addObject().put("type", "file").putObject("file").put("file_id", "file-abc123");
    ObjectNode binary = chat("run it");
    parts(binary).add(filePart(new byte[] {0x7f, 'E', 'L', 'F', 2, 1, 1, 0}, "application/pdf", "tool.pdf"));
    ObjectNode pdfAsImage = chat("look");
    parts(pdfAsImage).add(imageUrl(TestFiles.dataUrl("image/png", TestFiles.pdf(100, 1))));
    ObjectNode eleven = chat("all of them");
    for (int i = 0; i < 11; i++) {
      parts(eleven).add(imageUrl(TestFiles.dataUrl("image/png", TestFiles.png(64, 100 + i))));
    }
    ObjectNode responsesUrl = responses("look");
    userContent(responsesUrl).addObject().put("type", "input_image").put("image_url", "http://127.0.0.1:9/x.png");
    ObjectNode responsesFileId = responses("read it");
    userContent(responsesFileId).addObject().put("type", "input_file").put("file_id", "file-xyz");
    ObjectNode responsesAssistantImage = responses("hi");
    input(responsesAssistantImage).addObject().put("type", "message").put("role", "assistant").putArray("content")
        .addObject().put("type", "input_image").put("image_url", TestFiles.dataUrl("image/png", TestFiles.png(64, 1)));
    String chatRoute = "/v1/chat/completions";
    return Stream.of(
        refusal("chat image over http", chatRoute, httpImage, "attachment_url_unsupported: messages[0].content[1]",
            "fetches nothing from the network"),
        refusal("chat file by id", chatRoute, fileId, "invalid_attachment: messages[0].content[1]", "file-abc123"),
        refusal("chat file of no known type", chatRoute, binary, "unsupported_attachment_type: tool.pdf", "7f 45 4c 46"),
        refusal("chat image that is a PDF", chatRoute, pdfAsImage,
            "unsupported_attachment_type: messages[0].content[1]", "application/pdf"),
        refusal("chat eleven images", chatRoute, eleven, "too_many_attachments: messages[0].content[11]", "at most 10"),
        refusal("responses image over http", "/v1/responses", responsesUrl,
            "attachment_url_unsupported: input[0].content[1]", "fetches nothing"),
        refusal("responses file by id", "/v1/responses", responsesFileId, "invalid_attachment: input[0].content[1]",
            "file-xyz"),
        refusal("responses image on an assistant message", "/v1/responses", responsesAssistantImage,
            "invalid_request_error: input[1].content[0]", "files go in user messages"));
  }

  /** @param typeAndWhere the error type, then after ": " what the message must name first (the part or the file) */
  private static Arguments refusal(String why, String path, ObjectNode body, String typeAndWhere, String detail) {
    String[] split = typeAndWhere.split(": ", 2);
    return Arguments.of(why, path, body, split[0], split[1], detail);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("refusals")
  void eachRefusalIsATyped400NamingTheFileAndNothingIsSent(String why, String path, ObjectNode body, String type,
      String where, String detail) throws Exception {
    int before = SENT.size();

    HttpResponse<String> response = daemon.post(path, body.toString(), Map.of());

    assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
    JsonNode error = TestDaemon.json(response.body()).path("error");
    assertThat(error.path("type").asText()).isEqualTo(type);
    assertThat(error.path("message").asText()).contains(where).contains(detail);
    assertThat(SENT).hasSize(before);
    assertHealthy();
  }

  @Test
  void aFileOverTheDaemonsLimitIsA400BeforeItIsDecodedAndABodyOverTheLimitIsA413() throws Exception {
    List<Sent> sent = new CopyOnWriteArrayList<>();
    try (TestDaemon roomy = new TestDaemon(REPLIES, TestDaemon.Options.defaults().maxBody(16L << 20)
        .seatWrapper(seat -> new RecordingSeat(seat, sent)))) {
      ObjectNode huge = chat("look");
      parts(huge).add(imageUrl(TestFiles.dataUrl("image/png", TestFiles.png(11 << 20, 1))));
      ObjectNode overBody = chat("look");
      parts(overBody).add(imageUrl(TestFiles.dataUrl("image/png", TestFiles.png(13 << 20, 2))));

      HttpResponse<String> tooLarge = roomy.post(huge.toString());
      HttpResponse<String> tooLong = roomy.post(overBody.toString());

      assertThat(tooLarge.statusCode()).isEqualTo(400);
      JsonNode error = TestDaemon.json(tooLarge.body()).path("error");
      assertThat(error.path("type").asText()).isEqualTo("attachment_too_large");
      assertThat(error.path("message").asText())
          .contains("messages[0].content[1]", "11.0 MB", "up to 10.0 MB", "SOLWEBD_MAX_ATTACHMENT_MB");
      assertThat(tooLong.statusCode()).isEqualTo(413);
      assertThat(TestDaemon.json(tooLong.body()).path("error").path("message").asText())
          .contains("SOLWEBD_MAX_BODY", "base64");
      assertThat(sent).isEmpty();
      assertThat(roomy.post(chat("hello").toString()).statusCode()).isEqualTo(200);
    }
  }

  @Test
  void aFileWhoseBase64IsOverJacksonsDefaultStringCapStillParses() throws Exception {
    // 16 MB in base64 is 22.4 million characters; Jackson refuses strings over 20 million unless told otherwise.
    byte[] png = TestFiles.png(16 << 20, 20);
    ObjectNode body = chat("a large screenshot");
    parts(body).add(imageUrl(TestFiles.dataUrl("image/png", png)));

    ChatRequest request = ChatRequest.parse(body.toString(), java.util.Optional.empty(),
        new dev.solweb.provider.translate.AttachmentDecoder(20L << 20));

    assertThat(request.input().messages().get(0).attachments()).singleElement()
        .satisfies(file -> assertThat(file.sha256()).isEqualTo(TestFiles.sha256(png)));
  }

  private static void assertHealthy() throws Exception {
    HttpResponse<String> health = daemon.get("/healthz");
    assertThat(health.statusCode()).isEqualTo(200);
    assertThat(TestDaemon.json(health.body()).path("state").asText()).isEqualTo("ready");
    int before = SENT.size();
    assertThat(daemon.post(chat("still there? " + before).toString()).statusCode()).isEqualTo(200);
    assertThat(SENT).hasSize(before + 1);
  }
}

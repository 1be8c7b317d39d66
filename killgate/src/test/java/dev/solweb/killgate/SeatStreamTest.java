package dev.solweb.killgate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.solweb.provider.failure.ProviderFailure.Kind;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.seat.AnswerStats;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.SeatReply;
import dev.solweb.provider.seat.playwright.PlaywrightSeat;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The seat on fakesol's streaming page (each turn a POST to its own /backend-api/f/conversation):
 * for each stream fault, the answer, the source the seat used, the failure kind, and that nothing
 * was sent twice.
 */
class SeatStreamTest extends SeatHarness {

  static final String CALL = "{\"tool\": \"write\", \"arguments\": {\"path\": \"a.txt\", \"content\": \"\u00e9 \uD83D\uDE42\\n\"}}";

  private PlaywrightSeat ready(String replies) throws Exception {
    PlaywrightSeat seat = seatOn(scenario("{\"default\": [" + replies + "]}"));
    seat.openNew();
    seat.setEffort(Effort.HIGH);
    return seat;
  }

  private static String reply(String stream) {
    return "{\"prose\": \"Calling.\", \"blocks\": [" + com.fasterxml.jackson.databind.node.TextNode.valueOf(CALL)
        + "], \"stream_ms\": 150" + (stream == null ? "" : ", \"stream\": " + stream) + "}";
  }

  private void sentOnce() {
    assertThat(sol.sends()).hasSize(1);
    assertThat(sol.retryClicks()).isZero();
  }

  @Test
  void aV1StreamDecidesAndItsMarkdownIsTheAnswer() throws Exception {
    PlaywrightSeat seat = ready(reply(null));
    long disagreements = AnswerStats.GLOBAL.disagreements();
    long streamed = AnswerStats.GLOBAL.stream();
    SeatReply r = seat.send("hi");
    assertThat(r.source()).isEqualTo(SeatReply.Source.STREAM);
    assertThat(r.codeBlocks()).containsExactly(CALL);
    assertThat(r.prose()).isEqualTo("Calling.");
    assertThat(r.modelSlug()).isEqualTo("gpt-5-thinking");
    assertThat(r.conversationUrl()).isEqualTo(sol.url() + "c/" + sol.sends().get(0).conversationId());
    sentOnce();
    seat.probe(); // runs the deferred DOM cross-check
    assertThat(AnswerStats.GLOBAL.stream()).isEqualTo(streamed + 1);
    assertThat(AnswerStats.GLOBAL.disagreements()).as("the DOM and Copy agree with the stream").isEqualTo(disagreements);
  }

  @Test
  void theOlderCumulativeFormatAlsoDecides() throws Exception {
    SeatReply r = ready(reply("{\"format\": \"cumulative\"}")).send("hi");
    assertThat(r.source()).isEqualTo(SeatReply.Source.STREAM);
    assertThat(r.codeBlocks()).containsExactly(CALL);
    sentOnce();
  }

  @Test
  void aStreamCutMidAnswerIsUnavailableThoughThePageLooksFinished() throws Exception {
    PlaywrightSeat seat = ready(reply("{\"fault\": \"cut\"}"));
    assertThatThrownBy(() -> seat.send("hi")).isInstanceOfSatisfying(SeatException.class, e -> {
      assertThat(e.failure().kind()).isEqualTo(Kind.UNAVAILABLE);
      assertThat(e.failure().detail()).contains("ended before the answer finished");
      assertThat(e.afterSend()).isTrue();
    });
    sentOnce();
  }

  @Test
  void aLongSilenceThenResumeCompletesFromTheResumedBody() throws Exception {
    SeatReply r = ready(reply("{\"fault\": \"silence_resume\", \"silence_ms\": 600}")).send("hi");
    assertThat(r.source()).isEqualTo(SeatReply.Source.STREAM);
    assertThat(r.codeBlocks()).containsExactly(CALL);
    sentOnce();
  }

  @Test
  void aHandoffToAWebSocketIsFollowedThroughPlaywright() throws Exception {
    SeatReply r = ready(reply("{\"fault\": \"handoff_ws\"}")).send("hi");
    assertThat(r.source()).isEqualTo(SeatReply.Source.STREAM);
    assertThat(r.codeBlocks()).containsExactly(CALL);
    sentOnce();
  }

  @Test
  void aHandoffTheSeatCannotFollowLeavesTheDomToDecide() throws Exception {
    SeatReply r = ready(reply("{\"fault\": \"handoff_unfollowed\"}")).send("hi");
    assertThat(r.source()).isEqualTo(SeatReply.Source.DOM);
    assertThat(r.codeBlocks()).containsExactly(CALL);
    sentOnce();
  }

  @Test
  void aFollowUpThatFirstReSendsTheOldAnswerYieldsTheNewOne() throws Exception {
    PlaywrightSeat seat = ready("{\"prose\": \"first answer\"}, " + reply("{\"resend_older\": true}"));
    assertThat(seat.send("one").prose()).isEqualTo("first answer");
    SeatReply r = seat.send("two");
    assertThat(r.source()).isEqualTo(SeatReply.Source.STREAM);
    assertThat(r.codeBlocks()).containsExactly(CALL);
    assertThat(r.prose()).isEqualTo("Calling.");
    assertThat(sol.sends()).hasSize(2);
  }

  @Test
  void aModelAdjustmentsDowngradeIsCapped() throws Exception {
    PlaywrightSeat seat = ready(reply("{\"model_adjustments\": [\"auto:smaller_model:reached_message_cap\"]}"));
    assertThatThrownBy(() -> seat.send("hi")).isInstanceOfSatisfying(SeatException.class, e -> {
      assertThat(e.failure().kind()).isEqualTo(Kind.CAPPED);
      assertThat(e.failure().detail()).contains("reached_message_cap");
    });
    sentOnce();
  }

  @Test
  void a429WithClearsInIsCappedUntilThen() throws Exception {
    PlaywrightSeat seat = ready(reply("{\"fault\": \"http_429\", \"clears_in_s\": 900}"));
    Instant expected = Instant.now().plusSeconds(900);
    assertThatThrownBy(() -> seat.send("hi")).isInstanceOfSatisfying(SeatException.class, e -> {
      assertThat(e.failure().kind()).isEqualTo(Kind.CAPPED);
      assertThat(Instant.parse(e.failure().resumeAt())).isBetween(expected.minusSeconds(30), expected.plusSeconds(30));
    });
    sentOnce();
  }

  @Test
  void a403UnusualActivityIsUnavailable() throws Exception {
    PlaywrightSeat seat = ready(reply("{\"fault\": \"http_403\"}"));
    assertThatThrownBy(() -> seat.send("hi")).isInstanceOfSatisfying(SeatException.class, e -> {
      assertThat(e.failure().kind()).isEqualTo(Kind.UNAVAILABLE);
      // The page shows it too, and its banner table says the same (first): a person must look.
      assertThat(e.failure().detail()).containsIgnoringCase("unusual activity").contains("a person must");
      assertThat(e.afterSend()).isTrue();
    });
    sentOnce();
  }

  @Test
  void anImageTurnWithNoTextIsDecidedByTheDom(@org.junit.jupiter.api.io.TempDir Path out) throws Exception {
    PlaywrightSeat seat = ready("{\"images\": [\"cat.png\"], \"stream_ms\": 50}");
    SeatReply r = seat.ask("draw a cat", List.of(), out);
    assertThat(r.source()).isEqualTo(SeatReply.Source.DOM);
    assertThat(r.images()).hasSize(1);
    assertThat(Files.size(Path.of(r.images().get(0)))).isPositive();
    sentOnce();
  }

  /** A recorded body (here: written in the real endpoint's shape, CRLF and all) replayed through the page. */
  @Test
  void aRecordedBodyReplaysThroughThePageAndLooksLikeALiveTurn() throws Exception {
    PlaywrightSeat seat = ready(reply(null));
    String conv = "68d9b2c1-1a2b-8003-9c4d-5e6f7a8b9c0d";
    sol.answerNextWith(("event: delta_encoding\r\ndata: \"v1\"\r\n\r\n"
        + "data: {\"type\": \"resume_conversation_token\", \"token\": \"eyJhbGciOi.c2VjcmV0.c2ln\", \"conversation_id\": \"" + conv + "\"}\r\n\r\n"
        + "event: delta\r\ndata: {\"p\": \"\", \"o\": \"add\", \"v\": {\"message\": {\"id\": \"rec-a1\", \"author\": {\"role\": \"assistant\"}, "
        + "\"content\": {\"content_type\": \"text\", \"parts\": [\"\"]}, \"status\": \"in_progress\", \"end_turn\": null, \"channel\": \"final\", "
        + "\"recipient\": \"all\", \"metadata\": {\"model_slug\": \"gpt-5-6-thinking\"}}, \"conversation_id\": \"" + conv + "\", \"error\": null}, \"c\": 0}\r\n\r\n"
        + "event: delta\r\ndata: {\"p\": \"/message/content/parts/0\", \"o\": \"append\", \"v\": \"Recorded: \\n\\n```json\\n{\\\"tool\\\": \\\"fin\"}\r\n\r\n"
        + "event: delta\r\ndata: {\"v\": \"al\\\", \\\"text\\\": \\\"ok\\\"}\\n```\"}\r\n\r\n"
        + "event: delta\r\ndata: {\"p\": \"\", \"o\": \"patch\", \"v\": [{\"p\": \"/message/status\", \"o\": \"replace\", \"v\": \"finished_successfully\"}, "
        + "{\"p\": \"/message/end_turn\", \"o\": \"replace\", \"v\": true}]}\r\n\r\n"
        + "data: {\"type\": \"message_stream_complete\", \"conversation_id\": \"" + conv + "\"}\r\n\r\ndata: [DONE]\r\n\r\n")
        .getBytes(StandardCharsets.UTF_8));
    SeatReply r = seat.send("hi");
    assertThat(r.source()).isEqualTo(SeatReply.Source.STREAM);
    assertThat(r.codeBlocks()).containsExactly("{\"tool\": \"final\", \"text\": \"ok\"}");
    assertThat(r.modelSlug()).isEqualTo("gpt-5-6-thinking");
    assertThat(r.conversationUrl()).isEqualTo(sol.url() + "c/" + conv);
    sentOnce();
    // The page adopted the recording's ids: its history, a reload and the next turn all go by them.
    assertThat(sol.sends().get(0).conversationId()).as("fakesol keeps its own id underneath").isNotEqualTo(conv);
    seat.probe();
    SeatReply next = seat.send("and now?");
    assertThat(next.source()).isEqualTo(SeatReply.Source.STREAM);
    assertThat(next.codeBlocks()).containsExactly(CALL);
    assertThat(next.conversationUrl()).isEqualTo(sol.url() + "c/" + conv);
    assertThat(sol.sends()).hasSize(2);
    assertThat(sol.sends().get(1).conversationId()).as("the follow-up continues the replayed conversation")
        .isEqualTo(sol.sends().get(0).conversationId());
  }

  /** A reload of a replayed conversation shows what its recording said, under the recording's message ids. */
  @Test
  void aReplayedConversationReloadsUnderTheRecordingsIds() throws Exception {
    PlaywrightSeat seat = ready(reply(null));
    String conv = "68d9b2c1-1a2b-8003-9c4d-5e6f7a8b9c0e";
    sol.answerNextWith(("data: {\"type\": \"input_message\", \"input_message\": {\"id\": \"rec-u1\", \"author\": {\"role\": \"user\"}, "
        + "\"content\": {\"content_type\": \"text\", \"parts\": [\"hi\"]}, \"status\": \"finished_successfully\"}, \"conversation_id\": \"" + conv + "\"}\n\n"
        + recordedAnswer(conv, "in_progress", "null") + recordedAnswer(conv, "finished_successfully", "true")
        + "data: [DONE]\n\n").getBytes(StandardCharsets.UTF_8));
    SeatReply r = seat.send("hi");
    assertThat(r.prose()).isEqualTo("Recorded answer.");
    assertThat(r.conversationUrl()).isEqualTo(sol.url() + "c/" + conv);
    seat.openNew();
    seat.resume(sol.url() + "c/" + conv);
    SeatReply next = seat.send("more");
    assertThat(next.codeBlocks()).containsExactly(CALL);
    assertThat(next.conversationUrl()).isEqualTo(sol.url() + "c/" + conv);
    assertThat(sol.sends().get(1).conversationId()).isEqualTo(sol.sends().get(0).conversationId());
    assertThat(reloaded(conv)).contains("\"id\":\"rec-u1\"", "\"id\":\"rec-a2\"", "Recorded answer.");
  }

  /** One event of the older cumulative format: the whole answer "Recorded answer." in this state. */
  private static String recordedAnswer(String conv, String status, String endTurn) {
    return "data: {\"message\": {\"id\": \"rec-a2\", \"author\": {\"role\": \"assistant\"}, \"content\": {\"content_type\": \"text\", "
        + "\"parts\": [\"Recorded answer.\"]}, \"status\": \"" + status + "\", \"end_turn\": " + endTurn + ", \"channel\": \"final\", "
        + "\"recipient\": \"all\", \"metadata\": {\"model_slug\": \"gpt-5-6-thinking\"}}, \"conversation_id\": \"" + conv + "\", \"error\": null}\n\n";
  }

  /** What a reload of the conversation gets from fakesol (the page renders it). */
  private String reloaded(String conv) throws Exception {
    java.net.http.HttpResponse<String> r = java.net.http.HttpClient.newHttpClient().send(
        java.net.http.HttpRequest.newBuilder(sol.url().resolve("api/conversation/" + conv)).build(),
        java.net.http.HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(200);
    return r.body();
  }
}

package dev.solweb.provider.seat.playwright.traffic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.solweb.provider.seat.playwright.page.MarkdownFences;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The decoder on hand-made bodies (written after ../shared/CHATGPT-STREAM.md, not copied from a
 * capture), each one fed whole, split at every byte boundary and byte by byte: all must give the
 * same events.
 */
class ConversationStreamDecoderTest {

  static final String CONV = "68d9a1f2-0c4e-8003-b2a1-5f0e3c7d9e11";
  static final String JWT = "eyJhbGciOiJIUzI1NiJ9.c2VjcmV0LXJlc3VtZS10b2tlbg.c2ln";

  /** A new chat on a thinking model, in delta encoding v1, with every frame kind the page sees. */
  static final String V1_NEW_CHAT = String.join("\n\n",
      "event: delta_encoding\ndata: \"v1\"",
      "data: {\"type\": \"resume_conversation_token\", \"kind\": \"topic\", \"token\": \"" + JWT + "\", \"conversation_id\": \"" + CONV + "\"}",
      "event: delta\ndata: {\"type\": \"input_message\", \"input_message\": {\"id\": \"u-1\", \"author\": {\"role\": \"user\"}, \"content\": {\"content_type\": \"text\", \"parts\": [\"hi\"]}, \"status\": \"finished_successfully\"}, \"conversation_id\": \"" + CONV + "\"}",
      "data: {\"type\": \"server_ste_metadata\", \"metadata\": {\"model_slug\": \"gpt-5-6-thinking\", \"plan_type\": \"plus\", \"is_first_turn\": true, \"resume_with_websockets\": true}, \"conversation_id\": \"" + CONV + "\"}",
      "data: {\"type\": \"message_marker\", \"conversation_id\": \"" + CONV + "\", \"message_id\": \"r-1\", \"marker\": \"cot_token\", \"event\": \"first\"}",
      "event: delta\ndata: {\"p\": \"\", \"o\": \"add\", \"v\": {\"message\": {\"id\": \"t-1\", \"author\": {\"role\": \"assistant\"}, \"content\": {\"content_type\": \"thoughts\", \"thoughts\": []}, \"status\": \"in_progress\", \"recipient\": \"all\", \"channel\": \"analysis\", \"metadata\": {}}, \"conversation_id\": \"" + CONV + "\", \"error\": null}, \"c\": 0}",
      "event: delta\ndata: {\"p\": \"/message/content/thoughts/0\", \"o\": \"add\", \"v\": {\"summary\": \"Greeting\", \"content\": \"The user says hi.\"}, \"c\": 1}",
      "event: delta\ndata: {\"p\": \"/message/status\", \"o\": \"replace\", \"v\": \"finished_successfully\"}",
      "event: delta\ndata: {\"v\": {\"message\": {\"id\": \"r-1\", \"author\": {\"role\": \"assistant\"}, \"content\": {\"content_type\": \"reasoning_recap\", \"content\": \"Thought for 2s\"}, \"status\": \"finished_successfully\", \"recipient\": \"all\", \"channel\": \"analysis\", \"metadata\": {\"finished_duration_sec\": 2}}, \"conversation_id\": \"" + CONV + "\", \"error\": null}, \"c\": 2}",
      "event: delta\ndata: {\"p\": \"\", \"o\": \"add\", \"v\": {\"message\": {\"id\": \"a-1\", \"author\": {\"role\": \"assistant\"}, \"content\": {\"content_type\": \"text\", \"parts\": [\"Hel\"]}, \"status\": \"in_progress\", \"end_turn\": null, \"recipient\": \"all\", \"channel\": \"final\", \"metadata\": {\"model_slug\": \"gpt-5-6-thinking\"}}, \"conversation_id\": \"" + CONV + "\", \"error\": null}, \"c\": 3}   ",
      "event: delta\ndata: {\"p\": \"/message/content/parts/0\", \"o\": \"append\", \"v\": \"lo, w\u00f6r\"}",
      "event: delta\ndata: {\"v\": \"ld \uD83D\uDE42 see \uE200cite\uE202turn0search0\uE201.\\n\\n```json\\n{\\\"a\\\": 1}\\n```\"}",
      "event: delta\ndata: {\"p\": \"\", \"o\": \"patch\", \"v\": [{\"p\": \"/message/content/parts/0\", \"o\": \"append\", \"v\": \"\\nDone.\"}, {\"p\": \"/message/status\", \"o\": \"replace\", \"v\": \"finished_successfully\"}, {\"p\": \"/message/end_turn\", \"o\": \"replace\", \"v\": true}, {\"p\": \"/message/metadata\", \"o\": \"append\", \"v\": {\"is_complete\": true, \"finish_details\": {\"type\": \"stop\"}}}]}",
      "data: {\"type\": \"title_generation\", \"title\": \"Greeting\", \"conversation_id\": \"" + CONV + "\"}",
      "data: {\"type\": \"conversation_detail_metadata\", \"limits_progress\": [{\"feature_name\": \"deep_research\", \"remaining\": 25, \"reset_after\": \"2026-10-28T00:00:00+00:00\"}], \"model_limits\": [], \"blocked_features\": [], \"conversation_id\": \"" + CONV + "\"}",
      "data: {\"type\": \"message_stream_complete\", \"conversation_id\": \"" + CONV + "\"}",
      "data: [DONE]", "");

  static final String ANSWER = "Hello, w\u00f6rld \uD83D\uDE42 see \uE200cite\uE202turn0search0\uE201.\n\n```json\n{\"a\": 1}\n```\nDone.";

  static List<StreamEvent> decode(String body, int split) {
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    ConversationStreamDecoder d = new ConversationStreamDecoder();
    List<StreamEvent> out = new ArrayList<>(d.feed(b, 0, split));
    out.addAll(d.feed(b, split, b.length - split));
    out.addAll(d.end());
    return out;
  }

  /** Decodes whole, then asserts every split point and byte-by-byte feeding give the same events. */
  static List<StreamEvent> decodeAnyway(String body) {
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    List<StreamEvent> whole = decode(body, b.length);
    for (int k = 0; k < b.length; k++) {
      assertThat(decode(body, k)).as("split at byte %d", k).isEqualTo(whole);
    }
    ConversationStreamDecoder d = new ConversationStreamDecoder();
    List<StreamEvent> bytewise = new ArrayList<>();
    for (int i = 0; i < b.length; i++) {
      bytewise.addAll(d.feed(b, i, 1));
    }
    bytewise.addAll(d.end());
    assertThat(bytewise).as("byte by byte").isEqualTo(whole);
    return whole;
  }

  static StreamTurn turnOf(String... bodies) {
    StreamTurn t = new StreamTurn();
    for (String body : bodies) {
      t.beginBody();
      t.accept(decodeAnyway(body));
    }
    return t;
  }

  @Test
  void aV1NewChatDecodesEveryFrameKindAtEverySplit() {
    List<StreamEvent> events = decodeAnyway(V1_NEW_CHAT);
    assertThat(events).startsWith(new StreamEvent.Encoding("v1"), new StreamEvent.Conversation(CONV),
        new StreamEvent.InputMessage("u-1"), new StreamEvent.ModelSeen(null, "gpt-5-6-thinking", List.of()),
        new StreamEvent.Plan("plus"), new StreamEvent.Marker("cot_token", "r-1"));
    assertThat(events).contains(
        new StreamEvent.MessageSeen("t-1", "assistant", "thoughts", "analysis", "all", "in_progress", false, true),
        new StreamEvent.MessageSeen("t-1", "assistant", "thoughts", "analysis", "all", "finished_successfully", false, false),
        new StreamEvent.ThinkingFinished("r-1", 2.0, "Thought for 2s"),
        new StreamEvent.TextAppended("a-1", "Hel"),
        new StreamEvent.TextAppended("a-1", "lo, w\u00f6r"),
        new StreamEvent.MessageSeen("a-1", "assistant", "text", "final", "all", "finished_successfully", true, false),
        new StreamEvent.Title("Greeting"),
        new StreamEvent.Limits(List.of(new StreamEvent.Limit("deep_research", 25, "2026-10-28T00:00:00+00:00")), List.of(),
            List.of(), null));
    assertThat(events).endsWith(new StreamEvent.StreamComplete(CONV), new StreamEvent.Done());
    assertThat(events).noneMatch(e -> e instanceof StreamEvent.Unreadable);
    assertThat(events.toString()).as("the resume JWT is never kept").doesNotContain(JWT).doesNotContain("c2VjcmV0");
  }

  @Test
  void theTurnOfAV1NewChatIsCompleteWithItsExactMarkdownModelIdAndThinking() {
    StreamTurn t = turnOf(V1_NEW_CHAT);
    assertThat(t.complete()).isTrue();
    assertThat(t.phase()).isEqualTo(StreamTurn.Phase.COMPLETE);
    assertThat(t.answerMessageId()).contains("a-1");
    assertThat(t.answerText()).contains(ANSWER);
    assertThat(t.answerMarkdown()).contains("Hello, w\u00f6rld \uD83D\uDE42 see .\n\n```json\n{\"a\": 1}\n```\nDone.");
    assertThat(MarkdownFences.split(t.answerMarkdown().orElseThrow()).blocks()).containsExactly("{\"a\": 1}");
    assertThat(t.conversationId()).isEqualTo(CONV);
    assertThat(t.inputMessageId()).isEqualTo("u-1");
    assertThat(t.modelSlug()).isEqualTo("gpt-5-6-thinking");
    assertThat(t.modelAdjustments()).isEmpty();
    assertThat(t.thinking()).isTrue();
    assertThat(t.thinkingSeconds()).isEqualTo(2.0);
    assertThat(t.charsReceived()).isEqualTo(ANSWER.length());
  }

  @Test
  void thinkingNowFollowsTheMarkersAndComesBackMidAnswerWhereThinkingStaysTrue() {
    StreamTurn t = new StreamTurn();
    t.accept(new StreamEvent.MessageSeen("a-1", "assistant", "text", "final", "all", "in_progress", false, false));
    t.accept(new StreamEvent.TextAppended("a-1", "Half of it"));
    assertThat(t.thinkingNow()).isFalse();
    t.accept(new StreamEvent.Marker("cot_token", "a-1"));
    assertThat(t.thinkingNow()).isTrue();
    t.accept(new StreamEvent.Marker("final_channel_token", "a-1"));
    assertThat(t.thinkingNow()).isFalse();
    t.accept(new StreamEvent.Marker("cot_token", "a-1"));
    t.accept(new StreamEvent.MessageSeen("t-1", "assistant", "thoughts", "analysis", "all", "in_progress", false, false));
    t.accept(new StreamEvent.TextAppended("t-1", "a thought"));
    assertThat(t.thinkingNow()).as("a thought is not the answer's text").isTrue();
    t.accept(new StreamEvent.TextAppended("a-1", ", and the rest"));
    assertThat(t.thinkingNow()).as("visible answer text ends the thinking").isFalse();
    assertThat(t.thinking()).isTrue();
  }

  @Test
  void crlfLineEndingsAndTrailingSpacesDecodeTheSame() {
    String crlf = V1_NEW_CHAT.replace("\n", "\r\n").replace("\"c\": 3}   ", "\"c\": 3}  \t ");
    assertThat(decodeAnyway(crlf)).isEqualTo(decodeAnyway(V1_NEW_CHAT));
  }

  /** Every prefix of the body that stops before the terminal frames is not completion. */
  @Test
  void aBodyThatEndsBeforeItsTerminalFramesIsNeverComplete() {
    String cut = V1_NEW_CHAT.substring(0, V1_NEW_CHAT.indexOf("data: {\"type\": \"message_stream_complete\""));
    StreamTurn t = turnOf(cut);
    assertThat(t.answerText()).contains(ANSWER);
    assertThat(t.terminalSeen()).isFalse();
    assertThat(t.complete()).isFalse();
    assertThat(t.phase()).isEqualTo(StreamTurn.Phase.WRITING);
    for (int k = 0; k < cut.length(); k += 7) {
      StreamTurn prefix = new StreamTurn();
      prefix.accept(decode(cut.substring(0, k), 0));
      assertThat(prefix.complete()).as("prefix of %d chars", k).isFalse();
    }
  }

  @Test
  void aResumeBodyWithTheTerminalFrameCompletesTheTurn() {
    String cut = V1_NEW_CHAT.substring(0, V1_NEW_CHAT.indexOf("data: {\"type\": \"message_stream_complete\""));
    String resume = "data: {\"type\": \"message_stream_complete\", \"conversation_id\": \"" + CONV + "\"}\n\n";
    StreamTurn t = turnOf(cut, resume);
    assertThat(t.bodies()).isEqualTo(2);
    assertThat(t.complete()).isTrue();
    assertThat(t.answerText()).contains(ANSWER);
  }

  @Test
  void aTerminalFrameBeforeTheAnswerFinishedInALaterBodyDoesNotCount() {
    String first = "event: delta_encoding\ndata: \"v1\"\n\n"
        + "data: {\"p\": \"\", \"o\": \"add\", \"v\": {\"message\": {\"id\": \"a-2\", \"author\": {\"role\": \"assistant\"}, \"content\": {\"content_type\": \"text\", \"parts\": [\"x\"]}, \"status\": \"in_progress\", \"channel\": \"final\", \"recipient\": \"all\"}}}\n\n"
        + "data: [DONE]\n\n";
    String resume = "data: {\"p\": \"\", \"o\": \"add\", \"v\": {\"message\": {\"id\": \"a-2\", \"author\": {\"role\": \"assistant\"}, \"content\": {\"content_type\": \"text\", \"parts\": [\"xy\"]}, \"status\": \"finished_successfully\", \"end_turn\": true, \"channel\": \"final\", \"recipient\": \"all\"}}}\n\n";
    StreamTurn t = turnOf(first, resume);
    assertThat(t.answerText()).contains("xy");
    assertThat(t.complete()).as("the [DONE] came in an earlier body than the finish").isFalse();
  }

  /** A follow-up stream first re-sends the previous answer, already finished: it is not this turn's answer. */
  @Test
  void aFollowUpThatReSendsOlderFinishedMessagesCountsOnlyTheNewOne() {
    String old = "data: {\"p\": \"\", \"o\": \"add\", \"v\": {\"message\": {\"id\": \"a-old\", \"author\": {\"role\": \"assistant\"}, \"content\": {\"content_type\": \"text\", \"parts\": [\"the previous answer\"]}, \"status\": \"finished_successfully\", \"end_turn\": true, \"channel\": \"final\", \"recipient\": \"all\"}, \"conversation_id\": \"" + CONV + "\"}}\n\n";
    String resentOnly = "event: delta_encoding\ndata: \"v1\"\n\n" + old + "data: [DONE]\n\n";
    StreamTurn onlyOld = turnOf(resentOnly);
    assertThat(onlyOld.answerText()).isEmpty();
    assertThat(onlyOld.complete()).isFalse();

    String fresh = "data: {\"p\": \"\", \"o\": \"add\", \"v\": {\"message\": {\"id\": \"a-new\", \"author\": {\"role\": \"assistant\"}, \"content\": {\"content_type\": \"text\", \"parts\": [\"\"]}, \"status\": \"in_progress\", \"channel\": \"final\", \"recipient\": \"all\"}, \"conversation_id\": \"" + CONV + "\"}}\n\n"
        + "data: {\"p\": \"/message/content/parts/0\", \"o\": \"append\", \"v\": \"new\"}\n\n";
    StreamTurn unfinished = turnOf("event: delta_encoding\ndata: \"v1\"\n\n" + old + fresh + "data: [DONE]\n\n");
    assertThat(unfinished.answerText()).contains("new");
    assertThat(unfinished.complete()).as("the new message never finished").isFalse();

    String finish = "data: {\"p\": \"\", \"o\": \"patch\", \"v\": [{\"p\": \"/message/status\", \"o\": \"replace\", \"v\": \"finished_successfully\"}, {\"p\": \"/message/end_turn\", \"o\": \"replace\", \"v\": true}]}\n\n";
    StreamTurn done = turnOf("event: delta_encoding\ndata: \"v1\"\n\n" + old + fresh + finish + "data: [DONE]\n\n");
    assertThat(done.complete()).isTrue();
    assertThat(done.answerText()).contains("new");
  }

  /** Without supported_encodings v1: one whole message per event. */
  @Test
  void theOlderCumulativeFormatDecodesToTheSameTurn() {
    String body = String.join("\n\n",
        "data: {\"message\": {\"id\": \"u-9\", \"author\": {\"role\": \"user\"}, \"content\": {\"content_type\": \"text\", \"parts\": [\"q\"]}, \"status\": \"finished_successfully\"}, \"conversation_id\": \"" + CONV + "\", \"error\": null}",
        "data: {\"message\": {\"id\": \"a-9\", \"author\": {\"role\": \"assistant\"}, \"content\": {\"content_type\": \"text\", \"parts\": [\"Hel\"]}, \"status\": \"in_progress\", \"end_turn\": null, \"recipient\": \"all\", \"metadata\": {\"model_slug\": \"gpt-4o\"}}, \"conversation_id\": \"" + CONV + "\", \"error\": null}",
        "data: {\"message\": {\"id\": \"a-9\", \"author\": {\"role\": \"assistant\"}, \"content\": {\"content_type\": \"text\", \"parts\": [\"Hello \u00e9\"]}, \"status\": \"in_progress\", \"end_turn\": null, \"recipient\": \"all\", \"metadata\": {\"model_slug\": \"gpt-4o\"}}, \"conversation_id\": \"" + CONV + "\", \"error\": null}",
        "data: {\"message\": {\"id\": \"a-9\", \"author\": {\"role\": \"assistant\"}, \"content\": {\"content_type\": \"text\", \"parts\": [\"Hello \u00e9!\"]}, \"status\": \"finished_successfully\", \"end_turn\": true, \"recipient\": \"all\", \"metadata\": {\"model_slug\": \"gpt-4o\", \"finish_details\": {\"type\": \"stop\"}}}, \"conversation_id\": \"" + CONV + "\", \"error\": null}",
        "data: [DONE]", "");
    List<StreamEvent> events = decodeAnyway(body);
    assertThat(events).contains(new StreamEvent.TextAppended("a-9", "Hel"), new StreamEvent.TextAppended("a-9", "lo \u00e9"),
        new StreamEvent.TextAppended("a-9", "!"), new StreamEvent.ModelSeen("a-9", "gpt-4o", List.of()));
    StreamTurn t = turnOf(body);
    assertThat(t.complete()).isTrue();
    assertThat(t.answerText()).contains("Hello \u00e9!");
    assertThat(t.conversationId()).isEqualTo(CONV);
    assertThat(t.modelSlug()).isEqualTo("gpt-4o");
  }

  @Test
  void aHandoffBodyHoldsNoAnswerAndNamesWhereItContinues() {
    String body = String.join("\n\n",
        "event: delta_encoding\ndata: \"v1\"",
        "data: {\"type\": \"input_message\", \"input_message\": {\"id\": \"u-3\"}, \"conversation_id\": \"" + CONV + "\"}",
        "data: {\"type\": \"server_ste_metadata\", \"metadata\": {\"model_slug\": \"gpt-5-6-pro\", \"resume_with_websockets\": true}, \"conversation_id\": \"" + CONV + "\"}",
        "data: {\"type\": \"stream_handoff\", \"conversation_id\": \"" + CONV + "\", \"options\": [{\"type\": \"subscribe_ws_topic\", \"topic_id\": \"conversation-turn-a-3\"}, {\"type\": \"resume_sse_endpoint\", \"topic_id\": \"conversation-turn-a-3\"}]}",
        "data: [DONE]", "");
    StreamTurn t = turnOf(body);
    assertThat(t.handoff()).containsExactly(new StreamEvent.HandoffOption("subscribe_ws_topic", "conversation-turn-a-3"),
        new StreamEvent.HandoffOption("resume_sse_endpoint", "conversation-turn-a-3"));
    assertThat(t.terminalSeen()).isTrue();
    assertThat(t.complete()).as("[DONE] after a handoff ends nothing").isFalse();
    assertThat(t.answerText()).isEmpty();
    assertThat(t.modelSlug()).isEqualTo("gpt-5-6-pro");
    assertThat(t.conversationId()).isEqualTo(CONV);
  }

  @Test
  void modelAdjustmentsShowASilentDowngrade() {
    String body = "event: delta_encoding\ndata: \"v1\"\n\n"
        + "data: {\"p\": \"\", \"o\": \"add\", \"v\": {\"message\": {\"id\": \"a-4\", \"author\": {\"role\": \"assistant\"}, \"content\": {\"content_type\": \"text\", \"parts\": [\"ok\"]}, \"status\": \"in_progress\", \"channel\": \"final\", \"recipient\": \"all\", \"metadata\": {\"model_slug\": \"gpt-5-6-thinking\"}}}}\n\n"
        + "data: {\"p\": \"/message/metadata\", \"o\": \"append\", \"v\": {\"resolved_model_slug\": \"gpt-5-6-mini\", \"model_adjustments\": [\"auto:smaller_model:reached_message_cap\"]}}\n\n";
    List<StreamEvent> events = decodeAnyway(body);
    assertThat(events).contains(new StreamEvent.ModelSeen("a-4", "gpt-5-6-thinking", List.of("auto:smaller_model:reached_message_cap")));
    assertThat(turnOf(body).modelAdjustments()).containsExactly("auto:smaller_model:reached_message_cap");
  }

  /**
   * REAL-PAGE row 50: the counters near the end of every turn, every field the row names, and the
   * plan of server_ste_metadata; the turn hands them to the seat port as read (a feature without
   * a number stays without one, an entry without a slug is not a model).
   */
  @Test
  void thePagesOwnCountersAndPlanAreReadAsTheyStandAtEverySplit() {
    String body = String.join("\n\n",
        "data: {\"type\": \"server_ste_metadata\", \"metadata\": {\"model_slug\": \"gpt-5-6-thinking\", \"plan_type\": \"prolite\"}, \"conversation_id\": \"" + CONV + "\"}",
        "data: {\"type\": \"conversation_detail_metadata\", \"banner_info\": null, \"blocked_features\": [\"image_gen\", {\"name\": \"odyssey\"}],"
            + " \"model_limits\": [{\"model_slug\": \"gpt-5-6-pro\", \"remaining\": 14, \"reset_after\": \"2026-12-09T08:00:00+00:00\"},"
            + " {\"model_slug\": \"gpt-5-6-thinking\", \"remaining\": 2980}, {\"remaining\": 1}],"
            + " \"limits_progress\": [{\"feature_name\": \"deep_research\", \"remaining\": 24, \"reset_after\": \"2026-12-31T00:00:00+00:00\"},"
            + " {\"feature_name\": \"file_upload\", \"remaining\": 79, \"reset_after\": \"2026-12-04T20:12:00.123456+00:00\"},"
            + " {\"feature_name\": \"paste_text_to_file\", \"remaining\": null}],"
            + " \"default_model_slug\": \"gpt-5-6\", \"conversation_id\": \"" + CONV + "\"}",
        "data: [DONE]", "");
    StreamEvent.Limits limits = new StreamEvent.Limits(
        List.of(new StreamEvent.Limit("deep_research", 24, "2026-12-31T00:00:00+00:00"),
            new StreamEvent.Limit("file_upload", 79, "2026-12-04T20:12:00.123456+00:00"),
            new StreamEvent.Limit("paste_text_to_file", null, null)),
        List.of(new StreamEvent.ModelLimit("gpt-5-6-pro", 14, "2026-12-09T08:00:00+00:00"),
            new StreamEvent.ModelLimit("gpt-5-6-thinking", 2980, null)),
        List.of("image_gen", "odyssey"), "gpt-5-6");
    assertThat(decodeAnyway(body)).containsExactly(new StreamEvent.Conversation(CONV),
        new StreamEvent.ModelSeen(null, "gpt-5-6-thinking", List.of()), new StreamEvent.Plan("prolite"), limits,
        new StreamEvent.Done());

    java.time.Instant at = java.time.Instant.parse("2026-12-04T18:00:00Z");
    dev.solweb.provider.seat.PageCounters read = turnOf(body).pageCounters("plus", at).orElseThrow();
    assertThat(read.plan()).as("the turn's own plan over the session's").isEqualTo("prolite");
    assertThat(read.limitsProgress()).extracting(dev.solweb.provider.seat.PageCounters.Counter::remaining)
        .containsExactly(24, 79, null);
    assertThat(read.modelLimits().get(0)).isEqualTo(
        new dev.solweb.provider.seat.PageCounters.Counter("gpt-5-6-pro", 14, "2026-12-09T08:00:00+00:00"));
    assertThat(read.blockedFeatures()).containsExactly("image_gen", "odyssey");
    assertThat(read.readAt()).isEqualTo(at);
    assertThat(turnOf(V1_NEW_CHAT.replace("\"plan_type\": \"plus\", ", "")).pageCounters("pro", at).orElseThrow().plan())
        .as("no plan in the stream: the session's").isEqualTo("pro");
    assertThat(turnOf("data: [DONE]\n\n").pageCounters("plus", at)).as("no counters frame, nothing read").isEmpty();
  }

  @Test
  void limitErrorAndModerationFramesAreReported() {
    String body = String.join("\n\n",
        "data: {\"type\": \"conversation_detail_metadata\", \"limits_progress\": [{\"feature_name\": \"gpt-5-6-thinking\", \"remaining\": 0, \"reset_after\": \"2026-10-01T18:00:00+00:00\"}], \"blocked_features\": [\"image_gen\"]}",
        "data: {\"message\": null, \"conversation_id\": \"" + CONV + "\", \"error\": \"You've reached our limit of messages per 3 hours.\"}",
        "data: {\"type\": \"error\", \"error\": {\"code\": \"rate_limited\", \"message\": \"Too many requests\"}}",
        "data: {\"type\": \"moderation\", \"moderation_response\": {\"flagged\": true, \"blocked\": false}}",
        "data: {\"type\": \"safety_review_update\", \"active\": true, \"protection_type\": \"bio\", \"message\": \"x\"}", "");
    List<StreamEvent> events = decodeAnyway(body);
    assertThat(events).containsExactly(
        new StreamEvent.Limits(List.of(new StreamEvent.Limit("gpt-5-6-thinking", 0, "2026-10-01T18:00:00+00:00")), List.of(),
            List.of("image_gen"), null),
        new StreamEvent.Conversation(CONV),
        new StreamEvent.ErrorFrame("You've reached our limit of messages per 3 hours."),
        new StreamEvent.ErrorFrame("Too many requests", "rate_limited"),
        new StreamEvent.Moderation(true, false),
        new StreamEvent.SafetyReview(true, "bio"));
    StreamTurn t = turnOf(body);
    assertThat(t.reviewing()).as("a phase while the model works").isTrue();
    assertThat(t.complete()).isFalse();
    assertThat(t.errorCodes()).containsExactly("rate_limited");
    assertThat(t.errors()).hasSize(2);
    assertThat(t.limits()).extracting(StreamEvent.Limit::remaining).containsExactly(0);
    assertThat(t.blockedFeatures()).containsExactly("image_gen");
    assertThat(t.complete()).isFalse();
  }

  @Test
  void bareBatchesReplaceTruncateRemoveAndFirstTextInTheAddFrame() {
    String body = String.join("\n\n",
        "data: {\"v\": {\"message\": {\"id\": \"a-5\", \"author\": {\"role\": \"assistant\"}, \"content\": {\"content_type\": \"text\", \"parts\": [\"abc\"]}, \"status\": \"in_progress\", \"recipient\": \"all\", \"metadata\": {\"x\": 1}}, \"conversation_id\": \"" + CONV + "\"}}",
        "data: {\"v\": [{\"p\": \"/message/content/parts/0\", \"o\": \"append\", \"v\": \"def\"}, {\"p\": \"/message/metadata/x\", \"o\": \"remove\"}]}",
        "data: {\"p\": \"/message/content/parts/0\", \"o\": \"truncate\", \"v\": 4}",
        "data: {\"p\": \"/message/content/parts/0\", \"o\": \"replace\", \"v\": \"zz\"}",
        "data: {\"v\": [{\"p\": \"/message/end_turn\", \"o\": \"replace\", \"v\": true}, {\"p\": \"/message/status\", \"o\": \"replace\", \"v\": \"finished_successfully\"}]}",
        "data: {\"type\": \"message_stream_complete\", \"conversation_id\": \"" + CONV + "\"}", "");
    List<StreamEvent> events = decodeAnyway(body);
    assertThat(events).containsSubsequence(new StreamEvent.TextAppended("a-5", "abc"), new StreamEvent.TextAppended("a-5", "def"),
        new StreamEvent.TextReplaced("a-5", "abcd"), new StreamEvent.TextReplaced("a-5", "zz"));
    StreamTurn t = turnOf(body);
    assertThat(t.answerText()).contains("zz");
    assertThat(t.complete()).as("no channel, end_turn true, finished, terminal frame").isTrue();
  }

  @Test
  void brokenAndUnknownDataNeverThrowAndTransientWebIdsAreIgnored() {
    String body = String.join("\n\n",
        "data: {not json",
        "data: 42",
        "data: {\"p\": \"/message/content/parts/0\", \"o\": \"append\", \"v\": \"before any message\"}",
        "data: {\"v\": \"a bare value first\"}",
        "data: {\"type\": \"message_stream_complete\", \"conversation_id\": \"WEB:1f0e\"}",
        "data: {\"something\": \"else\"}", "");
    List<StreamEvent> events = decodeAnyway(body);
    assertThat(events).filteredOn(e -> e instanceof StreamEvent.Unreadable).hasSize(5);
    assertThat(events).contains(new StreamEvent.StreamComplete("WEB:1f0e"));
    assertThat(events).noneMatch(e -> e instanceof StreamEvent.Conversation);
    assertThat(turnOf(body).conversationId()).isNull();
  }
}

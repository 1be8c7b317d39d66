package dev.solweb.killgate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.killgate.fakesol.FakeSol;
import dev.solweb.provider.scenario.Scenario;
import dev.solweb.provider.seat.playwright.traffic.ConversationStreamDecoder;
import dev.solweb.provider.seat.playwright.traffic.StreamTurn;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * fakesol's {@code /backend-api/f/conversation} over loopback HTTP, read by the seat's decoder:
 * each stream fault looks on the wire as CHATGPT-STREAM.md says, and each send is recorded once.
 */
class FakeSolConversationEndpointTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ANSWER = "{\"tool\": \"final\", \"text\": \"done \u00e9\"}";
  private final HttpClient http = HttpClient.newHttpClient();
  private FakeSol sol;

  @AfterEach
  void stop() {
    sol.close();
  }

  private static String scenario(String stream) {
    return "{\"default\": [{\"blocks\": [" + JSON.valueToTree(ANSWER) + "], \"prose\": \"Here:\", \"stream_ms\": 40"
        + (stream == null ? "" : ", \"stream\": " + stream) + "}, {\"prose\": \"second\"}]}";
  }

  static String turnRequest(String text, String conversation, boolean v1) {
    ObjectNode body = JSON.createObjectNode().put("action", "next");
    ObjectNode m = body.putArray("messages").addObject().put("id", "u-" + text.hashCode());
    m.putObject("author").put("role", "user");
    m.putObject("content").put("content_type", "text").putArray("parts").add(text);
    if (conversation != null) {
      body.put("conversation_id", conversation);
    }
    body.put("model", "gpt-5-thinking").put("thinking_effort", "High");
    if (v1) {
      body.putArray("supported_encodings").add("v1");
    }
    return body.toString();
  }

  private HttpResponse<String> post(String path, String body) throws Exception {
    return http.send(HttpRequest.newBuilder(sol.url().resolve(path)).header("content-type", "application/json")
        .header("accept", "text/event-stream").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  static StreamTurn decode(String... bodies) {
    StreamTurn t = new StreamTurn();
    for (String b : bodies) {
      ConversationStreamDecoder d = new ConversationStreamDecoder();
      t.beginBody();
      t.accept(d.feed(b.getBytes(StandardCharsets.UTF_8)));
      t.accept(d.end());
    }
    return t;
  }

  private JsonNode control() throws Exception {
    return JSON.readTree(http.send(HttpRequest.newBuilder(sol.url().resolve("/control")).build(),
        HttpResponse.BodyHandlers.ofString()).body());
  }

  @Test
  void aTurnIsAnsweredAsAV1EventStreamWithTheScriptedMarkdownAndRecordedOnce() throws Exception {
    sol = FakeSol.start(Scenario.parse(scenario(null)), 0);
    HttpResponse<String> r = post("/backend-api/f/conversation", turnRequest("hi", null, true));
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("content-type")).contains("text/event-stream; charset=utf-8");
    assertThat(r.body()).startsWith("event: delta_encoding\ndata: \"v1\"\n\n");
    StreamTurn t = decode(r.body());
    assertThat(t.complete()).isTrue();
    assertThat(t.answerText()).contains("Here:\n\n```json\n" + ANSWER + "\n```");
    JsonNode control = control();
    assertThat(control.path("send_count").asInt()).isEqualTo(1);
    assertThat(t.conversationId()).isEqualTo(control.path("sends").get(0).path("conversation_id").asText());
    assertThat(control.path("sends").get(0).path("effort").asText()).isEqualTo("high");

    HttpResponse<String> second = post("/backend-api/f/conversation", turnRequest("more", t.conversationId(), false));
    assertThat(second.body()).as("no supported_encodings: the older format").doesNotContain("delta_encoding");
    StreamTurn t2 = decode(second.body());
    assertThat(t2.complete()).isTrue();
    assertThat(t2.answerText()).contains("second");
    assertThat(control().path("send_count").asInt()).isEqualTo(2);
  }

  /**
   * REAL-PAGE rows 50 and 51 on the wire: each turn's counters count down (one message of the
   * answering model per Send), a smaller model at the cap names itself and its adjustment with
   * no banner, {@code model_cap_exceeded} is a 429 by code with {@code clears_in}; /control shows
   * when each turn request arrived and how often the history JSON and stream status were asked.
   */
  @Test
  void countersCountDownAndTheCapFaultsLookAsRow51Says() throws Exception {
    sol = FakeSol.start(Scenario.parse("{\"default\": [{\"prose\": \"one\"}, {\"prose\": \"two\"},"
        + " {\"fault\": \"smaller_model\", \"prose\": \"small\"}, {\"fault\": \"model_cap_exceeded\", \"resume_in_s\": 600}]}"), 0);
    StreamTurn first = decode(post("/backend-api/f/conversation", turnRequest("a", null, true)).body());
    StreamTurn second = decode(post("/backend-api/f/conversation", turnRequest("b", first.conversationId(), true)).body());
    assertThat(first.counters().orElseThrow().modelLimits())
        .containsExactly(new dev.solweb.provider.seat.playwright.traffic.StreamEvent.ModelLimit("gpt-5-thinking", 49,
            first.counters().orElseThrow().modelLimits().get(0).resetAfter()));
    assertThat(second.counters().orElseThrow().modelLimits().get(0).remaining()).isEqualTo(48);
    assertThat(second.counters().orElseThrow().progress()).extracting(
        dev.solweb.provider.seat.playwright.traffic.StreamEvent.Limit::feature).containsExactly("deep_research", "file_upload");
    assertThat(second.plan()).isEqualTo("plus");

    StreamTurn small = decode(post("/backend-api/f/conversation", turnRequest("c", first.conversationId(), true)).body());
    assertThat(small.complete()).isTrue();
    assertThat(small.modelSlug()).isEqualTo("gpt-5-6-mini");
    assertThat(small.modelAdjustments()).containsExactly("auto:smaller_model:reached_message_cap");

    HttpResponse<String> capped = post("/backend-api/f/conversation", turnRequest("d", first.conversationId(), true));
    assertThat(capped.statusCode()).isEqualTo(429);
    JsonNode detail = JSON.readTree(capped.body()).path("detail");
    assertThat(detail.path("code").asText()).isEqualTo("model_cap_exceeded");
    assertThat(detail.path("clears_in").asLong()).isBetween(590L, 600L);

    http.send(HttpRequest.newBuilder(sol.url().resolve("/backend-api/conversations/" + first.conversationId())).build(),
        HttpResponse.BodyHandlers.ofString());
    JsonNode control = control();
    assertThat(control.path("sends_at")).hasSize(4);
    assertThat(control.path("history_requests").asInt()).isEqualTo(1);
    assertThat(control.path("status_requests").asInt()).isZero();
  }

  /** The page renders from the stream, so the stream carries every moment it draws, and the plan no answer. */
  @Test
  void thinkingAndAProPreambleAreEventsAndThePagesPlanCarriesNoAnswer() throws Exception {
    sol = FakeSol.start(Scenario.parse("{\"default\": [{\"prose\": \"First half. Second half.\", \"thinking_ms\": 30,"
        + " \"flash_action_bar\": true}, {\"prose\": \"The real answer.\", \"preamble\": \"I'll think.\", \"preamble_ms\": 10}]}"), 0);
    String body = post("/backend-api/f/conversation", turnRequest("a", null, true)).body();
    // Mid-answer thinking is two typed markers, so the bare continuations after them still append.
    int started = body.indexOf("\"marker\":\"cot_token\"");
    int again = body.indexOf("\"marker\":\"final_channel_token\"");
    assertThat(body.indexOf("\"v\":\"F\"")).isBetween(0, started);
    assertThat(again).isGreaterThan(started);
    StreamTurn t = decode(body);
    assertThat(t.complete()).isTrue();
    assertThat(t.answerMarkdown()).contains("First half. Second half.");
    HttpResponse<String> plan = http.send(HttpRequest.newBuilder(sol.url().resolve("/api/plan/u-" + "a".hashCode())).build(),
        HttpResponse.BodyHandlers.ofString());
    JsonNode behaviours = JSON.readTree(plan.body());
    assertThat(behaviours.path("flash_action_bar").asBoolean()).isTrue();
    assertThat(plan.body()).doesNotContain("First half").doesNotContain(t.answerMessageId().orElseThrow());
    assertThat(behaviours.has("markdown") || behaviours.has("blocks") || behaviours.has("prose")).isFalse();

    String pro = post("/backend-api/f/conversation", turnRequest("b", t.conversationId(), true)).body();
    int preamble = pro.indexOf("\"channel\":\"commentary\"");
    int recap = pro.indexOf("\"content_type\":\"reasoning_recap\"");
    int answer = pro.indexOf("\"v\":\"T\"");
    assertThat(preamble).isPositive();
    assertThat(recap).isGreaterThan(preamble);
    assertThat(answer).isGreaterThan(recap);
    StreamTurn p = decode(pro);
    assertThat(p.complete()).isTrue();
    assertThat(p.answerMarkdown()).contains("The real answer.");
  }

  @Test
  void theCumulativeFormatAndAReSendOfOlderAnswersAreScriptable() throws Exception {
    sol = FakeSol.start(Scenario.parse("{\"default\": [{\"prose\": \"one\"}, {\"prose\": \"two\", "
        + "\"stream\": {\"format\": \"cumulative\", \"resend_older\": true, \"model_adjustments\": [\"auto:smaller_model:reached_message_cap\"]}}]}"), 0);
    StreamTurn first = decode(post("/backend-api/f/conversation", turnRequest("a", null, true)).body());
    String body = post("/backend-api/f/conversation", turnRequest("b", first.conversationId(), true)).body();
    assertThat(body).doesNotContain("delta_encoding").contains("\"parts\":[\"one\"]");
    StreamTurn t = decode(body);
    assertThat(t.complete()).isTrue();
    assertThat(t.answerText()).contains("two");
    assertThat(t.modelAdjustments()).containsExactly("auto:smaller_model:reached_message_cap");
  }

  @Test
  void aCutBodyEndsBeforeItsTerminalFrames() throws Exception {
    sol = FakeSol.start(Scenario.parse(scenario("{\"fault\": \"cut\"}")), 0);
    StreamTurn t = decode(post("/backend-api/f/conversation", turnRequest("hi", null, true)).body());
    String whole = "Here:\n\n```json\n" + ANSWER + "\n```";
    assertThat(t.answerText()).hasValueSatisfying(text -> assertThat(whole).startsWith(text).isNotEqualTo(text));
    assertThat(t.answerUnfinished()).isTrue();
    assertThat(t.terminalSeen()).isFalse();
    assertThat(t.complete()).isFalse();
  }

  @Test
  void httpErrorsCarryTheirJsonBodies() throws Exception {
    sol = FakeSol.start(Scenario.parse("{\"default\": [{\"prose\": \"x\", \"stream\": {\"fault\": \"http_429\", \"clears_in_s\": 90}},"
        + " {\"prose\": \"y\", \"stream\": {\"fault\": \"http_403\"}}]}"), 0);
    HttpResponse<String> limited = post("/backend-api/f/conversation", turnRequest("hi", null, true));
    assertThat(limited.statusCode()).isEqualTo(429);
    assertThat(JSON.readTree(limited.body()).path("detail").path("clears_in").asInt()).isEqualTo(90);
    String conversation = control().path("sends").get(0).path("conversation_id").asText();
    HttpResponse<String> refused = post("/backend-api/f/conversation", turnRequest("again", conversation, true));
    assertThat(refused.statusCode()).isEqualTo(403);
    assertThat(JSON.readTree(refused.body()).path("detail").asText()).startsWith("Unusual activity has been detected from your device");
  }

  @Test
  void aSilentBodyIsCompletedByResume() throws Exception {
    sol = FakeSol.start(Scenario.parse(scenario("{\"fault\": \"silence_resume\"}")), 0);
    HttpResponse<InputStream> r = http.send(HttpRequest.newBuilder(sol.url().resolve("/backend-api/f/conversation"))
        .POST(HttpRequest.BodyPublishers.ofString(turnRequest("hi", null, true))).build(), HttpResponse.BodyHandlers.ofInputStream());
    StreamTurn t = new StreamTurn();
    ConversationStreamDecoder d = new ConversationStreamDecoder();
    t.beginBody();
    try (InputStream in = r.body()) {
      byte[] buf = new byte[256];
      // Read until the answer's text began; the body stops mid-answer and stays open and silent.
      while (t.answerText().orElse("").isEmpty()) {
        int n = in.read(buf);
        assertThat(n).as("the silent body must not end").isPositive();
        t.accept(d.feed(buf, 0, n));
      }
    }
    assertThat(t.complete()).isFalse();
    HttpResponse<String> resumed = post("/backend-api/f/conversation/resume",
        JSON.createObjectNode().put("conversation_id", t.conversationId()).toString());
    assertThat(resumed.statusCode()).isEqualTo(200);
    t.beginBody();
    t.accept(new ConversationStreamDecoder().feed(resumed.body().getBytes(StandardCharsets.UTF_8)));
    assertThat(t.complete()).isTrue();
    assertThat(t.answerText()).contains("Here:\n\n```json\n" + ANSWER + "\n```");
    assertThat(control().path("send_count").asInt()).as("a resume is not a send").isEqualTo(1);
  }

  @Test
  void aHandoffMovesTheAnswerToTheSocketWithAReplayedItem() throws Exception {
    sol = FakeSol.start(Scenario.parse(scenario("{\"fault\": \"handoff_ws\"}")), 0);
    StreamTurn post = decode(post("/backend-api/f/conversation", turnRequest("hi", null, true)).body());
    assertThat(post.complete()).isFalse();
    assertThat(post.handoff()).isNotEmpty();
    String topic = post.handoff().get(0).topicId();

    StringBuilder items = new StringBuilder();
    Set<String> ids = new HashSet<>();
    CompletableFuture<Void> done = new CompletableFuture<>();
    int[] frames = {0};
    WebSocket ws = http.newWebSocketBuilder().buildAsync(URI.create("ws://127.0.0.1:" + sol.url().getPort() + "/backend-api/ws"),
        new WebSocket.Listener() {
          @Override
          public CompletionStage<?> onText(WebSocket socket, CharSequence data, boolean last) {
            try {
              JsonNode f = JSON.readTree(data.toString()).path("payload").path("payload");
              frames[0]++;
              if ("done".equals(f.path("type").asText())) {
                done.complete(null);
              } else if (ids.add(f.path("stream_item_id").asText())) {
                items.append(f.path("encoded_item").asText());
              }
            } catch (Exception e) {
              done.completeExceptionally(e);
            }
            socket.request(1);
            return null;
          }
        }).get(10, TimeUnit.SECONDS);
    ws.sendText(JSON.createObjectNode().put("type", "subscribe").put("topic_id", topic).toString(), true);
    done.get(10, TimeUnit.SECONDS);
    ws.abort();
    assertThat(frames[0]).as("one item replayed, plus done").isEqualTo(ids.size() + 2);
    StreamTurn followed = decode(items.toString());
    assertThat(followed.complete()).isTrue();
    assertThat(followed.answerText()).contains("Here:\n\n```json\n" + ANSWER + "\n```");
  }

  @Test
  void thePrepareSiblingAnswersJsonNotAStream() throws Exception {
    sol = FakeSol.start(Scenario.parse(scenario(null)), 0);
    HttpResponse<String> r = post("/backend-api/f/conversation/prepare", "{}");
    assertThat(r.headers().firstValue("content-type")).contains("application/json");
    assertThat(control().path("send_count").asInt()).isZero();
  }

  @Test
  void aRecordedBodyAnswersTheNextTurnByteForByte() throws Exception {
    sol = FakeSol.start(Scenario.parse(scenario(null)), 0);
    byte[] recorded = ("event: delta_encoding\r\ndata: \"v1\"\r\n\r\n"
        + "data: {\"p\": \"\", \"o\": \"add\", \"v\": {\"message\": {\"id\": \"rec-1\", \"author\": {\"role\": \"assistant\"}, "
        + "\"content\": {\"content_type\": \"text\", \"parts\": [\"recorded \u00e9\"]}, \"status\": \"in_progress\", \"channel\": \"final\", \"recipient\": \"all\"}, "
        + "\"conversation_id\": \"rec-conv\"}}   \r\n\r\n"
        + "data: {\"p\": \"\", \"o\": \"patch\", \"v\": [{\"p\": \"/message/status\", \"o\": \"replace\", \"v\": \"finished_successfully\"}, "
        + "{\"p\": \"/message/end_turn\", \"o\": \"replace\", \"v\": true}]}\r\n\r\ndata: [DONE]\r\n\r\n").repeat(1).getBytes(StandardCharsets.UTF_8);
    sol.answerNextWith(recorded);
    HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(sol.url().resolve("/backend-api/f/conversation"))
        .POST(HttpRequest.BodyPublishers.ofString(turnRequest("hi", null, true))).build(), HttpResponse.BodyHandlers.ofByteArray());
    assertThat(r.body()).isEqualTo(recorded);
    assertThat(control().path("send_count").asInt()).isEqualTo(1);
    StreamTurn next = decode(post("/backend-api/f/conversation",
        turnRequest("then", control().path("sends").get(0).path("conversation_id").asText(), true)).body());
    assertThat(next.answerText()).as("the scripted reply was not used by the replay")
        .contains("Here:\n\n```json\n" + ANSWER + "\n```");
  }
}

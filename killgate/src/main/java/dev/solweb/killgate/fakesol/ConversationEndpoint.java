package dev.solweb.killgate.fakesol;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.platform.Json;
import dev.solweb.provider.scenario.ScriptedReply;
import dev.solweb.provider.scenario.StreamScript;
import dev.solweb.provider.seat.playwright.traffic.ConversationStreamDecoder;
import dev.solweb.provider.seat.playwright.traffic.StreamTurn;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * fakesol's {@code POST /backend-api/f/conversation}: the turn request of the real page, answered
 * as the real endpoint answers (text/event-stream, {@link StreamEncoder}), with the stream faults
 * of {@link StreamScript}: a body cut before its terminal frames, a silence the page ends with
 * {@code /resume}, a handoff to a WebSocket ({@code GET /backend-api/ws}) or to a channel the seat
 * cannot see, HTTP 429 with {@code clears_in}, HTTP 403 "unusual activity". A queued recorded body
 * ({@code fakesol --stream-file}) answers the next turn byte for byte. Also
 * {@code /backend-api/f/conversation/prepare} (JSON), a sibling the page calls first, as the real
 * page does, so a substring match on the path would be caught.
 */
final class ConversationEndpoint {

  private static final ObjectMapper JSON = Json.MAPPER;
  private static final String UNUSUAL = "Unusual activity has been detected from your device. Try again later.";

  private final FakeSol sol;
  private final Deque<byte[]> recorded = new ArrayDeque<>();
  /** Turns a silent body left unfinished, by conversation: what {@code /resume} completes. */
  private final Map<String, StreamEncoder.Turn> silent = new HashMap<>();
  /** Handed-off turns by topic: the events their socket carries. */
  private final Map<String, List<String>> topics = new HashMap<>();
  /** The plan of each turn by the page's user message id: the DOM behaviours the page plays around the stream. */
  private final Map<String, ObjectNode> plans = new HashMap<>();

  /** When a body last carried its terminal {@code [DONE]} (epoch ms; 0 before any), for bench-seat. */
  private volatile long terminalAtMillis;

  ConversationEndpoint(FakeSol sol) {
    this.sol = sol;
  }

  void mount(Router router) {
    router.post("/backend-api/f/conversation").handler(this::conversation);
    router.post("/backend-api/f/conversation/resume").handler(this::resume);
    router.post("/backend-api/f/conversation/prepare").handler(ctx -> {
      sol.wire().prepared(body(ctx));
      json(ctx.response(), 200, JSON.createObjectNode().put("status", "ok").put("conduit_token", "fakesol-conduit"));
    });
    router.get("/api/plan/:user").handler(this::plan);
    router.get("/api/handoff/:topic").handler(this::handoffEvents);
  }

  /** The handoff socket's route; mounted before any body handler. */
  void mountSocket(Router router) {
    router.get("/backend-api/ws").handler(ctx -> ctx.request().toWebSocket().onSuccess(this::socket));
  }

  long terminalAtMillis() {
    return terminalAtMillis;
  }

  /** The next turn gets these bytes as its body, exactly. */
  synchronized void queueRecorded(byte[] body) {
    recorded.add(body.clone());
  }

  // ---- The turn ----------------------------------------------------------------------------

  private void conversation(RoutingContext ctx) {
    sol.turnRequested();
    JsonNode body = body(ctx);
    JsonNode message = body.path("messages").path(0);
    String text = FakeSolUploads.prompt(message); // the last text part: image pointers come first (row 48)
    String userId = message.path("id").asText(null);
    String conversation = body.path("conversation_id").asText(null);
    String label = PageWire.label(body); // the effort the page's request carries (row 25), whatever its pill shows
    sol.models().sent(body, label); // the model it names, for /control; the answer names it too (rows 61, 62)
    List<String> attached = sol.uploads().sent(body); // the files the body names by id (row 48)
    boolean v1 = body.path("supported_encodings").toString().contains("\"v1\"");
    HttpServerResponse res = ctx.response();
    if (conversation != null && sol.history().isDeleted(sol.resolve(conversation))) {
      // Rows 20 and 22: a turn into a deleted conversation is refused by code, nothing taken.
      ObjectNode gone = JSON.createObjectNode();
      gone.putObject("detail").put("message", "Conversation not found").put("code", "conversation_not_found");
      json(res, 404, gone);
      return;
    }

    byte[] replay;
    synchronized (this) {
      replay = recorded.poll();
    }
    if (replay != null) {
      String conv = sol.recordReplay(text, label, conversation, attached, userId, recording(replay));
      sol.history().opened(conv, text, body);
      synchronized (this) {
        plans.put(userId == null ? "" : userId, JSON.createObjectNode().put("conversation_id", conv).put("replay", true));
      }
      eventStream(res);
      writeRecorded(res, replay, 0);
      return;
    }

    TurnPlanner.Planned planned;
    if ("variant".equals(body.path("action").asText())) {
      // Row 35's Regenerate: no new user message; the prompt it names answers again.
      userId = body.path("parent_message_id").asText(null);
      planned = sol.regenerate(label, conversation, userId);
      if (planned == null) {
        ObjectNode missing = JSON.createObjectNode();
        missing.putObject("detail").put("message", "Message not found").put("code", "message_not_found");
        json(res, 404, missing);
        return;
      }
    } else {
      planned = sol.plan(text, label, conversation, attached, userId);
    }
    ObjectNode plan = planned.plan();
    ScriptedReply reply = planned.reply();
    if (planned.newChat()) {
      sol.history().opened(plan.path("conversation_id").asText(), text, body); // where the page opened it
    }
    StreamScript script = reply == null ? StreamScript.DEFAULT : reply.stream();
    plan.put("stream_fault", script.fault() == null ? null : script.fault().name().toLowerCase(java.util.Locale.ROOT));
    if (script.silenceMs() > 0) {
      plan.put("silence_ms", script.silenceMs()); // the page resumes after this much silence (scaled down from ~60 s)
    }
    synchronized (this) {
      plans.put(plan.path("user_message_id").asText(""), pageBehaviours(plan));
    }
    String fault = plan.path("fault").asText("");
    switch (fault) {
      case "too_long", "logged_out", "cloudflare", "crash_before_send" -> {
        json(res, 400, JSON.createObjectNode().put("detail", fault));
        return;
      }
      case "cap", "model_cap_exceeded" -> {
        long clearsIn = Math.max(1, Duration.between(Instant.now(), Instant.parse(plan.path("resume_at").asText())).toSeconds());
        ObjectNode detail = JSON.createObjectNode();
        ObjectNode d = detail.putObject("detail").put("message", plan.path("banner").asText()).put("clears_in", clearsIn);
        if (fault.equals("model_cap_exceeded")) {
          d.put("code", fault); // row 51: the cap by its code
        }
        json(res, 429, detail);
        return;
      }
      default -> { }
    }
    if (script.fault() == StreamScript.Fault.HTTP_429) {
      ObjectNode detail = JSON.createObjectNode();
      detail.putObject("detail").put("message", "You've reached our limit of messages per hour. Please try again later.")
          .put("clears_in", script.clearsInSeconds() == null ? 3600 : script.clearsInSeconds());
      json(res, 429, detail);
      return;
    }
    if (script.fault() == StreamScript.Fault.HTTP_403) {
      json(res, 403, JSON.createObjectNode().put("detail", UNUSUAL));
      return;
    }

    StreamScript.Format format = v1 ? script.format() : StreamScript.Format.CUMULATIVE;
    StreamEncoder.Turn turn = encoderTurn(plan, reply, planned, script, format, text);
    eventStream(res);
    List<Step> steps = new ArrayList<>();
    switch (fault) {
      case "something_went_wrong" -> {
        steps.add(new Step(0, StreamEncoder.preamble(turn)));
        ObjectNode err = JSON.createObjectNode().putNull("message").put("conversation_id", turn.conversationId())
            .put("error", plan.path("error").asText());
        steps.add(new Step(plan.path("delay_ms").asLong(100), List.of(data(err), "data: [DONE]\n\n")));
        play(res, steps, true);
        return;
      }
      case "hang", "crash" -> {
        play(res, List.of(new Step(0, StreamEncoder.preamble(turn))), false); // silence until the page stops
        return;
      }
      default -> { }
    }
    if (!plan.has("markdown")) {
      // A page fault with no answer (capacity, unusual activity, a full conversation): the page
      // shows it; the body carries no answer and ends.
      steps.add(new Step(0, StreamEncoder.preamble(turn)));
      steps.add(new Step(plan.path("delay_ms").asLong(100), List.of("data: [DONE]\n\n")));
      play(res, steps, true);
      return;
    }
    if (turn.markdown().isEmpty() && plan.path("images").size() > 0) {
      // An image turn: no finished text in the stream; the page shows the images by itself.
      steps.add(new Step(0, StreamEncoder.preamble(turn)));
      steps.add(new Step(plan.path("delay_ms").asLong(0) + plan.path("stream_ms").asLong(0), StreamEncoder.imageAnswer(turn)));
      steps.add(new Step(0, StreamEncoder.epilogue(turn)));
      play(res, steps, true);
      return;
    }
    StreamScript.Fault streamFault = script.fault();
    if (streamFault == StreamScript.Fault.HANDOFF_WS || streamFault == StreamScript.Fault.HANDOFF_UNFOLLOWED) {
      String topic = "conversation-turn-" + turn.answerId();
      List<String> carried = new ArrayList<>(StreamEncoder.answer(turn));
      carried.addAll(StreamEncoder.terminal(turn));
      synchronized (this) {
        topics.put(topic, carried);
      }
      List<String> handoff = StreamEncoder.handoff(turn, topic);
      int head = StreamEncoder.preamble(turn).size();
      play(res, List.of(new Step(0, handoff.subList(0, head)),
          new Step(plan.path("delay_ms").asLong(0), handoff.subList(head, handoff.size()))), true);
      return;
    }
    List<String> answer;
    if (streamFault == StreamScript.Fault.CUT || streamFault == StreamScript.Fault.SILENCE_RESUME) {
      List<String> unfinished = StreamEncoder.answerUnfinished(turn);
      answer = unfinished.subList(0, unfinished.size() / 2 + 1); // the body stops mid-answer
    } else {
      answer = StreamEncoder.answer(turn);
    }
    steps.add(new Step(0, StreamEncoder.head(turn)));
    pace(steps, turn, answer, plan, sol.thinkingHold());
    if (streamFault == StreamScript.Fault.CUT) {
      play(res, steps, true);
      return;
    }
    if (streamFault == StreamScript.Fault.SILENCE_RESUME) {
      synchronized (this) {
        silent.put(turn.conversationId(), turn);
      }
      play(res, steps, false); // the page gives up on this body and resumes
      return;
    }
    steps.add(new Step(0, StreamEncoder.epilogue(turn)));
    play(res, steps, true, () -> sol.written(turn.conversationId(), turn.answerId()));
  }

  /**
   * What the page gets of a plan: its own behaviours, never the answer (text, code blocks, message
   * id, slug), which it renders from the stream. A full conversation keeps its message id and slug:
   * that page fault draws its own message, with no answer in the stream.
   */
  private static ObjectNode pageBehaviours(ObjectNode plan) {
    ObjectNode out = plan.deepCopy();
    out.remove(List.of("prose", "markdown", "blocks"));
    if (!"conversation_full".equals(plan.path("fault").asText(""))) {
      out.remove(List.of("message_id", "slug"));
    }
    return out;
  }

  /** What a recorded body says about its turn, read with the seat's own decoder (the page adopts these ids). */
  private static TurnPlanner.Recording recording(byte[] body) {
    ConversationStreamDecoder decoder = new ConversationStreamDecoder();
    StreamTurn turn = new StreamTurn();
    turn.beginBody();
    turn.accept(decoder.feed(body));
    turn.accept(decoder.end());
    return new TurnPlanner.Recording(turn.conversationId(), turn.inputMessageId(), turn.answerMessageId().orElse(null),
        turn.answerMarkdown().orElse(""), turn.modelSlug());
  }

  /**
   * The answer's events at the reply's pace, with the moments the page renders from them: a Pro
   * preamble (a settled commentary message, then a silence) and its thinking (marker, silence,
   * recap) before the answer; otherwise half the answer, the thinking (typed markers only, so the
   * answer's patch chain goes on: {@code cot_token}, a silence, {@code final_channel_token}), a
   * false pause (a silence), the rest.
   */
  private static void pace(List<Step> steps, StreamEncoder.Turn turn, List<String> answer, ObjectNode plan,
      CompletableFuture<Void> thinkingHold) {
    long streamMs = plan.path("stream_ms").asLong(0);
    long thinkingMs = turn.thinkingSeconds() == null ? 0 : Math.round(turn.thinkingSeconds() * 1000);
    long falsePause = plan.path("false_pause_ms").asLong(0);
    String preamble = plan.path("preamble").asText("");
    steps.add(new Step(plan.path("delay_ms").asLong(0), List.of()));
    if (!preamble.isEmpty()) {
      steps.add(new Step(100, StreamEncoder.commentary(turn, preamble)));
      steps.add(new Step(plan.path("preamble_ms").asLong(0), StreamEncoder.thinkingStarted(turn)));
      steps.add(new Step(thinkingMs, StreamEncoder.thinkingFinished(turn)));
    }
    int half = preamble.isEmpty() ? answer.size() / 2 : -1;
    long each = answer.isEmpty() ? 0 : streamMs / answer.size();
    for (int i = 0; i < answer.size(); i++) {
      long wait = each;
      if (i == half) {
        if (thinkingMs > 0) {
          steps.add(new Step(each, StreamEncoder.thinkingStarted(turn), thinkingHold));
          steps.add(new Step(thinkingMs, StreamEncoder.visibleAgain(turn)));
        }
        wait += falsePause;
      }
      steps.add(new Step(wait, List.of(answer.get(i))));
    }
  }

  private StreamEncoder.Turn encoderTurn(ObjectNode plan, ScriptedReply reply, TurnPlanner.Planned planned, StreamScript script,
      StreamScript.Format format, String userText) {
    List<String> adjustments = new ArrayList<>(script.modelAdjustments());
    if (adjustments.isEmpty() && ("cap_downgrade".equals(plan.path("fault").asText())
        || plan.path("smaller_model").asBoolean(false))) {
      adjustments.add("auto:smaller_model:reached_message_cap");
    }
    long thinkingMs = reply == null ? 0 : reply.thinkingMs();
    if (!plan.path("preamble").asText("").isEmpty()) {
      thinkingMs = Math.max(thinkingMs, 1500); // Pro thinks after its preamble, at least this long
    }
    String markdown = plan.path("markdown").asText("");
    return new StreamEncoder.Turn(format == StreamScript.Format.V1 ? StreamEncoder.Format.V1 : StreamEncoder.Format.CUMULATIVE,
        plan.path("conversation_id").asText(), planned.newChat(), plan.path("user_message_id").asText(""), userText,
        plan.path("message_id").asText(UUID.randomUUID().toString()), plan.path("slug").asText(null), adjustments,
        markdown, thinkingMs > 0 ? thinkingMs / 1000.0 : null, script.resendOlder() ? planned.older() : List.of(),
        Math.max(1, markdown.length() / 40), sol.counters());
  }

  private void resume(RoutingContext ctx) {
    String conversation = body(ctx).path("conversation_id").asText("");
    StreamEncoder.Turn turn;
    synchronized (this) {
      turn = silent.remove(conversation);
    }
    if (turn == null) {
      json(ctx.response(), 404, JSON.createObjectNode().put("detail", "no stream to resume for " + conversation));
      return;
    }
    eventStream(ctx.response());
    play(ctx.response(), List.of(new Step(0, StreamEncoder.resumed(turn))), true);
  }

  private synchronized void plan(RoutingContext ctx) {
    ObjectNode plan = plans.remove(ctx.pathParam("user"));
    json(ctx.response(), plan == null ? 404 : 200, plan == null ? JSON.createObjectNode() : plan);
  }

  /** The unfollowed handoff: the page gets its answer here, where the seat's tap does not look. */
  private synchronized void handoffEvents(RoutingContext ctx) {
    List<String> events = topics.remove(ctx.pathParam("topic"));
    ObjectNode out = JSON.createObjectNode();
    if (events != null) {
      events.forEach(out.putArray("events")::add);
    }
    json(ctx.response(), events == null ? 404 : 200, out);
  }

  /** A handoff socket: the page subscribes to a topic and gets its items, the first one twice (a replay), then done. */
  private void socket(ServerWebSocket ws) {
    ws.textMessageHandler(msg -> {
      JsonNode m;
      try {
        m = JSON.readTree(msg);
      } catch (JsonProcessingException e) {
        return;
      }
      String topic = m.path("topic_id").asText("");
      List<String> events;
      synchronized (this) {
        events = "subscribe".equals(m.path("type").asText()) ? topics.remove(topic) : null;
      }
      if (events == null) {
        return;
      }
      List<String> frames = new ArrayList<>();
      for (int i = 0; i < events.size(); i++) {
        ObjectNode f = JSON.createObjectNode().put("type", "message");
        ObjectNode payload = f.putObject("payload").put("topic_id", topic);
        payload.putObject("payload").put("type", "conversation-turn-stream").put("stream_item_id", topic + "-" + i)
            .put("encoded_item", events.get(i));
        frames.add(write(f));
        if (i == 0) {
          frames.add(write(f));
        }
      }
      ObjectNode done = JSON.createObjectNode().put("type", "message");
      done.putObject("payload").put("topic_id", topic).putObject("payload").put("type", "done");
      frames.add(write(done));
      sendFrames(ws, frames, 0);
    });
  }

  private void sendFrames(ServerWebSocket ws, List<String> frames, int i) {
    if (i == frames.size() || ws.isClosed()) {
      return;
    }
    ws.writeTextMessage(frames.get(i));
    sol.vertx().setTimer(5, t -> sendFrames(ws, frames, i + 1));
  }

  // ---- Writing ---------------------------------------------------------------------------

  /** Events written after a delay that starts once {@code after} is done (a test's hold, else at once). */
  private record Step(long delayMs, List<String> events, CompletableFuture<Void> after) {
    Step(long delayMs, List<String> events) {
      this(delayMs, events, CompletableFuture.completedFuture(null));
    }
  }

  private static void eventStream(HttpServerResponse res) {
    res.setChunked(true).putHeader("content-type", "text/event-stream; charset=utf-8").putHeader("cache-control", "no-store");
  }

  private void play(HttpServerResponse res, List<Step> steps, boolean end) {
    play(res, steps, end, () -> { });
  }

  /** Plays the steps; {@code terminal} runs when the terminal {@code [DONE]} goes out. */
  private void play(HttpServerResponse res, List<Step> steps, boolean end, Runnable terminal) {
    playFrom(res, steps, 0, end, terminal);
  }

  private void playFrom(HttpServerResponse res, List<Step> steps, int i, boolean end, Runnable terminal) {
    if (res.closed() || res.ended()) {
      return;
    }
    if (i == steps.size()) {
      if (end) {
        res.end();
      }
      return;
    }
    Step step = steps.get(i);
    Runnable write = () -> {
      if (res.closed() || res.ended()) {
        return;
      }
      if (!step.events().isEmpty()) {
        res.write(String.join("", step.events()));
        if (step.events().contains("data: [DONE]\n\n")) {
          terminalAtMillis = System.currentTimeMillis();
          terminal.run();
        }
      }
      playFrom(res, steps, i + 1, end, terminal);
    };
    if (!step.after().isDone()) {
      step.after().completeOnTimeout(null, 10, TimeUnit.SECONDS)
          .whenComplete((v, e) -> sol.vertx().setTimer(Math.max(1, step.delayMs()), t -> write.run()));
    } else if (step.delayMs() <= 0) {
      write.run();
    } else {
      sol.vertx().setTimer(step.delayMs(), t -> write.run());
    }
  }

  /** A recording goes out in 512-byte chunks, 2 ms apart: split wherever the bytes fall, as a network would. */
  private void writeRecorded(HttpServerResponse res, byte[] body, int from) {
    if (res.closed() || res.ended()) {
      return;
    }
    if (from >= body.length) {
      res.end();
      return;
    }
    int to = Math.min(body.length, from + 512);
    res.write(Buffer.buffer(java.util.Arrays.copyOfRange(body, from, to)));
    sol.vertx().setTimer(2, t -> writeRecorded(res, body, to));
  }

  private static String data(ObjectNode node) {
    return "data: " + write(node) + "\n\n";
  }

  private static String write(ObjectNode node) {
    try {
      return JSON.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void json(HttpServerResponse res, int status, JsonNode body) {
    res.setStatusCode(status).putHeader("content-type", "application/json").putHeader("cache-control", "no-store")
        .end(body.toString());
  }

  private static JsonNode body(RoutingContext ctx) {
    return FakeSol.body(ctx);
  }
}

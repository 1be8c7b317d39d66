package dev.solweb.killgate.fakesol;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.platform.Json;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes one scripted turn as the body of ChatGPT's {@code POST /backend-api/f/conversation}
 * (shapes from ../shared/CHATGPT-STREAM.md; written by us, not copied from a capture): in delta
 * encoding v1 (patch frames, bare {@code {"v":..}} continuations that split words, a finishing
 * batch) or in the older cumulative format (the whole message per event). Each method returns
 * whole SSE events (ending in a blank line) so fakesol can cut a body where a fault says: before
 * the terminal frames, at a handoff, after a silence.
 */
public final class StreamEncoder {

  private static final ObjectMapper JSON = Json.MAPPER;
  /** Shaped like a JWT, secret-free: the seat must drop it anyway. */
  static final String FAKE_RESUME_TOKEN = "eyJhbGciOiJub25lIn0.eyJmYWtlc29sIjoicmVzdW1lIn0.";

  /** The two formats a page can get: v1 when it sends {@code supported_encodings: ["v1"]}. */
  public enum Format { V1, CUMULATIVE }

  /** An older answer a follow-up stream re-sends first, already finished. */
  public record Previous(String messageId, String markdown) {}

  /**
   * One turn to encode.
   *
   * @param pieceChars how much answer text one frame carries (at least 1)
   */
  public record Turn(Format format, String conversationId, boolean newChat, String userMessageId, String userText,
      String answerId, String modelSlug, List<String> adjustments, String markdown, Double thinkingSeconds,
      List<Previous> resend, int pieceChars, AccountCounters.Snapshot counters) {
    public Turn {
      adjustments = List.copyOf(adjustments);
      resend = List.copyOf(resend);
      if (pieceChars < 1) {
        throw new IllegalArgumentException("pieceChars must be >= 1, got " + pieceChars);
      }
    }

    /** With the counters of a fresh account (deep research only, nothing spent). */
    public Turn(Format format, String conversationId, boolean newChat, String userMessageId, String userText,
        String answerId, String modelSlug, List<String> adjustments, String markdown, Double thinkingSeconds,
        List<Previous> resend, int pieceChars) {
      this(format, conversationId, newChat, userMessageId, userText, answerId, modelSlug, adjustments, markdown,
          thinkingSeconds, resend, pieceChars, new AccountCounters.Snapshot(List.of(new AccountCounters.Counter(
              "deep_research", AccountCounters.DEEP_RESEARCH, java.time.Instant.parse("2026-12-31T00:00:00Z"))),
              List.of(), List.of()));
    }
  }

  private StreamEncoder() {}

  /** The whole body of a turn that ends normally. */
  public static List<String> body(Turn t) {
    List<String> out = new ArrayList<>(preamble(t));
    out.addAll(answer(t));
    out.addAll(epilogue(t));
    return out;
  }

  /** Everything before the answer message: encoding, token, echo, metadata, re-sent messages, thinking. */
  public static List<String> preamble(Turn t) {
    List<String> out = new ArrayList<>(head(t));
    if (t.thinkingSeconds() != null) {
      out.addAll(thinkingStarted(t));
      out.addAll(thinkingFinished(t));
    }
    return out;
  }

  /** The preamble without thinking: encoding, token, echo, metadata, re-sent messages. */
  public static List<String> head(Turn t) {
    List<String> out = new ArrayList<>();
    if (t.format() == Format.V1) {
      out.add("event: delta_encoding\ndata: \"v1\"\n\n");
    }
    out.add(data(obj().put("type", "resume_conversation_token").put("kind", "topic").put("token", FAKE_RESUME_TOKEN)
        .put("conversation_id", t.conversationId())));
    ObjectNode echo = obj().put("type", "input_message");
    echo.set("input_message", message(t.userMessageId(), "user", t.userText(), "finished_successfully", null, null, null));
    echo.put("conversation_id", t.conversationId());
    out.add(delta(t, echo));
    ObjectNode ste = obj().put("type", "server_ste_metadata");
    ste.putObject("metadata").put("model_slug", t.modelSlug()).put("plan_type", "plus").put("is_first_turn", t.newChat())
        .put("resume_with_websockets", true);
    ste.put("conversation_id", t.conversationId());
    out.add(data(ste));
    for (Previous p : t.resend()) {
      out.add(whole(t, message(p.messageId(), "assistant", p.markdown(), "finished_successfully", true, "final", t.modelSlug())));
    }
    return out;
  }

  /** The model starts thinking: the {@code cot_token} marker (the page shows its thinking label). */
  public static List<String> thinkingStarted(Turn t) {
    return List.of(data(obj().put("type", "message_marker").put("conversation_id", t.conversationId())
        .put("message_id", t.answerId() + "-recap").put("marker", "cot_token").put("event", "first")));
  }

  /**
   * The model writes visible text again after thinking mid-answer: a {@code final_channel_token}
   * marker. A typed frame, so the bare continuations after it still append to the answer.
   */
  public static List<String> visibleAgain(Turn t) {
    return List.of(data(obj().put("type", "message_marker").put("conversation_id", t.conversationId())
        .put("message_id", t.answerId()).put("marker", "final_channel_token").put("event", "first")));
  }

  /** The model stopped thinking: its finished {@code reasoning_recap} ("Thought for Ns"). */
  public static List<String> thinkingFinished(Turn t) {
    double seconds = t.thinkingSeconds() == null ? 0 : t.thinkingSeconds();
    ObjectNode m = message(t.answerId() + "-recap", "assistant", null, "finished_successfully", null, "analysis", t.modelSlug());
    m.putObject("content").put("content_type", "reasoning_recap").put("content", "Thought for " + Math.round(seconds) + "s");
    ((ObjectNode) m.get("metadata")).put("finished_duration_sec", seconds);
    return List.of(whole(t, m));
  }

  /**
   * A message before the answer in the commentary channel, already finished and not ending the
   * turn: a Pro preamble ("I'll think about this carefully."), which the page shows as a settled
   * message of its own.
   */
  public static List<String> commentary(Turn t, String text) {
    return List.of(whole(t, message(t.answerId() + "-preamble", "assistant", text, "finished_successfully", false,
        "commentary", t.modelSlug())));
  }

  /** The answer: a new message, its text in pieces, and a finishing batch (last text, status, end_turn, metadata). */
  public static List<String> answer(Turn t) {
    return answerFrames(t, true);
  }

  /** The answer message and all its text, still {@code in_progress}: what a body cut before its finish carries. */
  public static List<String> answerUnfinished(Turn t) {
    return answerFrames(t, false);
  }

  private static List<String> answerFrames(Turn t, boolean finish) {
    List<String> out = new ArrayList<>();
    List<String> pieces = pieces(t.markdown(), t.pieceChars());
    out.add(whole(t, answerMessage(t, "", "in_progress", null)));
    if (t.format() == Format.CUMULATIVE) {
      StringBuilder sofar = new StringBuilder();
      for (String piece : pieces) {
        sofar.append(piece);
        out.add(whole(t, answerMessage(t, sofar.toString(), "in_progress", null)));
      }
      if (finish) {
        out.add(whole(t, answerMessage(t, t.markdown(), "finished_successfully", true)));
      }
      return out;
    }
    int streamed = finish && !pieces.isEmpty() ? pieces.size() - 1 : pieces.size();
    for (int i = 0; i < streamed; i++) {
      ObjectNode f = obj();
      if (i == 0) {
        f.put("p", "/message/content/parts/0").put("o", "append");
      }
      out.add(delta(t, f.put("v", pieces.get(i))));
    }
    if (finish) {
      ObjectNode batch = obj().put("p", "").put("o", "patch");
      ArrayNode ops = batch.putArray("v");
      if (streamed < pieces.size()) {
        ops.addObject().put("p", "/message/content/parts/0").put("o", "append").put("v", pieces.get(streamed));
      }
      ops.addObject().put("p", "/message/status").put("o", "replace").put("v", "finished_successfully");
      ops.addObject().put("p", "/message/end_turn").put("o", "replace").put("v", true);
      ObjectNode meta = ops.addObject().put("p", "/message/metadata").put("o", "append").putObject("v");
      meta.put("is_complete", true).putObject("finish_details").put("type", "stop");
      out.add(delta(t, batch));
    }
    return out;
  }

  /** An image turn's answer: a finished multimodal message that carries no text (the page loads the images). */
  public static List<String> imageAnswer(Turn t) {
    ObjectNode m = message(t.answerId(), "assistant", null, "finished_successfully", true, "final", t.modelSlug());
    ObjectNode content = m.putObject("content").put("content_type", "multimodal_text");
    content.putArray("parts").addObject().put("content_type", "image_asset_pointer")
        .put("asset_pointer", "file-service://file-" + t.answerId());
    return List.of(whole(t, m));
  }

  /** After the answer: a new chat's title, the account's limits, and the two terminal frames. */
  public static List<String> epilogue(Turn t) {
    List<String> out = new ArrayList<>();
    if (t.newChat()) {
      out.add(data(obj().put("type", "title_generation").put("title", "fakesol chat").put("conversation_id", t.conversationId())));
    }
    out.add(data(details(t)));
    out.addAll(terminal(t));
    return out;
  }

  /**
   * The account's counters as the turn left them (REAL-PAGE row 50): {@code limits_progress},
   * {@code model_limits}, {@code blocked_features}, times as the server writes them (ISO, +00:00).
   */
  static ObjectNode details(Turn t) {
    ObjectNode details = obj().put("type", "conversation_detail_metadata");
    ArrayNode features = details.putArray("limits_progress");
    for (AccountCounters.Counter c : t.counters().features()) {
      features.addObject().put("feature_name", c.name()).put("remaining", c.remaining()).put("reset_after", iso(c.resetAfter()));
    }
    ArrayNode models = details.putArray("model_limits");
    for (AccountCounters.Counter c : t.counters().models()) {
      models.addObject().put("model_slug", c.name()).put("remaining", c.remaining()).put("reset_after", iso(c.resetAfter()));
    }
    ArrayNode blocked = details.putArray("blocked_features");
    t.counters().blocked().forEach(blocked::add);
    details.put("conversation_id", t.conversationId());
    return details;
  }

  private static String iso(java.time.Instant at) {
    return java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssxxx").withZone(java.time.ZoneOffset.UTC).format(at);
  }

  /** {@code message_stream_complete} and {@code [DONE]}. */
  public static List<String> terminal(Turn t) {
    return List.of(data(obj().put("type", "message_stream_complete").put("conversation_id", t.conversationId())),
        "data: [DONE]\n\n");
  }

  /** A POST body that hands the turn off: no answer, a {@code stream_handoff} and {@code [DONE]}. */
  public static List<String> handoff(Turn t, String topicId) {
    List<String> out = new ArrayList<>(preamble(t));
    ObjectNode h = obj().put("type", "stream_handoff").put("conversation_id", t.conversationId());
    ArrayNode options = h.putArray("options");
    options.addObject().put("type", "subscribe_ws_topic").put("topic_id", topicId);
    options.addObject().put("type", "resume_sse_endpoint").put("topic_id", topicId);
    out.add(data(h));
    out.add("data: [DONE]\n\n");
    return out;
  }

  /** A {@code /resume} body: the answer restated whole and finished, then the terminal frames. */
  public static List<String> resumed(Turn t) {
    List<String> out = new ArrayList<>();
    if (t.format() == Format.V1) {
      out.add("event: delta_encoding\ndata: \"v1\"\n\n");
    }
    out.add(whole(t, answerMessage(t, t.markdown(), "finished_successfully", true)));
    out.addAll(terminal(t));
    return out;
  }

  // ---- Frames ----------------------------------------------------------------------------

  private static ObjectNode answerMessage(Turn t, String text, String status, Boolean endTurn) {
    ObjectNode m = message(t.answerId(), "assistant", text, status, endTurn, "final", t.modelSlug());
    if (!t.adjustments().isEmpty()) {
      ArrayNode a = ((ObjectNode) m.get("metadata")).putArray("model_adjustments");
      t.adjustments().forEach(a::add);
    }
    return m;
  }

  private static ObjectNode message(String id, String role, String text, String status, Boolean endTurn, String channel, String slug) {
    ObjectNode m = obj().put("id", id);
    m.putObject("author").put("role", role);
    ObjectNode content = m.putObject("content").put("content_type", "text");
    content.putArray("parts").add(text == null ? "" : text);
    m.put("status", status);
    if (endTurn == null) {
      m.putNull("end_turn");
    } else {
      m.put("end_turn", endTurn);
    }
    m.put("recipient", "all");
    if (channel != null) {
      m.put("channel", channel);
    }
    ObjectNode meta = m.putObject("metadata");
    if (slug != null) {
      meta.put("model_slug", slug);
    }
    return m;
  }

  /** A whole message: an add frame in v1, a cumulative event in the older format. */
  private static String whole(Turn t, ObjectNode message) {
    ObjectNode doc = obj();
    doc.set("message", message);
    doc.put("conversation_id", t.conversationId());
    doc.putNull("error");
    if (t.format() == Format.CUMULATIVE) {
      return data(doc);
    }
    ObjectNode add = obj().put("p", "").put("o", "add");
    add.set("v", doc);
    return delta(t, add);
  }

  private static String delta(Turn t, ObjectNode frame) {
    return t.format() == Format.V1 ? "event: delta\n" + data(frame) : data(frame);
  }

  private static String data(ObjectNode node) {
    try {
      return "data: " + JSON.writeValueAsString(node) + "\n\n";
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static ObjectNode obj() {
    return JSON.createObjectNode();
  }

  /** Splits by code points, so no piece ends inside a surrogate pair. */
  static List<String> pieces(String text, int size) {
    List<String> out = new ArrayList<>();
    int i = 0;
    while (i < text.length()) {
      int end = text.offsetByCodePoints(i, Math.min(size, text.codePointCount(i, text.length())));
      out.add(text.substring(i, end));
      i = end;
    }
    return out;
  }
}

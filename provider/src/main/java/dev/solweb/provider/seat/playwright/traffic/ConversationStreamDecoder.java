package dev.solweb.provider.seat.playwright.traffic;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.platform.Json;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Decodes ONE body of the page's conversation stream (the POST to {@code /backend-api/f/conversation},
 * a {@code /resume}, or the SSE text a WebSocket handoff carries) into {@link StreamEvent}s. Pure:
 * bytes in, events out, in chunks of any size. Both formats of ../shared/CHATGPT-STREAM.md:
 * delta encoding v1 (patch frames on the most recently added message, bare {@code {"v":..}}
 * repeating the previous pointer and operation, batches) and the older cumulative format (one
 * whole {@code {"message":..}} per event). Nothing here throws on what the server sends: an
 * unknown or broken frame becomes {@link StreamEvent.Unreadable} or {@link StreamEvent.Other}.
 * Not thread-safe; one instance per body.
 */
public final class ConversationStreamDecoder {


  private final SseReader sse = new SseReader();
  private final Map<String, Shown> shown = new HashMap<>();
  private final Set<String> conversations = new HashSet<>();
  /** The document {@code /message/...} pointers address: the last added {@code {message, conversation_id, error}}. */
  private ObjectNode current;
  private String lastPath;
  private String lastOp;
  private String lastError;

  /** What the events so far said about one message, to report only changes. */
  private static final class Shown {
    String role;
    String contentType;
    String channel;
    String recipient;
    String status;
    boolean endTurn;
    String text = "";
    String slug;
    List<String> adjustments = List.of();
    boolean recapped;
  }

  public List<StreamEvent> feed(byte[] bytes) {
    return feed(bytes, 0, bytes.length);
  }

  public List<StreamEvent> feed(byte[] bytes, int offset, int length) {
    List<StreamEvent> out = new ArrayList<>();
    for (SseReader.Event e : sse.feed(bytes, offset, length)) {
      event(e, out);
    }
    return out;
  }

  /** The body ended (or was aborted): flushes an unterminated last event. */
  public List<StreamEvent> end() {
    List<StreamEvent> out = new ArrayList<>();
    for (SseReader.Event e : sse.end()) {
      event(e, out);
    }
    return out;
  }

  // ---- Events ----------------------------------------------------------------------------

  private void event(SseReader.Event e, List<StreamEvent> out) {
    String data = e.data().strip();
    if (data.isEmpty()) {
      return;
    }
    if (data.equals("[DONE]")) {
      out.add(new StreamEvent.Done());
      return;
    }
    JsonNode node;
    try {
      node = Json.MAPPER.readTree(data);
    } catch (JsonProcessingException ex) {
      out.add(new StreamEvent.Unreadable("not JSON: " + clip(data)));
      return;
    }
    if ("delta_encoding".equals(e.name()) || (node.isTextual() && e.name() == null && node.asText().matches("v\\d+"))) {
      out.add(new StreamEvent.Encoding(node.asText()));
      return;
    }
    if (!node.isObject()) {
      out.add(new StreamEvent.Unreadable("not an object: " + clip(data)));
      return;
    }
    if (node.hasNonNull("type") && node.get("type").isTextual()) {
      typed(node, out);
    } else if (node.has("p") || node.has("o") || node.has("v")) {
      patchFrame(node, out);
    } else if (node.has("message") || node.has("conversation_id") || node.has("error")) {
      // The older cumulative format: the whole message, every time.
      if (node.get("message") instanceof ObjectNode) {
        current = (ObjectNode) node;
      }
      document(node, out);
    } else {
      out.add(new StreamEvent.Unreadable("unknown frame: " + clip(data)));
    }
  }

  private void typed(JsonNode node, List<StreamEvent> out) {
    String type = node.get("type").asText();
    conversation(node.path("conversation_id"), out);
    switch (type) {
      case "resume_conversation_token" -> { } // a JWT: never kept, never an event
      case "input_message" -> out.add(new StreamEvent.InputMessage(
          text(node.path("input_message").path("id"))));
      case "message_marker" -> out.add(new StreamEvent.Marker(text(node.path("marker")), text(node.path("message_id"))));
      case "title_generation" -> out.add(new StreamEvent.Title(text(node.path("title"))));
      case "server_ste_metadata" -> {
        JsonNode m = node.path("metadata");
        String slug = text(m.path("model_slug"));
        List<String> adjustments = strings(m.path("model_adjustments"));
        if (slug != null || !adjustments.isEmpty()) {
          out.add(new StreamEvent.ModelSeen(null, slug, adjustments));
        }
        String plan = text(m.path("plan_type"));
        if (plan != null) {
          out.add(new StreamEvent.Plan(plan));
        }
      }
      case "conversation_detail_metadata" -> {
        List<StreamEvent.Limit> limits = new ArrayList<>();
        for (JsonNode l : node.path("limits_progress")) {
          JsonNode remaining = l.path("remaining");
          limits.add(new StreamEvent.Limit(text(l.path("feature_name")),
              remaining.isNumber() ? remaining.asInt() : null, text(l.path("reset_after"))));
        }
        List<StreamEvent.ModelLimit> models = new ArrayList<>();
        for (JsonNode l : node.path("model_limits")) {
          JsonNode remaining = l.path("remaining");
          String slug = text(l.path("model_slug"));
          if (slug != null) {
            models.add(new StreamEvent.ModelLimit(slug, remaining.isNumber() ? remaining.asInt() : null,
                text(l.path("reset_after"))));
          }
        }
        List<String> blocked = new ArrayList<>();
        for (JsonNode b : node.path("blocked_features")) {
          String name = b.isTextual() ? b.asText() : text(b.path("name"));
          if (name != null) {
            blocked.add(name);
          }
        }
        out.add(new StreamEvent.Limits(limits, models, blocked, text(node.path("default_model_slug"))));
      }
      case "message_stream_complete" -> out.add(new StreamEvent.StreamComplete(text(node.path("conversation_id"))));
      case "stream_handoff" -> {
        List<StreamEvent.HandoffOption> options = new ArrayList<>();
        for (JsonNode o : node.path("options")) {
          options.add(new StreamEvent.HandoffOption(text(o.path("type")), text(o.path("topic_id"))));
        }
        out.add(new StreamEvent.Handoff(options));
      }
      case "moderation" -> {
        JsonNode r = node.path("moderation_response");
        out.add(new StreamEvent.Moderation(r.path("flagged").asBoolean(false), r.path("blocked").asBoolean(false)));
      }
      case "error" -> {
        JsonNode error = node.has("error") ? node.get("error") : node;
        out.add(new StreamEvent.ErrorFrame(errorText(error), errorCode(error)));
      }
      case "safety_review_update" -> out.add(new StreamEvent.SafetyReview(node.path("active").asBoolean(true),
          text(node.path("protection_type"))));
      default -> out.add(new StreamEvent.Other(type));
    }
  }

  // ---- Delta encoding v1 -----------------------------------------------------------------

  private void patchFrame(JsonNode frame, List<StreamEvent> out) {
    boolean bare = !frame.has("p") && !frame.has("o");
    JsonNode v = frame.path("v");
    if (bare && v.isArray() && looksLikeBatch(v)) {
      batch("", v, out);
      return;
    }
    if (bare && v.isObject() && v.has("message")) {
      apply("", "add", v, out); // the bare form of a new message, whatever came before
      return;
    }
    if (bare && lastOp == null) {
      out.add(new StreamEvent.Unreadable("a bare value with no operation before it"));
      return;
    }
    String path = frame.has("p") ? frame.path("p").asText("") : lastPath;
    String op = frame.has("o") ? frame.path("o").asText("") : (frame.has("p") ? "replace" : lastOp);
    if ("patch".equals(op)) {
      batch(path, v, out);
      return;
    }
    apply(path, op, v, out);
  }

  private static boolean looksLikeBatch(JsonNode v) {
    for (JsonNode f : v) {
      if (!f.isObject() || !(f.has("p") || f.has("o"))) {
        return false;
      }
    }
    return v.size() > 0;
  }

  private void batch(String base, JsonNode frames, List<StreamEvent> out) {
    if (!frames.isArray()) {
      out.add(new StreamEvent.Unreadable("a patch whose value is not a list"));
      return;
    }
    for (JsonNode f : frames) {
      String path = base + f.path("p").asText("");
      String op = f.path("o").asText("replace");
      if ("patch".equals(op)) {
        batch(path, f.path("v"), out);
      } else {
        apply(path, op, f.path("v"), out);
      }
    }
  }

  private void apply(String path, String op, JsonNode v, List<StreamEvent> out) {
    lastPath = path;
    lastOp = op;
    if (path.isEmpty() && ("add".equals(op) || "replace".equals(op))) {
      if (!(v instanceof ObjectNode doc)) {
        out.add(new StreamEvent.Unreadable("a new document that is not an object"));
        return;
      }
      current = doc.deepCopy();
      document(current, out);
      return;
    }
    if (current == null) {
      out.add(new StreamEvent.Unreadable("a patch at " + path + " before any message"));
      return;
    }
    try {
      JsonPatch.apply(current, path, op, v);
    } catch (IllegalArgumentException ex) {
      out.add(new StreamEvent.Unreadable(ex.getMessage()));
      return;
    }
    document(current, out);
  }

  // ---- What a document says --------------------------------------------------------------

  /** Reports what changed in {@code doc} ({@code {message, conversation_id, error}}) since last seen. */
  private void document(JsonNode doc, List<StreamEvent> out) {
    conversation(doc.path("conversation_id"), out);
    JsonNode error = doc.path("error");
    if (!error.isMissingNode() && !error.isNull()) {
      String message = errorText(error);
      if (!message.equals(lastError)) {
        lastError = message; // once, however many patches or cumulative events repeat it
        out.add(new StreamEvent.ErrorFrame(message, errorCode(error)));
      }
    }
    JsonNode message = doc.path("message");
    if (!message.isObject()) {
      return;
    }
    String id = text(message.path("id"));
    if (id == null) {
      out.add(new StreamEvent.Unreadable("a message without an id"));
      return;
    }
    Shown was = shown.get(id);
    boolean fresh = was == null;
    Shown now = fresh ? new Shown() : was;
    shown.put(id, now);

    String role = text(message.path("author").path("role"));
    JsonNode content = message.path("content");
    String contentType = text(content.path("content_type"));
    String channel = text(message.path("channel"));
    String recipient = text(message.path("recipient"));
    String status = text(message.path("status"));
    boolean endTurn = message.path("end_turn").asBoolean(false);
    if (fresh || !Objects.equals(role, now.role) || !Objects.equals(contentType, now.contentType)
        || !Objects.equals(channel, now.channel) || !Objects.equals(recipient, now.recipient)
        || !Objects.equals(status, now.status) || endTurn != now.endTurn) {
      now.role = role;
      now.contentType = contentType;
      now.channel = channel;
      now.recipient = recipient;
      now.status = status;
      now.endTurn = endTurn;
      out.add(new StreamEvent.MessageSeen(id, role, contentType, channel, recipient, status, endTurn, fresh));
    }

    JsonNode part = content.path("parts").path(0);
    String text = part.isTextual() ? part.asText() : "";
    if (!text.equals(now.text)) {
      if (text.startsWith(now.text)) {
        out.add(new StreamEvent.TextAppended(id, text.substring(now.text.length())));
      } else {
        out.add(new StreamEvent.TextReplaced(id, text));
      }
      now.text = text;
    }

    JsonNode meta = message.path("metadata");
    String slug = text(meta.path("model_slug"));
    if (slug == null) {
      slug = text(meta.path("resolved_model_slug"));
    }
    List<String> adjustments = strings(meta.path("model_adjustments"));
    if ((slug != null && !slug.equals(now.slug)) || !adjustments.equals(now.adjustments)) {
      now.slug = slug != null ? slug : now.slug;
      now.adjustments = adjustments;
      out.add(new StreamEvent.ModelSeen(id, now.slug, adjustments));
    }

    if ("reasoning_recap".equals(contentType) && !now.recapped
        && ("finished_successfully".equals(status) || meta.has("finished_duration_sec"))) {
      now.recapped = true;
      JsonNode seconds = meta.path("finished_duration_sec");
      out.add(new StreamEvent.ThinkingFinished(id, seconds.isNumber() ? seconds.asDouble() : null,
          text(content.path("content"))));
    }
  }

  private void conversation(JsonNode id, List<StreamEvent> out) {
    String c = text(id);
    if (c != null && !c.isBlank() && !c.startsWith("WEB:") && conversations.add(c)) {
      out.add(new StreamEvent.Conversation(c));
    }
  }

  // ---- Helpers ---------------------------------------------------------------------------

  private static String text(JsonNode n) {
    return n == null || n.isMissingNode() || n.isNull() ? null : n.isTextual() ? n.asText() : n.toString();
  }

  /** {@code model_adjustments} is a list of strings, or of objects with a type, or one string. */
  private static List<String> strings(JsonNode n) {
    List<String> out = new ArrayList<>();
    if (n.isTextual()) {
      out.add(n.asText());
    } else if (n.isArray()) {
      for (JsonNode e : n) {
        String s = e.isTextual() ? e.asText() : text(e.has("type") ? e.get("type") : e);
        if (s != null) {
          out.add(s);
        }
      }
    }
    return List.copyOf(out);
  }

  /** The page's own error code of an error value ({@code code}, or {@code detail.code}), or null. */
  private static String errorCode(JsonNode error) {
    JsonNode code = error.path("code").isTextual() ? error.path("code") : error.path("detail").path("code");
    return code.isTextual() ? code.asText() : null;
  }

  private static String errorText(JsonNode error) {
    if (error.isTextual()) {
      return error.asText();
    }
    for (String field : List.of("message", "detail", "code")) {
      if (error.path(field).isTextual()) {
        return error.path(field).asText();
      }
    }
    return clip(error.toString());
  }

  static String clip(String s) {
    return s.length() > 200 ? s.substring(0, 200) + "…" : s;
  }
}

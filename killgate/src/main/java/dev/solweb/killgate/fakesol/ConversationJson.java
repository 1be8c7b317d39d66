package dev.solweb.killgate.fakesol;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.List;
import java.util.Optional;

/**
 * fakesol's conversation JSON, as the late-2026 page loads it (../shared/REAL-PAGE.md rows 18, 20,
 * 29, 30): {@code GET /backend-api/conversations/<id>} ({@code messages[]} oldest first,
 * {@code current_node}, {@code async_status} 3 while an answer is still being written,
 * {@code page_info}), {@code GET /backend-api/conversation/<id>/stream_status}
 * ({@code IS_STREAMING}, {@code COMPLETE}) and {@code POST /backend-api/stop_conversation}
 * ({@code {status: ok, last_message_id: null}}). The server side writes an answer at its scripted
 * pace whether or not a browser still listens, so after the browser went away the JSON shows it
 * being written and then finished, as the real one does. A missing, deleted or temporary
 * conversation answers 404 {@code conversation_not_found}. Written from those rows; copies nothing.
 */
final class ConversationJson {

  private final FakeSol sol;

  ConversationJson(FakeSol sol) {
    this.sol = sol;
  }

  /** Row 52: the burst rule's answer (two such 429s answered a real page's reload). */
  private static void tooMany(RoutingContext ctx) {
    FakeSol.json(ctx, 429, FakeSol.JSON.createObjectNode().put("detail", "Too many requests"));
  }

  void mount(Router router) {
    router.get("/backend-api/conversations/:id").handler(this::history);
    router.get("/backend-api/conversation/:id/stream_status").handler(this::streamStatus);
    router.post("/backend-api/stop_conversation").handler(this::stop);
  }

  private void history(RoutingContext ctx) {
    if (sol.jsonRequested(true)) {
      tooMany(ctx);
      return;
    }
    String id = ctx.pathParam("id");
    Optional<List<ObjectNode>> held = sol.heldTurns(id);
    if (held.isEmpty()) {
      notFound(ctx);
      return;
    }
    ObjectNode out = FakeSol.JSON.createObjectNode().put("conversation_id", id);
    ArrayNode messages = out.putArray("messages");
    boolean writing = false;
    String current = null;
    for (ObjectNode turn : held.get()) {
      boolean assistant = "assistant".equals(turn.path("role").asText());
      boolean inProgress = turn.path("writing").asBoolean(false) || turn.path("stopped").asBoolean(false);
      writing |= turn.path("writing").asBoolean(false);
      ObjectNode m = messages.addObject().put("id", turn.path("id").asText());
      m.putObject("author").put("role", assistant ? "assistant" : "user");
      m.putObject("content").put("content_type", "text").putArray("parts")
          .add(assistant ? turn.path("markdown").asText("") : turn.path("text").asText(""));
      m.put("status", inProgress ? "in_progress" : "finished_successfully").put("end_turn", assistant && !inProgress)
          .put("recipient", "all");
      if (assistant) {
        m.put("channel", "final");
        m.putObject("metadata").put("model_slug", turn.path("slug").asText(null));
      }
      current = turn.path("id").asText();
    }
    out.put("current_node", current);
    if (writing) {
      out.put("async_status", 3);
    } else {
      out.putNull("async_status");
    }
    out.put("is_temporary_chat", false).put("gizmo_id", sol.history().projectOf(id));
    out.putObject("page_info").put("has_more", false);
    FakeSol.json(ctx, 200, out);
  }

  private void streamStatus(RoutingContext ctx) {
    if (sol.jsonRequested(false)) {
      tooMany(ctx);
      return;
    }
    Optional<List<ObjectNode>> held = sol.heldTurns(ctx.pathParam("id"));
    if (held.isEmpty()) {
      notFound(ctx);
      return;
    }
    boolean writing = held.get().stream().anyMatch(t -> t.path("writing").asBoolean(false));
    FakeSol.json(ctx, 200, FakeSol.JSON.createObjectNode().put("status", writing ? "IS_STREAMING" : "COMPLETE"));
  }

  private void stop(RoutingContext ctx) {
    sol.stopConversation(FakeSol.body(ctx).path("conversation_id").asText(null));
    ObjectNode out = FakeSol.JSON.createObjectNode().put("status", "ok");
    out.putNull("last_message_id");
    FakeSol.json(ctx, 200, out);
  }

  /** Rows 20 and 22: what a deleted or missing conversation's JSON answers. */
  private static void notFound(RoutingContext ctx) {
    ObjectNode out = FakeSol.JSON.createObjectNode();
    out.putObject("detail").put("message", "Conversation not found").put("code", "conversation_not_found");
    FakeSol.json(ctx, 404, out);
  }
}

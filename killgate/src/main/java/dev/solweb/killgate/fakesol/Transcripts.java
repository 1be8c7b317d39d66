package dev.solweb.killgate.fakesol;

import static dev.solweb.killgate.fakesol.FakeSol.JSON;
import static dev.solweb.killgate.fakesol.FakeSol.json;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.scenario.ScenarioPlayer;
import dev.solweb.provider.scenario.ScriptedReply.Fault;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the server holds of each conversation: its turns in order, an answer as far as the server
 * has written it (it writes at the reply's pace whether or not a browser listens, and Stop cuts
 * it), and the page's own load of a conversation ({@code GET /api/conversation/:id}). Every turn
 * handed out is a copy, so a reader never sees one change under it.
 */
final class Transcripts {

  private final Clock clock;
  private final ScenarioPlayer player;
  private final ConversationAliases aliases;
  private final ChatHistory history;
  private final Map<String, List<ObjectNode>> turns = new HashMap<>();

  Transcripts(Clock clock, ScenarioPlayer player, ConversationAliases aliases, ChatHistory history) {
    this.clock = clock;
    this.player = player;
    this.aliases = aliases;
    this.history = history;
  }

  void mount(Router router) {
    router.get("/api/conversation/:id").handler(this::conversation);
  }

  /** True when fakesol's conversation has no turn yet: its first Send opens a new chat. */
  synchronized boolean isEmpty(String conversation) {
    return turns.getOrDefault(conversation, List.of()).isEmpty();
  }

  /** Appends a turn (complete: the server never changes it later but to finish or cut its writing). */
  synchronized void add(String conversation, ObjectNode turn) {
    turns.computeIfAbsent(conversation, k -> new ArrayList<>()).add(turn);
  }

  /** The answers a conversation holds, oldest first: what a new turn's stream may re-render. */
  /**
   * Row 35's Regenerate: the text of the prompt {@code userMessageId} in {@code conversation}, every
   * turn after it dropped (the variant replaces the answer shown after it); empty when the
   * conversation holds no such prompt.
   */
  synchronized Optional<String> reopenPrompt(String conversation, String userMessageId) {
    List<ObjectNode> transcript = turns.getOrDefault(conversation, List.of());
    for (int i = transcript.size() - 1; i >= 0; i--) {
      ObjectNode turn = transcript.get(i);
      if ("user".equals(turn.path("role").asText()) && turn.path("id").asText().equals(userMessageId)) {
        transcript.subList(i + 1, transcript.size()).clear();
        return Optional.of(turn.path("text").asText());
      }
    }
    return Optional.empty();
  }

  synchronized List<StreamEncoder.Previous> answers(String conversation) {
    List<StreamEncoder.Previous> older = new ArrayList<>();
    for (ObjectNode turn : turns.getOrDefault(conversation, List.of())) {
      if ("assistant".equals(turn.path("role").asText())) {
        older.add(new StreamEncoder.Previous(turn.path("id").asText(), turn.path("markdown").asText()));
      }
    }
    return older;
  }

  /** The text of a conversation's last user message: what Retry resubmits. */
  synchronized Optional<String> lastUserText(String conversation) {
    List<ObjectNode> transcript = turns.getOrDefault(conversation, List.of());
    for (int i = transcript.size() - 1; i >= 0; i--) {
      if ("user".equals(transcript.get(i).path("role").asText())) {
        return Optional.of(transcript.get(i).path("text").asText());
      }
    }
    return Optional.empty();
  }

  /** The ids the page gave the user messages of a conversation (its turn requests' messages[0].id), oldest first. */
  synchronized List<String> userMessageIds(String conversationId) {
    List<String> ids = new ArrayList<>();
    for (ObjectNode turn : turns.getOrDefault(aliases.resolve(conversationId), List.of())) {
      if ("user".equals(turn.path("role").asText())) {
        ids.add(turn.path("id").asText());
      }
    }
    return ids;
  }

  /** The page's stream delivered the answer's terminal frames: the server is done writing it. */
  synchronized void written(String conversationId, String answerId) {
    for (ObjectNode turn : turns.getOrDefault(aliases.resolve(conversationId), List.of())) {
      if (answerId.equals(turn.path("id").asText()) && turn.has("finish_at_ms")) {
        turn.put("finish_at_ms", Math.min(turn.path("finish_at_ms").asLong(), clock.millis()));
      }
    }
  }

  /**
   * A conversation's turns as the server holds them now (copies), for its history JSON: an answer
   * still being written is marked so ({@code writing}, its text so far), a stopped one stays cut.
   * Empty when the conversation does not exist, is deleted or was a temporary chat.
   */
  synchronized Optional<List<ObjectNode>> held(String pageConversation) {
    String id = aliases.resolve(pageConversation);
    Optional<List<ObjectNode>> personal = history.personalTranscript(id);
    if (history.gone(id) || history.isDeleted(id) || (!player.exists(id) && personal.isEmpty())) {
      return Optional.empty();
    }
    List<ObjectNode> out = new ArrayList<>();
    long now = clock.millis();
    for (ObjectNode turn : personal.orElseGet(() -> turns.getOrDefault(id, List.of()))) {
      ObjectNode copy = turn.deepCopy();
      long finish = turn.path("finish_at_ms").asLong(0);
      long stopped = turn.path("stopped_at_ms").asLong(0);
      if (finish > now || stopped > 0) {
        long start = turn.path("started_at_ms").asLong(now);
        long until = stopped > 0 ? Math.min(stopped, finish) : now;
        String markdown = turn.path("markdown").asText("");
        double part = finish <= start ? 0 : Math.max(0, Math.min(1, (until - start) / (double) (finish - start)));
        copy.put("writing", stopped == 0).put("stopped", stopped > 0)
            .put("markdown", markdown.substring(0, (int) Math.floor(markdown.length() * part)));
      }
      out.add(copy);
    }
    return Optional.of(out);
  }

  /** Stop (the page's Stop): the server stops writing whatever it still writes. */
  synchronized void stopAll() {
    turns.keySet().forEach(this::stop);
  }

  /** {@code stop_conversation}: the server stops writing this conversation's answer (it stays cut, in progress). */
  synchronized void stop(String pageConversation) {
    long now = clock.millis();
    turns.getOrDefault(aliases.resolve(pageConversation), List.of()).stream()
        .filter(t -> t.path("finish_at_ms").asLong(0) > now && !t.has("stopped_at_ms"))
        .forEach(t -> t.put("stopped_at_ms", now));
  }

  private synchronized void conversation(RoutingContext ctx) {
    String id = aliases.resolve(ctx.pathParam("id"));
    if (player.peek(id).map(r -> r.fault() == Fault.DELETED).orElse(false)) {
      player.next(id);
      player.delete(id);
      turns.remove(id);
    }
    Optional<List<ObjectNode>> personal = history.personalTranscript(id);
    if (history.gone(id) || (!player.exists(id) && personal.isEmpty())) {
      // What the site answers for a deleted, missing or temporary conversation (REAL-PAGE rows 20, 24):
      // no source shows a "deleted" text; the page shows the message.
      ObjectNode out = JSON.createObjectNode();
      out.putObject("detail").put("message", "Conversation not found").put("code", "conversation_not_found");
      json(ctx, 404, out);
      return;
    }
    ObjectNode out = JSON.createObjectNode().put("id", aliases.shown(id)).put("project", history.projectOf(id));
    ArrayNode shown = out.putArray("turns");
    long now = clock.millis();
    // An answer the server is still writing (or stopped) is not drawn whole by a page that loads now.
    personal.orElseGet(() -> turns.getOrDefault(id, List.of())).stream()
        .filter(t -> t.path("finish_at_ms").asLong(0) <= now && !t.has("stopped_at_ms")).forEach(shown::add);
    json(ctx, 200, out);
  }
}

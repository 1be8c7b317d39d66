package dev.solweb.provider.seat.playwright.traffic;

import com.fasterxml.jackson.databind.JsonNode;
import dev.solweb.provider.platform.Json;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A conversation as the page's own history JSON holds it (../shared/REAL-PAGE.md row 18), in
 * either shape: the late-2026 {@code GET /backend-api/conversations/<id>} ({@code messages[]} in
 * order, {@code current_node}, {@code async_status}) or the older
 * {@code GET /backend-api/conversation/<id>} ({@code mapping} of nodes with parents, read along
 * {@code current_node} back to the root). Pure: bytes in, messages out. What it is for: after a
 * turn left uncertain, {@link #answerAfter} tells whether the conversation already holds the
 * answer to the user message the page's request named.
 *
 * @param asyncStatus {@code async_status}: 3 is still streaming (4 unread, 5-7 realtime), null when absent
 */
public record ConversationHistory(String conversationId, String currentNode, Integer asyncStatus, List<Message> messages) {

  /** {@code async_status} of a conversation whose answer is still being written (row 30). */
  public static final int STREAMING = 3;

  /** One message, without anything the seat does not read. */
  public record Message(String id, String role, String contentType, String channel, String recipient, String status,
      boolean endTurn, String text, String modelSlug) {

    boolean answerText() {
      return "assistant".equals(role) && "text".equals(contentType) && (recipient == null || "all".equals(recipient))
          && (channel == null || "final".equals(channel));
    }

    boolean finished() {
      return StreamTurn.FINISHED.equals(status);
    }
  }

  /** What the conversation holds after a user message. */
  public sealed interface Found {}

  /** The answer is there and finished: its raw markdown (citation markers removed), id and model. */
  public record Answered(String messageId, String markdown, String modelSlug) implements Found {}

  /** The answer is still being written (an unfinished answer message, or the conversation still streaming). */
  public record Writing() implements Found {}

  /** No answer after that message (and nothing streaming): the send produced nothing to recover. */
  public record Nothing(String why) implements Found {}

  public ConversationHistory {
    messages = List.copyOf(messages);
  }

  /** Decodes a history JSON body; empty when it is not one (an error body, another shape). */
  public static Optional<ConversationHistory> decode(byte[] json) {
    JsonNode root;
    try {
      root = Json.MAPPER.readTree(json);
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
    if (root == null || !root.isObject()) {
      return Optional.empty();
    }
    String current = text(root.path("current_node"));
    Integer async = root.path("async_status").isInt() ? root.path("async_status").asInt() : null;
    String id = text(root.path("conversation_id")) != null ? text(root.path("conversation_id")) : text(root.path("id"));
    List<Message> messages = new ArrayList<>();
    if (root.path("messages").isArray()) {
      for (JsonNode m : root.path("messages")) {
        message(m.has("message") ? m.path("message") : m).ifPresent(messages::add);
      }
    } else if (root.path("mapping").isObject()) {
      messages.addAll(alongCurrentNode(root.path("mapping"), current));
    } else {
      return Optional.empty();
    }
    return Optional.of(new ConversationHistory(id, current, async, messages));
  }

  /** The older shape: from {@code current_node} up the parents to the root, then in order. */
  private static List<Message> alongCurrentNode(JsonNode mapping, String current) {
    List<Message> reversed = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (String node = current; node != null && seen.add(node); ) {
      JsonNode n = mapping.path(node);
      if (n.isMissingNode()) {
        break;
      }
      message(n.path("message")).ifPresent(reversed::add);
      node = text(n.path("parent"));
    }
    List<Message> out = new ArrayList<>();
    for (int i = reversed.size() - 1; i >= 0; i--) {
      out.add(reversed.get(i));
    }
    return out;
  }

  private static Optional<Message> message(JsonNode m) {
    String id = text(m.path("id"));
    if (!m.isObject() || id == null) {
      return Optional.empty();
    }
    JsonNode content = m.path("content");
    JsonNode part = content.path("parts").path(0);
    JsonNode meta = m.path("metadata");
    String slug = text(meta.path("model_slug")) != null ? text(meta.path("model_slug")) : text(meta.path("resolved_model_slug"));
    return Optional.of(new Message(id, text(m.path("author").path("role")), text(content.path("content_type")),
        text(m.path("channel")), text(m.path("recipient")), text(m.path("status")), m.path("end_turn").asBoolean(false),
        part.isTextual() ? part.asText() : "", slug));
  }

  /**
   * What follows the user message {@code userMessageId}: its finished answer (the last assistant
   * text message to all in the final channel before the next user message), an answer still
   * being written, or nothing. A conversation that does not hold that user message holds nothing
   * for it (the send did not reach it, or the history page is another one).
   */
  public Found answerAfter(String userMessageId) {
    int at = -1;
    for (int i = 0; i < messages.size(); i++) {
      if (messages.get(i).id().equals(userMessageId) && "user".equals(messages.get(i).role())) {
        at = i;
      }
    }
    if (at < 0) {
      return asyncStatus != null && asyncStatus == STREAMING ? new Writing()
          : new Nothing("the conversation does not hold the user message " + userMessageId);
    }
    Message answer = null;
    boolean unfinished = false;
    for (int i = at + 1; i < messages.size() && !"user".equals(messages.get(i).role()); i++) {
      Message m = messages.get(i);
      if ("assistant".equals(m.role()) && !m.finished()) {
        unfinished = true; // thoughts or an answer still in progress
      }
      if (m.answerText()) {
        answer = m;
      }
    }
    if (answer != null && answer.finished() && answer.endTurn()) {
      return new Answered(answer.id(), StreamTurn.withoutCitations(answer.text()), answer.modelSlug());
    }
    if (unfinished || (asyncStatus != null && asyncStatus == STREAMING)) {
      return new Writing();
    }
    return new Nothing("no finished answer follows the user message " + userMessageId);
  }

  private static String text(JsonNode n) {
    return n.isTextual() && !n.asText().isEmpty() ? n.asText() : null;
  }
}

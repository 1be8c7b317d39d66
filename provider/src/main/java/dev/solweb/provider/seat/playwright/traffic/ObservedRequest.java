package dev.solweb.provider.seat.playwright.traffic;

import com.fasterxml.jackson.databind.JsonNode;
import dev.solweb.provider.platform.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * What one of the page's own requests says about the turn it prepares or sends, decoded from its
 * JSON body (../shared/REAL-PAGE.md rows 17 and 31): the model and {@code thinking_effort} the page
 * will use, and for the turn itself the new user message id ({@code messages[0].id}), its parent,
 * the conversation and its mode (a project's {@code gizmo_interaction}). Pure: bytes in, facts
 * out. It reads no text: the prompt ({@code content}, {@code partial_query}), tokens and file
 * names are never part of it, whatever the body held.
 *
 * @param kind {@code /prepare} (typing, before Send) or the turn ({@code /f/conversation})
 * @param model the model slug the page names, or null
 * @param thinkingEffort the page's {@code thinking_effort}, or null when it sends none (Instant, Pro)
 * @param userMessageId the turn's new user message id (null for {@code /prepare}: its
 *     {@code partial_query.id} is NOT the final id)
 * @param parentMessageId the message the turn answers after, or null
 * @param conversationId the conversation a follow-up goes to; null for a new chat
 * @param gizmoId the project ({@code conversation_mode.gizmo_id}), or null
 * @param prepareState {@code client_prepare_state} ({@code none}, {@code sent}, {@code success}), or null
 * @param prepareDispatch {@code client_prepare_dispatch} ({@code debounced}, {@code immediate}), or null
 * @param temporary {@code history_and_training_disabled} (a temporary chat)
 * @param atMillis when the page sent it (page clock, epoch ms)
 * @param action {@code action}: {@code next} for a Send, {@code variant} for a regeneration (row 35), or null
 */
public record ObservedRequest(Kind kind, String model, String thinkingEffort, String userMessageId, String parentMessageId,
    String conversationId, String gizmoId, String prepareState, String prepareDispatch, boolean temporary, long atMillis,
    String action) {

  /** A turn request that regenerates the answer to an existing prompt: action {@code variant}, no new user message. */
  public boolean regeneration() {
    return kind == Kind.TURN && "variant".equals(action) && userMessageId == null;
  }

  /** The sibling the page posts while the user types. */
  public static final String PREPARE_PATH = "/backend-api/f/conversation/prepare";

  /** Which request it was. */
  public enum Kind { PREPARE, TURN }

  /**
   * Decodes the body of a request to {@code path}; empty when the body is not a JSON object (the
   * tap could not read it) or the path is neither {@code /prepare} nor a turn path.
   */
  public static Optional<ObservedRequest> decode(String path, byte[] body, long atMillis) {
    Kind kind = PREPARE_PATH.equals(path) ? Kind.PREPARE
        : StreamTap.TURN_PATHS.contains(path) && !path.endsWith("/resume") ? Kind.TURN : null;
    if (kind == null || body == null) {
      return Optional.empty();
    }
    JsonNode root;
    try {
      root = Json.MAPPER.readTree(body);
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
    if (root == null || !root.isObject()) {
      return Optional.empty();
    }
    JsonNode mode = root.path("conversation_mode");
    return Optional.of(new ObservedRequest(kind, text(root.path("model")), text(root.path("thinking_effort")),
        kind == Kind.TURN ? text(root.path("messages").path(0).path("id")) : null,
        text(root.path("parent_message_id")), text(root.path("conversation_id")),
        "gizmo_interaction".equals(text(mode.path("kind"))) ? text(mode.path("gizmo_id")) : null,
        text(root.path("client_prepare_state")), text(root.path("client_prepare_dispatch")),
        root.path("history_and_training_disabled").asBoolean(false) || root.path("is_do_not_remember").asBoolean(false),
        atMillis, text(root.path("action"))));
  }

  /** As {@link #decode(String, byte[], long)} for the tap's scrubbed JSON text. */
  static Optional<ObservedRequest> decode(StreamTap.Sent sent) {
    return sent.body() == null ? Optional.empty()
        : decode(sent.path(), sent.body().getBytes(StandardCharsets.UTF_8), sent.atMillis());
  }

  /** Whether it names a model or an effort at all (an older page's {@code /prepare} names neither). */
  public boolean namesEffort() {
    return model != null || thinkingEffort != null;
  }

  /** The effort fields as the page sends them, for a failure's wording: {@code model gpt-5-6-thinking, thinking_effort standard}. */
  public String effortWords() {
    return "model " + (model == null ? "(none)" : model)
        + ", thinking_effort " + (thinkingEffort == null ? "(none)" : thinkingEffort);
  }

  private static String text(JsonNode n) {
    return n.isTextual() && !n.asText().isBlank() ? n.asText() : null;
  }
}

package dev.solweb.provider.seat.playwright.traffic;

import java.util.List;

/**
 * What the page's conversation stream said, one decoded fact at a time
 * ({@link ConversationStreamDecoder}; shapes in ../shared/CHATGPT-STREAM.md). Secrets never
 * become events: a {@code resume_conversation_token} frame is dropped whole.
 */
public sealed interface StreamEvent {

  /** {@code event: delta_encoding} / {@code data: "v1"}: the body uses patch frames. */
  record Encoding(String name) implements StreamEvent {}

  /** The server conversation id, the first time a body names it (never a transient {@code WEB:} id). */
  record Conversation(String conversationId) implements StreamEvent {}

  /** {@code input_message}: the user message this stream answers, by the id the page made for it. */
  record InputMessage(String messageId) implements StreamEvent {}

  /**
   * A message appeared, or its shape, status or {@code end_turn} changed.
   *
   * @param fresh true the first time this body shows the message
   */
  record MessageSeen(String messageId, String role, String contentType, String channel, String recipient,
      String status, boolean endTurn, boolean fresh) implements StreamEvent {}

  /** Text added at the end of a message's {@code parts[0]}. */
  record TextAppended(String messageId, String text) implements StreamEvent {}

  /** A message's {@code parts[0]} changed other than by appending: this is its whole text now. */
  record TextReplaced(String messageId, String text) implements StreamEvent {}

  /**
   * The model behind a message ({@code metadata.model_slug} or {@code resolved_model_slug}) or the
   * turn ({@code server_ste_metadata}, messageId null), with any {@code model_adjustments}.
   */
  record ModelSeen(String messageId, String slug, List<String> adjustments) implements StreamEvent {}

  /** {@code message_marker}: {@code cot_token}, {@code user_visible_token}, {@code final_channel_token}, {@code last_token}. */
  record Marker(String marker, String messageId) implements StreamEvent {}

  /** A {@code reasoning_recap} ("Thought for 2s") with {@code finished_duration_sec} when given. */
  record ThinkingFinished(String messageId, Double seconds, String recap) implements StreamEvent {}

  /**
   * {@code conversation_detail_metadata}: what the account has left, as the page's own counters
   * say (REAL-PAGE row 50): {@code limits_progress}, {@code model_limits}, {@code blocked_features}
   * and {@code default_model_slug} (null when absent).
   */
  record Limits(List<Limit> progress, List<ModelLimit> modelLimits, List<String> blockedFeatures,
      String defaultModelSlug) implements StreamEvent {
    public Limits {
      progress = List.copyOf(progress);
      modelLimits = List.copyOf(modelLimits);
      blockedFeatures = List.copyOf(blockedFeatures);
    }
  }

  /** One {@code limits_progress} entry; {@code resetAfter} as the server wrote it (ISO time), or null. */
  record Limit(String feature, Integer remaining, String resetAfter) {}

  /** One {@code model_limits} entry: a model's remaining messages, and when it resets where the page says. */
  record ModelLimit(String modelSlug, Integer remaining, String resetAfter) {}

  /** {@code server_ste_metadata.plan_type}: the account's plan ({@code plus}, {@code pro}, ...). */
  record Plan(String planType) implements StreamEvent {}

  /** A frame's non-null {@code error}, or a frame of type {@code error}, with the page's error code when it names one (row 20). */
  record ErrorFrame(String message, String code) implements StreamEvent {
    public ErrorFrame(String message) {
      this(message, null);
    }
  }

  /**
   * {@code safety_review_update}: the server reviews the answer ({@code protection_type} bio,
   * cyber) while the model keeps working: a phase, not an end (REAL-PAGE row 19).
   */
  record SafetyReview(boolean active, String protectionType) implements StreamEvent {}

  /** {@code stream_handoff}: the answer continues elsewhere (a WebSocket topic or {@code /resume}). */
  record Handoff(List<HandoffOption> options) implements StreamEvent {}

  /** One handoff option: {@code subscribe_ws_topic} or {@code resume_sse_endpoint}, with its topic. */
  record HandoffOption(String type, String topicId) {}

  /** {@code moderation}: whether the server flagged or blocked the turn. */
  record Moderation(boolean flagged, boolean blocked) implements StreamEvent {}

  /** {@code title_generation}: the new chat's title. */
  record Title(String title) implements StreamEvent {}

  /** {@code message_stream_complete}: one of the two terminal frames. */
  record StreamComplete(String conversationId) implements StreamEvent {}

  /** {@code data: [DONE]}: the other terminal frame. */
  record Done() implements StreamEvent {}

  /** A typed frame the seat does not use (its type only), e.g. {@code safety_review_update}. */
  record Other(String type) implements StreamEvent {}

  /** Data that is not JSON or not a known shape; never fatal, reported so a drift is visible. */
  record Unreadable(String reason) implements StreamEvent {}
}

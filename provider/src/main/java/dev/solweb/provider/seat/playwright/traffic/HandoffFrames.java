package dev.solweb.provider.seat.playwright.traffic;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.solweb.provider.json.Json;
import java.util.HashSet;
import java.util.Set;

/**
 * Reads the WebSocket frames of a handed-off turn (../shared/CHATGPT-STREAM.md "Where the stream
 * goes elsewhere"): each frame wraps the same SSE text the POST body would have carried, at
 * {@code payload.payload.encoded_item}, a frame of type {@code done} ends the topic, and replays
 * repeat items, so an item already seen (by {@code stream_item_id}) is dropped. Pure; one instance
 * per turn.
 */
final class HandoffFrames {


  /** What one frame means for the turn. */
  sealed interface Item {}

  /** SSE text to feed the topic's decoder. */
  record Encoded(String topicId, String sseText) implements Item {}

  /** The topic ended. */
  record Finished(String topicId) implements Item {}

  /** Not a frame of a turn (presence, pings, other topics' bookkeeping) or a repeat. */
  record Ignored() implements Item {}

  private final Set<String> seen = new HashSet<>();

  Item read(String frame) {
    if (frame == null || frame.isBlank()) {
      return new Ignored();
    }
    JsonNode root;
    try {
      root = Json.MAPPER.readTree(frame);
    } catch (JsonProcessingException e) {
      return new Ignored();
    }
    JsonNode outer = root.path("payload");
    JsonNode inner = outer.path("payload");
    String topic = firstText(inner.path("topic_id"), outer.path("topic_id"), root.path("topic_id"));
    if ("done".equals(firstText(inner.path("type"), outer.path("type"), root.path("type")))) {
      return new Finished(topic);
    }
    JsonNode encoded = inner.path("encoded_item");
    if (!encoded.isTextual()) {
      return new Ignored();
    }
    String id = firstText(inner.path("stream_item_id"), outer.path("stream_item_id"), root.path("stream_item_id"));
    if (id != null && !seen.add(id)) {
      return new Ignored();
    }
    String text = encoded.asText();
    // An item is one SSE event; make sure it is dispatched even if the server left off the blank line.
    return new Encoded(topic, text.endsWith("\n\n") || text.endsWith("\r\n\r\n") ? text : text + "\n\n");
  }

  private static String firstText(JsonNode... nodes) {
    for (JsonNode n : nodes) {
      if (n.isTextual()) {
        return n.asText();
      }
    }
    return null;
  }
}

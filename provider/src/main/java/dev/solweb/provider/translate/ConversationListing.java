package dev.solweb.provider.translate;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.platform.Json;
import java.time.Instant;
import java.util.Collection;

/**
 * The one JSON view of the managed conversations ({@code GET /v1/conversations} and
 * {@code solwebctl conversations list --json}; docs/solwebctl.md): from the registry only, never
 * the sidebar, and never prompt text.
 */
public final class ConversationListing {

  private ConversationListing() {}

  /** What {@code list} calls a registry status: {@code ready} is {@code live}, in flight is {@code in_use}. */
  public static String status(Conversation c) {
    return switch (c.status()) {
      case READY -> "live";
      case IN_FLIGHT -> "in_use";
      case UNCERTAIN -> "uncertain";
      case CANCELLED -> "cancelled";
      case RETIRED -> "retired";
      case EXPIRED -> "expired";
      case DELETED -> "deleted";
    };
  }

  public static ObjectNode toJson(Collection<Conversation> conversations) {
    ObjectNode root = Json.MAPPER.createObjectNode();
    root.put("object", "list");
    ArrayNode data = root.putArray("data");
    for (Conversation c : conversations) {
      ObjectNode entry = data.addObject();
      entry.put("id", c.conversationId());
      entry.put("session", c.sessionKey());
      entry.put("url", c.url().isEmpty() ? null : c.url());
      entry.put("effort", c.effort().suffix());
      entry.put("turns", c.turns());
      entry.put("last_used", c.lastUsedEpochSecond());
      entry.put("last_used_at", Instant.ofEpochSecond(c.lastUsedEpochSecond()).toString());
      entry.put("status", status(c));
      entry.put("project", c.project());
      entry.put("temporary", c.temporary());
      if (c.status() == Conversation.Status.DELETED) {
        entry.put("deleted_at", c.deletedAtEpochSecond());
      }
      entry.put("estimated_input", c.estimatedInput());
      entry.put("estimated_output", c.estimatedOutput());
      entry.put("window", ContextBudget.CONTEXT_WINDOW);
      entry.put("occupancy", Math.round(1000.0 * (c.estimatedInput() + c.estimatedOutput()) / ContextBudget.CONTEXT_WINDOW) / 1000.0);
    }
    return root;
  }
}

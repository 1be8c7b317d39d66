package dev.solweb.provider.translate;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.platform.Json;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * A digest of a message history in canonical form ({@link #extend}), so the registry can
 * prove a request extends what was delivered without keeping any prompt text (a message's files
 * count by name, type and sha256, never their bytes). It is a hash
 * chain, one link per message, so extending a known digest by one message costs one link.
 */
final class HistoryDigest {
  private static final ObjectMapper JSON = Json.MAPPER;

  private HistoryDigest() {}

  /** The digest of the empty history. */
  public static final String EMPTY = "";

  public static String of(List<Message> messages) {
    String digest = EMPTY;
    for (Message message : messages) {
      digest = extend(digest, message);
    }
    return digest;
  }

  /** The digests of every prefix of {@code messages}: element {@code i} covers the first {@code i}. */
  public static List<String> prefixes(List<Message> messages) {
    List<String> digests = new ArrayList<>(messages.size() + 1);
    String digest = EMPTY;
    digests.add(digest);
    for (Message message : messages) {
      digest = extend(digest, message);
      digests.add(digest);
    }
    return List.copyOf(digests);
  }

  /**
   * The digest of a history of digest {@code digest} followed by {@code message}. What the client
   * owns counts whole (user text, tool results, files); system text and a final answer's text
   * count up to whitespace; an assistant message with tool calls counts by the calls' ids alone
   * (solwebd minted them, {@link Continuity}): its arguments and text are the client's echo of
   * solwebd's answer, however re-serialized.
   */
  public static String extend(String digest, Message message) {
    try {
      return SessionKey.sha256Hex(digest + "\n" + JSON.writeValueAsString(canonical(message)));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a JSON tree always serializes", e);
    }
  }

  /** The fields of {@code message} the digest covers, in the form it covers them ({@link #extend}). */
  static ObjectNode canonical(Message message) {
    ObjectNode node = JSON.createObjectNode();
    node.put("role", message.role().name());
    node.put("content", switch (message.role()) {
      case USER, TOOL -> message.content();
      case SYSTEM -> Continuity.canonicalText(message.content());
      case ASSISTANT -> message.toolCalls().isEmpty() ? Continuity.canonicalText(message.content()) : "";
    });
    node.put("tool_call_id", message.toolCallId());
    ArrayNode calls = node.putArray("tool_calls");
    for (Message.ToolCallRef call : message.toolCalls()) {
      ObjectNode entry = calls.addObject().put("id", call.id());
      if (!Continuity.minted(call.id())) {
        // A call solwebd did not answer (another model's, earlier in the client's session) is the client's own.
        entry.put("name", call.name()).set("arguments", sorted(call.arguments()));
      }
    }
    // Only a message with files says so: every digest recorded before files existed still matches.
    if (!message.attachments().isEmpty()) {
      ArrayNode files = node.putArray("files");
      message.attachments().forEach(file -> files.addObject().put("name", file.name()).put("media_type", file.mediaType())
          .put("sha256", file.sha256()));
    }
    return node;
  }

  private static JsonNode sorted(JsonNode node) {
    if (node.isObject()) {
      List<Map.Entry<String, JsonNode>> fields = new ArrayList<>();
      for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
        fields.add(it.next());
      }
      fields.sort(Map.Entry.comparingByKey());
      ObjectNode out = JSON.createObjectNode();
      fields.forEach(field -> out.set(field.getKey(), sorted(field.getValue())));
      return out;
    }
    if (node.isArray()) {
      ArrayNode out = JSON.createArrayNode();
      node.forEach(item -> out.add(sorted(item)));
      return out;
    }
    return node;
  }
}

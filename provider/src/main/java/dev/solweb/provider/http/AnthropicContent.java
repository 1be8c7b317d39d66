package dev.solweb.provider.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.solweb.provider.translate.BadRequest;
import java.util.ArrayList;
import java.util.List;

/**
 * Anthropic content blocks, read in this one place for every part of a Messages request that
 * holds them ({@code system}, a message's {@code content}, a {@code tool_result}'s
 * {@code content}): a string or an array of typed blocks, {@code cache_control} and
 * {@code citations} ignored.
 *
 * <p>{@code thinking} and {@code redacted_thinking} blocks (a client replaying its own reasoning)
 * are skipped: the page thinks for itself. An {@code image} or {@code document} block, in a
 * message or in a tool result, is a {@link Media} block: a file the seat uploads, decoded and
 * checked by the same {@code AttachmentDecoder} as on the other wires (a URL or file-id source is
 * its typed 400), never dropped. Anything else (server tools, search results) is a typed 400
 * naming it.
 */
final class AnthropicContent {

  /** One block this provider understands. */
  sealed interface Block permits Text, ToolUse, ToolResult, Media {}

  record Text(String text) implements Block {}

  record ToolUse(String id, String name, JsonNode input) implements Block {}

  /** A tool's result: its text blocks joined, and its image or document blocks as {@link Media}. */
  record ToolResult(String toolUseId, String content, boolean isError, List<Media> media) implements Block {}

  /** An {@code image} or {@code document} block, whole, and where it stood in the request. */
  record Media(String where, JsonNode block) implements Block {}

  private AnthropicContent() {}

  /** {@code system}: absent, a string or text blocks, joined by newlines. */
  static String system(JsonNode system) throws BadRequest {
    if (system == null || system.isNull()) {
      return "";
    }
    List<String> texts = new ArrayList<>();
    for (Block block : blocks(system, "system")) {
      if (!(block instanceof Text text)) {
        throw BadRequest.invalid("system may hold only text blocks");
      }
      texts.add(text.text());
    }
    return String.join("\n", texts);
  }

  /** A message's content: a string is one text block; thinking blocks are skipped. */
  static List<Block> blocks(JsonNode content, String where) throws BadRequest {
    if (content == null || content.isNull()) {
      throw BadRequest.invalid(where + " is required: a string or an array of content blocks");
    }
    if (content.isTextual()) {
      return List.of(new Text(content.asText()));
    }
    if (!content.isArray()) {
      throw BadRequest.invalid(where + " must be a string or an array of content blocks");
    }
    List<Block> blocks = new ArrayList<>();
    for (int i = 0; i < content.size(); i++) {
      JsonNode block = content.get(i);
      String at = where + "[" + i + "]";
      if (block == null || !block.isObject()) {
        throw BadRequest.invalid(at + " must be an object with a type");
      }
      String type = block.path("type").asText("");
      switch (type) {
        case "text" -> blocks.add(new Text(string(block, "text", at)));
        case "tool_use" -> blocks.add(new ToolUse(string(block, "id", at), string(block, "name", at), input(block, at)));
        case "tool_result" -> blocks.add(result(block, at));
        case "thinking", "redacted_thinking" -> { }
        case "image", "document" -> blocks.add(new Media(at, block));
        default -> throw BadRequest.invalid(at + " has type '" + type
            + "'; supported: text, tool_use, tool_result, thinking and redacted_thinking (ignored)");
      }
    }
    return List.copyOf(blocks);
  }

  /** A tool result: absent content, a string, or text, image and document blocks. */
  private static ToolResult result(JsonNode block, String at) throws BadRequest {
    String id = string(block, "tool_use_id", at);
    boolean isError = isError(block, at);
    JsonNode content = block.get("content");
    String where = at + ".content";
    if (content == null || content.isNull()) {
      return new ToolResult(id, "", isError, List.of());
    }
    if (content.isTextual()) {
      return new ToolResult(id, content.asText(), isError, List.of());
    }
    if (!content.isArray()) {
      throw BadRequest.invalid(where + " must be a string or an array of content blocks");
    }
    List<String> texts = new ArrayList<>();
    List<Media> media = new ArrayList<>();
    for (int i = 0; i < content.size(); i++) {
      JsonNode part = content.get(i);
      String type = part.path("type").asText("");
      switch (type) {
        case "text" -> texts.add(string(part, "text", where + "[" + i + "]"));
        case "image", "document" -> media.add(new Media(where + "[" + i + "]", part));
        default -> throw BadRequest.invalid(where + "[" + i + "] has type '" + type
            + "'; a tool result holds text, image and document blocks");
      }
    }
    return new ToolResult(id, String.join("\n", texts), isError, List.copyOf(media));
  }

  private static boolean isError(JsonNode block, String where) throws BadRequest {
    JsonNode value = block.get("is_error");
    if (value == null || value.isNull()) {
      return false;
    }
    if (!value.isBoolean()) {
      throw BadRequest.invalid(where + ".is_error must be a boolean");
    }
    return value.asBoolean();
  }

  private static JsonNode input(JsonNode block, String where) throws BadRequest {
    JsonNode input = block.get("input");
    if (input == null || input.isNull()) {
      return JsonNodeFactory.instance.objectNode();
    }
    if (!input.isObject()) {
      throw BadRequest.invalid(where + ".input must be a JSON object");
    }
    return input;
  }

  private static String string(JsonNode block, String field, String where) throws BadRequest {
    JsonNode value = block.get(field);
    if (value == null || !value.isTextual()) {
      throw BadRequest.invalid(where + "." + field + " must be a string");
    }
    return value.asText();
  }
}

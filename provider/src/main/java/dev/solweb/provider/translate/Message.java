package dev.solweb.provider.translate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.solweb.provider.model.Attachment;
import dev.solweb.provider.platform.Json;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One chat message in normalized semantic form, so that a client re-serializing its history
 * (string vs text-part arrays, {@code null} vs {@code ""}, argument key order, {@code developer}
 * vs {@code system}, extra keys such as {@code cache_control}) compares equal to what was sent.
 * Record equality is the semantic comparison; files compare by name, type and sha256 (a re-sent
 * history decodes the same file into new bytes).
 *
 * @param attachments the files a user message or a tool result carried ({@link MessageParts}),
 *     in the order sent; empty for every other message
 */
public record Message(Role role, String content, List<ToolCallRef> toolCalls, String toolCallId,
    List<Attachment> attachments) {

  public enum Role { SYSTEM, USER, ASSISTANT, TOOL }

  /**
   * A tool call an assistant message carries; arguments compared as parsed JSON, numbers by value:
   * JavaScript clients (Pi, ccr) replay {@code 120.0} as {@code 120} and {@code 1.5e3} as {@code 1500}.
   */
  public record ToolCallRef(String id, String name, JsonNode arguments) {
    public ToolCallRef {
      arguments = numbersByValue(arguments);
    }
  }

  private static final ObjectMapper JSON = Json.MAPPER;

  public Message {
    Objects.requireNonNull(role, "role");
    content = content == null ? "" : content;
    toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
    toolCallId = toolCallId == null ? "" : toolCallId;
    attachments = attachments == null ? List.of() : List.copyOf(attachments);
  }

  /** A message without files. */
  public Message(Role role, String content, List<ToolCallRef> toolCalls, String toolCallId) {
    this(role, content, toolCalls, toolCallId, List.of());
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Message that && role == that.role && content.equals(that.content)
        && toolCalls.equals(that.toolCalls) && toolCallId.equals(that.toolCallId)
        && fileKeys(attachments).equals(fileKeys(that.attachments));
  }

  @Override
  public int hashCode() {
    return Objects.hash(role, content, toolCalls, toolCallId, fileKeys(attachments));
  }

  private static List<List<String>> fileKeys(List<Attachment> files) {
    return files.stream().map(file -> List.of(file.name(), file.mediaType(), file.sha256())).toList();
  }

  public static Message user(String text) {
    return new Message(Role.USER, text, List.of(), null);
  }

  public static Message system(String text) {
    return new Message(Role.SYSTEM, text, List.of(), null);
  }

  /** {@link #fromJson(JsonNode, int, AttachmentDecoder)} with the default file limits. */
  public static Message fromJson(JsonNode node, int index) throws BadRequest {
    return fromJson(node, index, AttachmentDecoder.defaults());
  }

  /**
   * Normalizes one OpenAI chat message: text parts, and on a user or tool message {@code image_url}
   * (a data URL) and {@code file} ({@code file_data}, {@code filename}) parts decoded by
   * {@code files}.
   *
   * @throws BadRequest for a message that is not an object, an unknown role, a file the decoder
   *     refuses or on a message that cannot carry one, other content, or malformed tool calls
   */
  public static Message fromJson(JsonNode node, int index, AttachmentDecoder files) throws BadRequest {
    if (node == null || !node.isObject()) {
      throw BadRequest.invalid("messages[" + index + "] must be an object");
    }
    JsonNode roleNode = node.get("role");
    if (roleNode == null || !roleNode.isTextual()) {
      throw BadRequest.invalid("messages[" + index + "].role must be a string");
    }
    Role role = switch (roleNode.asText()) {
      case "system", "developer" -> Role.SYSTEM;
      case "user" -> Role.USER;
      case "assistant" -> Role.ASSISTANT;
      case "tool" -> Role.TOOL;
      default -> throw BadRequest.invalid(
          "messages[" + index + "].role must be system|developer|user|assistant|tool, got: " + roleNode.asText());
    };
    MessageParts parts = content(node.get("content"), index, role, files);
    List<ToolCallRef> calls = role == Role.ASSISTANT ? toolCalls(node.get("tool_calls"), index) : List.of();
    JsonNode contentNode = node.get("content");
    if (contentNode != null && contentNode.isArray() && contentNode.isEmpty() && calls.isEmpty()) {
      // An empty part list says nothing; only an assistant's tool-call message may have no text.
      throw BadRequest.invalid("messages[" + index + "].content is an empty array; send a string or at least one text part");
    }
    String toolCallId = null;
    if (role == Role.TOOL) {
      JsonNode id = node.get("tool_call_id");
      if (id == null || !id.isTextual()) {
        throw BadRequest.invalid("messages[" + index + "].tool_call_id must be a string on a tool message");
      }
      toolCallId = id.asText();
    }
    return parts.message(role, calls, toolCallId);
  }

  private static MessageParts content(JsonNode content, int index, Role role, AttachmentDecoder files)
      throws BadRequest {
    String where = "messages[" + index + "]";
    MessageParts parts = files.parts(where);
    if (content == null || content.isNull()) {
      return parts;
    }
    if (content.isTextual()) {
      return parts.text(content.asText());
    }
    if (!content.isArray()) {
      throw BadRequest.invalid(where + ".content must be a string, null or an array of parts");
    }
    boolean filesAllowed = role == Role.USER || role == Role.TOOL;
    for (int i = 0; i < content.size(); i++) {
      JsonNode part = content.get(i);
      String type = part.path("type").asText("");
      String at = where + ".content[" + i + "]";
      if (!type.equals("text") && (type.equals("image_url") || type.equals("file")) && !filesAllowed) {
        throw BadRequest.invalid(at + " is a " + type + " part on a " + role.name().toLowerCase(java.util.Locale.ROOT)
            + " message; files go in user messages (or tool results)");
      }
      switch (type) {
        case "text" -> {
          JsonNode partText = part.get("text");
          if (partText == null || !partText.isTextual()) {
            throw BadRequest.invalid(where + ".content text part needs a string 'text'");
          }
          parts.text(partText.asText());
        }
        case "image_url" -> {
          JsonNode image = part.get("image_url");
          JsonNode url = image != null && image.isObject() ? image.get("url") : image;
          parts.image(at, url != null && url.isTextual() ? url.asText() : null);
        }
        case "file" -> {
          JsonNode file = part.path("file");
          if (file.hasNonNull("file_id") && !file.hasNonNull("file_data")) {
            throw new BadRequest(400, "invalid_attachment", at + " names file_id " + file.get("file_id").asText()
                + "; solwebd keeps no uploaded files: send the bytes as file_data (a base64 data URL)");
          }
          parts.file(at, file.path("file_data").asText(null), file.path("filename").asText(null));
        }
        default -> throw BadRequest.invalid(where + ".content part of type '" + type
            + "' is not supported (text, image_url, file)");
      }
    }
    return parts;
  }

  private static List<ToolCallRef> toolCalls(JsonNode calls, int index) throws BadRequest {
    if (calls == null || calls.isNull()) {
      return List.of();
    }
    if (!calls.isArray()) {
      throw BadRequest.invalid("messages[" + index + "].tool_calls must be an array");
    }
    List<ToolCallRef> refs = new ArrayList<>();
    for (JsonNode call : calls) {
      JsonNode function = call.path("function");
      JsonNode name = function.get("name");
      if (name == null || !name.isTextual()) {
        throw BadRequest.invalid("messages[" + index + "].tool_calls[].function.name must be a string");
      }
      refs.add(new ToolCallRef(call.path("id").asText(""), name.asText(), parseArguments(function.get("arguments"))));
    }
    return refs;
  }

  /** {@code node} with every finite number in one canonical form: an integer, else a stripped decimal. */
  private static JsonNode numbersByValue(JsonNode node) {
    if (node == null) {
      return null;
    }
    if (node.isNumber()) {
      if ((node.isDouble() || node.isFloat()) && !Double.isFinite(node.doubleValue())) {
        return node;
      }
      BigDecimal value = node.decimalValue().stripTrailingZeros();
      return value.scale() <= 0 ? BigIntegerNode.valueOf(value.toBigIntegerExact()) : DecimalNode.valueOf(value);
    }
    if (node.isObject()) {
      ObjectNode out = JSON.createObjectNode();
      node.fields().forEachRemaining(field -> out.set(field.getKey(), numbersByValue(field.getValue())));
      return out;
    }
    if (node.isArray()) {
      ArrayNode out = JSON.createArrayNode();
      node.forEach(item -> out.add(numbersByValue(item)));
      return out;
    }
    return node;
  }

  /**
   * Arguments arrive as a JSON string; compare them parsed so key order and spacing do not matter.
   * Absent is an empty object; a string that is not JSON stays a string.
   */
  public static JsonNode parseArguments(JsonNode arguments) {
    if (arguments == null || arguments.isNull()) {
      return JSON.createObjectNode();
    }
    if (!arguments.isTextual()) {
      return arguments;
    }
    try {
      JsonNode parsed = JSON.readTree(arguments.asText());
      return parsed == null ? TextNode.valueOf(arguments.asText()) : parsed;
    } catch (java.io.IOException e) {
      return TextNode.valueOf(arguments.asText());
    }
  }
}

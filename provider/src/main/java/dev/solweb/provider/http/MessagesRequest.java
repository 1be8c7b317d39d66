package dev.solweb.provider.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.protocol.ReplyRules;
import dev.solweb.provider.protocol.ToolSpec;
import dev.solweb.provider.translate.AttachmentDecoder;
import dev.solweb.provider.translate.BadRequest;
import dev.solweb.provider.translate.MessageParts;
import dev.solweb.provider.translate.ChatInput;
import dev.solweb.provider.translate.ContextBudget;
import dev.solweb.provider.translate.Message;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A validated {@code POST /v1/messages} (or {@code /v1/messages/count_tokens}) body, turned into
 * the same wire-neutral {@link ChatInput} the other wires build: the one adapter between
 * Anthropic's Messages API and translate.
 *
 * <p>{@code system} is the system message, and so is a message of role {@code system} in the
 * history (Claude Code 2.1.332 sends its environment block so, after the first user message); a user message's {@code tool_result} blocks are tool
 * messages and its text blocks one user message, in block order; an assistant message's text
 * blocks are its content and its {@code tool_use} blocks its calls (blocks themselves:
 * {@link AnthropicContent}). Tools are custom tools ({@code name}, {@code description},
 * {@code input_schema}); Anthropic-defined and server tools (any other {@code type}) are not
 * offered and listed in {@link #notOffered}. {@code tool_choice}'s
 * {@code disable_parallel_tool_use} asks for one call per reply. {@code max_tokens},
 * {@code stop_sequences}, {@code metadata}, {@code temperature} and {@code thinking} are checked
 * for shape and otherwise unused: the page decides how long to write and how hard to think (the
 * effort is in the model id), and {@link #thinking} says a thinking budget was asked for.
 */
record MessagesRequest(String model, ChatInput input, boolean stream, List<String> notOffered, boolean thinking) {

  MessagesRequest {
    Objects.requireNonNull(model, "model");
    notOffered = List.copyOf(notOffered);
  }

  /**
   * Parses and validates one body.
   *
   * @throws BadRequest a typed 400 naming the offending field
   */
  static MessagesRequest parse(String body, AttachmentDecoder files) throws BadRequest {
    ObjectNode root = object(body);
    String model = model(root);
    Effort effort = Effort.fromModelId(model).orElseThrow(() -> unknownModel(model));
    List<String> notOffered = new ArrayList<>();
    List<ToolSpec> tools = tools(root.get("tools"), notOffered);

    List<Message> messages = new ArrayList<>();
    String system = AnthropicContent.system(root.get("system"));
    if (!system.isEmpty()) {
      messages.add(Message.system(system));
    }
    JsonNode list = root.get("messages");
    if (list == null || !list.isArray() || list.isEmpty()) {
      throw BadRequest.invalid("messages is required: a non-empty array of {role, content}");
    }
    for (int i = 0; i < list.size(); i++) {
      message(list.get(i), "messages[" + i + "]", messages, files);
    }
    checkShapes(root);
    boolean parallel = !toolChoice(root.get("tool_choice"));
    JsonNode thinking = root.get("thinking");
    if (thinking != null && !thinking.isNull() && !thinking.isObject()) {
      throw BadRequest.invalid("thinking must be an object");
    }
    boolean wantsThinking = thinking != null && thinking.isObject() && !thinking.path("type").asText("").equals("disabled");
    return new MessagesRequest(model, ChatInput.of(effort, messages, tools, Optional.empty(), parallel),
        ChatRequest.bool(root, "stream"), notOffered, wantsThinking);
  }

  /**
   * The context budget's estimate of this request typed whole into a fresh conversation
   * ({@link ContextBudget#estimateFresh}): what {@code count_tokens} answers.
   */
  long estimatedInputTokens() {
    return ContextBudget.estimateFresh(input,
        ReplyRules.of(input.tools(), input.parallelToolCalls(), ReplyRules.DEFAULT_MAX_CALLS));
  }

  static BadRequest unknownModel(String model) {
    return new BadRequest(404, "not_found_error", "model: " + model + " is not served here; the effort lives in"
        + " the model id: one of " + String.join(", ", Effort.modelIds()));
  }

  private static ObjectNode object(String body) throws BadRequest {
    if (body == null || body.isBlank()) {
      throw BadRequest.invalid("the request body is empty; send a JSON object {model, max_tokens, messages, ...}");
    }
    return ResponsesRequest.object(body);
  }

  private static String model(ObjectNode root) throws BadRequest {
    JsonNode model = root.get("model");
    if (model == null || !model.isTextual() || model.asText().isEmpty()) {
      throw BadRequest.invalid("model is required: one of " + String.join(", ", Effort.modelIds()));
    }
    return model.asText();
  }

  private static void message(JsonNode node, String where, List<Message> messages, AttachmentDecoder files)
      throws BadRequest {
    if (node == null || !node.isObject()) {
      throw BadRequest.invalid(where + " must be an object {role, content}");
    }
    String role = node.path("role").asText("");
    List<AnthropicContent.Block> blocks = AnthropicContent.blocks(node.get("content"), where + ".content");
    switch (role) {
      case "user" -> user(blocks, where, messages, files);
      case "assistant" -> messages.add(assistant(blocks, where));
      case "system" -> messages.add(Message.system(text(blocks, where)));
      default -> throw BadRequest.invalid(where + ".role must be user, assistant or system, got: '" + role + "'");
    }
  }

  /** A system message in the history (Claude Code sends its environment so): its text blocks. */
  private static String text(List<AnthropicContent.Block> blocks, String where) throws BadRequest {
    List<String> text = new ArrayList<>();
    for (AnthropicContent.Block block : blocks) {
      if (!(block instanceof AnthropicContent.Text t)) {
        throw BadRequest.invalid(where + " is a system message; it may hold only text blocks");
      }
      text.add(t.text());
    }
    return String.join("\n", text);
  }

  /**
   * Tool results become tool messages (their images and documents attached to them) and runs of
   * text and files one user message, in block order.
   */
  private static void user(List<AnthropicContent.Block> blocks, String where, List<Message> messages,
      AttachmentDecoder files) throws BadRequest {
    MessageParts parts = files.parts(where);
    for (AnthropicContent.Block block : blocks) {
      if (block instanceof AnthropicContent.Text t) {
        parts.text(t.text());
      } else if (block instanceof AnthropicContent.Media media) {
        parts.anthropic(media.where(), media.block());
      } else if (block instanceof AnthropicContent.ToolResult result) {
        parts = flushUser(parts, files, where, messages);
        MessageParts output = files.parts(where);
        output.text(result.isError() ? "[the tool reported an error]\n" + result.content() : result.content());
        for (AnthropicContent.Media media : result.media()) {
          output.anthropic(media.where(), media.block());
        }
        messages.add(output.message(Message.Role.TOOL, List.of(), result.toolUseId()));
      } else if (block instanceof AnthropicContent.ToolUse use) {
        throw BadRequest.invalid(where + " is a user message with a tool_use block (" + use.name()
            + "); tool calls belong to assistant messages");
      }
    }
    flushUser(parts, files, where, messages);
  }

  private static MessageParts flushUser(MessageParts parts, AttachmentDecoder files, String where, List<Message> messages) {
    if (!parts.isEmpty()) {
      messages.add(parts.message(Message.Role.USER, List.of(), null));
      return files.parts(where);
    }
    return parts;
  }

  private static Message assistant(List<AnthropicContent.Block> blocks, String where) throws BadRequest {
    List<String> text = new ArrayList<>();
    List<Message.ToolCallRef> calls = new ArrayList<>();
    for (AnthropicContent.Block block : blocks) {
      if (block instanceof AnthropicContent.Text t) {
        if (!t.text().isEmpty()) {
          text.add(t.text());
        }
      } else if (block instanceof AnthropicContent.ToolUse use) {
        calls.add(new Message.ToolCallRef(use.id(), use.name(), use.input()));
      } else if (block instanceof AnthropicContent.ToolResult result) {
        throw BadRequest.invalid(where + " is an assistant message with a tool_result block (" + result.toolUseId()
            + "); tool results belong to user messages");
      } else if (block instanceof AnthropicContent.Media media) {
        throw BadRequest.invalid(media.where() + " is an " + media.block().path("type").asText()
            + " block in an assistant message; files belong to user messages");
      }
    }
    return new Message(Message.Role.ASSISTANT, String.join("\n", text), calls, null);
  }

  private static List<ToolSpec> tools(JsonNode tools, List<String> notOffered) throws BadRequest {
    if (tools == null || tools.isNull()) {
      return List.of();
    }
    if (!tools.isArray()) {
      throw BadRequest.invalid("tools must be an array");
    }
    List<ToolSpec> specs = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (int i = 0; i < tools.size(); i++) {
      JsonNode tool = tools.get(i);
      String where = "tools[" + i + "]";
      if (tool == null || !tool.isObject()) {
        throw BadRequest.invalid(where + " must be an object {name, description, input_schema}");
      }
      String type = tool.path("type").asText("custom");
      JsonNode name = tool.get("name");
      if (!type.equals("custom")) {
        notOffered.add(name != null && name.isTextual() ? name.asText() + " (" + type + ")" : type);
        continue;
      }
      if (name == null || !name.isTextual() || name.asText().isBlank()) {
        throw BadRequest.invalid(where + ".name must be a non-empty string");
      }
      if (name.asText().equals("final")) {
        throw BadRequest.invalid(where + " is named 'final', which the reply protocol reserves");
      }
      if (!names.add(name.asText())) {
        throw BadRequest.invalid(where + ".name '" + name.asText() + "' is listed twice");
      }
      JsonNode schema = tool.get("input_schema");
      if (schema != null && !schema.isNull() && !schema.isObject()) {
        throw BadRequest.invalid(where + ".input_schema must be a JSON Schema object");
      }
      specs.add(new ToolSpec(name.asText(), tool.path("description").asText(""),
          schema == null || schema.isNull() ? JsonNodeFactory.instance.objectNode() : schema));
    }
    return List.copyOf(specs);
  }

  /**
   * {@code tool_choice}: {@code auto}, {@code any}, {@code tool} or {@code none}; the page picks
   * its own tool either way, so only {@code disable_parallel_tool_use} is used.
   *
   * @return whether one call per reply is asked for
   */
  private static boolean toolChoice(JsonNode choice) throws BadRequest {
    if (choice == null || choice.isNull()) {
      return false;
    }
    String type = choice.path("type").asText("");
    if (!choice.isObject() || !Set.of("auto", "any", "tool", "none").contains(type)) {
      throw BadRequest.invalid("tool_choice must be an object whose type is auto, any, tool or none");
    }
    if (type.equals("tool") && !choice.path("name").isTextual()) {
      throw BadRequest.invalid("tool_choice of type tool needs the tool's name");
    }
    return ChatRequest.bool(choice, "disable_parallel_tool_use");
  }

  /** Fields that are read by nobody but still must have their documented shape. */
  private static void checkShapes(ObjectNode root) throws BadRequest {
    JsonNode maxTokens = root.get("max_tokens");
    if (maxTokens != null && !maxTokens.isNull() && (!maxTokens.canConvertToLong() || !maxTokens.isIntegralNumber()
        || maxTokens.asLong() < 1)) {
      throw BadRequest.invalid("max_tokens must be a positive integer");
    }
    JsonNode stops = root.get("stop_sequences");
    if (stops != null && !stops.isNull()) {
      if (!stops.isArray()) {
        throw BadRequest.invalid("stop_sequences must be an array of strings");
      }
      for (JsonNode stop : stops) {
        if (!stop.isTextual()) {
          throw BadRequest.invalid("stop_sequences must be an array of strings");
        }
      }
    }
    JsonNode metadata = root.get("metadata");
    if (metadata != null && !metadata.isNull() && !metadata.isObject()) {
      throw BadRequest.invalid("metadata must be an object");
    }
  }
}

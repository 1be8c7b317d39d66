package dev.solweb.provider.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.protocol.ToolSpec;
import dev.solweb.provider.translate.AttachmentDecoder;
import dev.solweb.provider.translate.BadRequest;
import dev.solweb.provider.translate.ChatInput;
import dev.solweb.provider.translate.Message;
import dev.solweb.provider.translate.MessageParts;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A validated {@code POST /v1/responses} body, turned into the same wire-neutral {@link ChatInput}
 * the chat route builds: the one adapter between the Responses wire and translate.
 *
 * <p>Stateless: {@code previous_response_id}, {@code conversation}, {@code background},
 * {@code store: true} and {@code item_reference} inputs need server-side state and are refused
 * with a typed 400 that says so. Input items map to normalized messages: {@code instructions}
 * and {@code developer}/{@code system} messages are system text, {@code function_call} items join
 * the assistant message before them (as chat's {@code tool_calls} do), {@code function_call_output}
 * items are tool results, {@code reasoning} items are dropped. Tools of type {@code function} are
 * offered under their names, a {@code namespace}'s functions as {@code <namespace>.<name>} (a
 * function name cannot hold a dot, so the two never collide), mapped back by {@link #toolNames};
 * anything else (hosted tools such as {@code web_search}) is not offered and listed in
 * {@link #notOffered}.
 *
 * @param sessionSource where the session identity came from ({@code session-id} header or
 *     {@code prompt_cache_key}), or empty; never the value itself
 */
record ResponsesRequest(
    String model, ChatInput input, boolean stream, Map<String, ToolName> toolNames, List<String> notOffered,
    Optional<String> sessionSource) {

  static final String SESSION_HEADER = "session-id";
  // Codex sends a UUID; anything printable and short is accepted, never echoed.
  private static final Pattern SESSION = Pattern.compile("^[A-Za-z0-9._:-]{1,128}$");
  private static final ObjectMapper JSON = ChatRequest.JSON;

  /** A client tool as the client named it: {@code namespace} is null for a plain function. */
  record ToolName(String namespace, String name) {
    String offered() {
      return namespace == null ? name : namespace + "." + name;
    }
  }

  ResponsesRequest {
    toolNames = Map.copyOf(toolNames);
    notOffered = List.copyOf(notOffered);
  }

  /**
   * Parses and validates one body.
   *
   * @param sessionHeaders every {@code session-id} header value the request carried
   * @throws BadRequest a typed 4xx naming the offending field
   */
  static ResponsesRequest parse(String body, List<String> sessionHeaders) throws BadRequest {
    return parse(body, sessionHeaders, AttachmentDecoder.defaults());
  }

  /**
   * As {@link #parse(String, List)}; {@code input_image} and {@code input_file} parts (in user
   * messages and tool outputs) are decoded and checked by {@code files}.
   */
  static ResponsesRequest parse(String body, List<String> sessionHeaders, AttachmentDecoder files) throws BadRequest {
    ObjectNode root = object(body);
    refuseState(root);
    String model = text(root, "model", "model is required: one of " + String.join(", ", Effort.modelIds()));
    Effort effort = Effort.fromModelId(model).orElseThrow(() -> new BadRequest(400, "model_not_found",
        "unknown model " + model + "; the effort lives in the model id: one of " + String.join(", ", Effort.modelIds())));

    Map<String, ToolName> names = new LinkedHashMap<>();
    List<String> notOffered = new ArrayList<>();
    List<ToolSpec> tools = tools(root.get("tools"), names, notOffered);

    List<Message> messages = new ArrayList<>();
    JsonNode instructions = root.get("instructions");
    if (instructions != null && !instructions.isNull()) {
      if (!instructions.isTextual()) {
        throw BadRequest.invalid("instructions must be a string");
      }
      if (!instructions.asText().isEmpty()) {
        messages.add(Message.system(instructions.asText()));
      }
    }
    input(root.get("input"), names, messages, files);
    if (messages.stream().noneMatch(m -> m.role() != Message.Role.SYSTEM)) {
      throw BadRequest.invalid("input must hold at least one user message, assistant message or tool output");
    }

    Optional<String> session = session(sessionHeaders, root.get("prompt_cache_key"));
    Optional<String> source = session.map(s -> sessionHeaders.isEmpty() ? "prompt_cache_key" : SESSION_HEADER);
    // A prefix keeps a Responses session from ever sharing a key with a chat client-session value.
    Optional<String> clientSession = session.map(s -> "responses:" + s);
    boolean stream = ChatRequest.bool(root, "stream");
    return new ResponsesRequest(model,
        ChatInput.of(effort, messages, tools, clientSession, ChatRequest.parallelToolCalls(root)), stream, names,
        notOffered, source);
  }

  /** The body as a JSON object, or a typed 400 (every JSON wire but chat reads its body so). */
  static ObjectNode object(String body) throws BadRequest {
    JsonNode root;
    try {
      root = JSON.readTree(body);
    } catch (IOException e) {
      throw BadRequest.invalid("the request body is not valid JSON: " + ChatRequest.firstLine(e.getMessage()));
    }
    if (root == null || !root.isObject()) {
      throw BadRequest.invalid("the request body must be a JSON object");
    }
    return (ObjectNode) root;
  }

  private static void refuseState(ObjectNode root) throws BadRequest {
    for (String field : List.of("previous_response_id", "conversation")) {
      JsonNode value = root.get(field);
      if (value != null && !value.isNull()) {
        throw stateful(field + " needs server-side state; send the whole input every request instead");
      }
    }
    if (root.path("store").asBoolean(false)) {
      throw stateful("store: true asks the server to keep the response for later retrieval; send store: false");
    }
    if (root.path("background").asBoolean(false)) {
      throw stateful("background: true needs a stored response to poll; stream instead");
    }
  }

  private static BadRequest stateful(String message) {
    return new BadRequest(400, "stateful_request_unsupported", "solwebd's Responses API is stateless: " + message);
  }

  private static List<ToolSpec> tools(JsonNode tools, Map<String, ToolName> names, List<String> notOffered)
      throws BadRequest {
    if (tools == null || tools.isNull()) {
      return List.of();
    }
    if (!tools.isArray()) {
      throw BadRequest.invalid("tools must be an array");
    }
    List<ToolSpec> specs = new ArrayList<>();
    for (int i = 0; i < tools.size(); i++) {
      JsonNode tool = tools.get(i);
      String type = tool.path("type").asText("");
      String where = "tools[" + i + "]";
      switch (type) {
        case "function" -> specs.add(function(tool, null, where, names));
        case "namespace" -> {
          String namespace = name(tool, where);
          JsonNode members = tool.get("tools");
          if (members == null || !members.isArray()) {
            throw BadRequest.invalid(where + ".tools must be an array of functions");
          }
          for (int j = 0; j < members.size(); j++) {
            JsonNode member = members.get(j);
            String memberWhere = where + ".tools[" + j + "]";
            if (!member.path("type").asText("function").equals("function")) {
              notOffered.add(namespace + "." + member.path("name").asText(member.path("type").asText("?")));
              continue;
            }
            specs.add(function(member, namespace, memberWhere, names));
          }
        }
        default -> notOffered.add(type.isEmpty() ? where : type);
      }
    }
    return List.copyOf(specs);
  }

  private static ToolSpec function(JsonNode tool, String namespace, String where, Map<String, ToolName> names)
      throws BadRequest {
    String name = name(tool, where);
    if (namespace == null && name.equals("final")) {
      throw BadRequest.invalid(where + " is named 'final', which the reply protocol reserves");
    }
    ToolName toolName = new ToolName(namespace, name);
    if (names.putIfAbsent(toolName.offered(), toolName) != null) {
      throw BadRequest.invalid(where + " '" + toolName.offered() + "' is listed twice");
    }
    JsonNode parameters = tool.get("parameters");
    return new ToolSpec(toolName.offered(), tool.path("description").asText(""),
        parameters == null || parameters.isNull() ? JsonNodeFactory.instance.objectNode() : parameters);
  }

  private static String name(JsonNode tool, String where) throws BadRequest {
    JsonNode name = tool.get("name");
    if (name == null || !name.isTextual() || name.asText().isBlank()) {
      throw BadRequest.invalid(where + ".name must be a non-empty string");
    }
    if (name.asText().contains(".")) {
      throw BadRequest.invalid(where + ".name '" + name.asText() + "' must not contain a dot");
    }
    return name.asText();
  }

  private static void input(JsonNode input, Map<String, ToolName> names, List<Message> messages,
      AttachmentDecoder files) throws BadRequest {
    if (input == null || input.isNull()) {
      throw BadRequest.invalid("input is required: a string or an array of items");
    }
    if (input.isTextual()) {
      messages.add(Message.user(input.asText()));
      return;
    }
    if (!input.isArray()) {
      throw BadRequest.invalid("input must be a string or an array of items");
    }
    for (int i = 0; i < input.size(); i++) {
      item(input.get(i), "input[" + i + "]", names, messages, files);
    }
  }

  private static void item(JsonNode item, String where, Map<String, ToolName> names, List<Message> messages,
      AttachmentDecoder files) throws BadRequest {
    if (item == null || !item.isObject()) {
      throw BadRequest.invalid(where + " must be an object");
    }
    // An item with a role and no type is a message (the API's easy input form).
    String type = item.has("type") ? item.path("type").asText("") : (item.has("role") ? "message" : "");
    switch (type) {
      case "message" -> messages.add(message(item, where, files));
      case "function_call" -> {
        String callId = text(item, "call_id", where + ".call_id must be a string");
        String name = text(item, "name", where + ".name must be a string");
        JsonNode namespace = item.get("namespace");
        String offered = namespace != null && namespace.isTextual() ? namespace.asText() + "." + name : name;
        Message.ToolCallRef call = new Message.ToolCallRef(callId, offered, Message.parseArguments(item.get("arguments")));
        Message previous = messages.isEmpty() ? null : messages.get(messages.size() - 1);
        if (previous != null && previous.role() == Message.Role.ASSISTANT) {
          List<Message.ToolCallRef> calls = new ArrayList<>(previous.toolCalls());
          calls.add(call);
          messages.set(messages.size() - 1, new Message(Message.Role.ASSISTANT, previous.content(), calls, null));
        } else {
          messages.add(new Message(Message.Role.ASSISTANT, "", List.of(call), null));
        }
      }
      case "function_call_output" -> {
        String callId = text(item, "call_id", where + ".call_id must be a string");
        boolean called = messages.stream().flatMap(m -> m.toolCalls().stream()).anyMatch(c -> c.id().equals(callId));
        if (!called) {
          throw BadRequest.invalid(where + " is the output of call_id '" + callId
              + "', which no earlier function_call item made");
        }
        messages.add(output(item.get("output"), where, files).message(Message.Role.TOOL, List.of(), callId));
      }
      case "reasoning" -> { }
      case "item_reference" -> throw stateful(where + " is an item_reference, which needs stored items");
      default -> throw BadRequest.invalid(where + " has type '" + type
          + "'; supported: message, function_call, function_call_output, reasoning (ignored)");
    }
  }

  private static Message message(JsonNode item, String where, AttachmentDecoder files) throws BadRequest {
    String role = text(item, "role", where + ".role must be a string");
    Message.Role normalized = switch (role) {
      case "developer", "system" -> Message.Role.SYSTEM;
      case "user" -> Message.Role.USER;
      case "assistant" -> Message.Role.ASSISTANT;
      default -> throw BadRequest.invalid(where + ".role must be developer|system|user|assistant, got: " + role);
    };
    return content(item.get("content"), where, normalized, files).message(normalized, List.of(), null);
  }

  private static MessageParts content(JsonNode content, String where, Message.Role role, AttachmentDecoder files)
      throws BadRequest {
    MessageParts parts = files.parts(where);
    if (content == null || content.isNull()) {
      return parts;
    }
    if (content.isTextual()) {
      return parts.text(content.asText());
    }
    if (!content.isArray()) {
      throw BadRequest.invalid(where + ".content must be a string or an array of parts");
    }
    for (int i = 0; i < content.size(); i++) {
      JsonNode part = content.get(i);
      String type = part.path("type").asText("");
      String at = where + ".content[" + i + "]";
      switch (type) {
        case "input_text", "output_text", "text" -> {
          JsonNode partText = part.get("text");
          if (partText == null || !partText.isTextual()) {
            throw BadRequest.invalid(where + ".content " + type + " part needs a string 'text'");
          }
          parts.text(partText.asText());
        }
        case "refusal" -> { }
        case "input_image", "input_file" -> {
          if (role != Message.Role.USER) {
            throw BadRequest.invalid(at + " is an " + type + " part on a " + role.name().toLowerCase(java.util.Locale.ROOT)
                + " message; files go in user messages (or tool outputs)");
          }
          file(part, type, at, parts);
        }
        default -> throw BadRequest.invalid(where + ".content part of type '" + type
            + "' is not supported (input_text, output_text, input_image, input_file)");
      }
    }
    return parts;
  }

  /** An {@code input_image} ({@code image_url}: a data URL) or {@code input_file} ({@code file_data}, {@code filename}). */
  private static void file(JsonNode part, String type, String at, MessageParts parts) throws BadRequest {
    if (part.hasNonNull("file_id")) {
      throw new BadRequest(400, "invalid_attachment", at + " names file_id " + part.get("file_id").asText()
          + "; solwebd keeps no uploaded files: send the bytes (" + (type.equals("input_image")
              ? "image_url: a base64 data URL" : "file_data: base64") + ")");
    }
    if (type.equals("input_image")) {
      parts.image(at, part.path("image_url").asText(null));
    } else if (part.hasNonNull("file_url") && !part.hasNonNull("file_data")) {
      parts.image(at, part.get("file_url").asText()); // an http(s) URL: refused as such
    } else {
      parts.file(at, part.path("file_data").asText(null), part.path("filename").asText(null));
    }
  }

  /**
   * A tool's output: a string, or content items, whose images and files (Codex's
   * {@code view_image}) are attached to the tool result: the model sees them.
   */
  private static MessageParts output(JsonNode output, String where, AttachmentDecoder files) throws BadRequest {
    MessageParts parts = files.parts(where);
    if (output == null || output.isNull()) {
      return parts;
    }
    if (output.isTextual()) {
      return parts.text(output.asText());
    }
    if (!output.isArray()) {
      throw BadRequest.invalid(where + ".output must be a string or an array of content items");
    }
    for (int i = 0; i < output.size(); i++) {
      JsonNode part = output.get(i);
      String type = part.path("type").asText("");
      switch (type) {
        case "input_text", "output_text", "text" -> parts.text(part.path("text").asText(""));
        case "input_image", "input_file" -> file(part, type, where + ".output[" + i + "]", parts);
        default -> throw BadRequest.invalid(where + ".output item of type '" + type + "' is not supported");
      }
    }
    return parts;
  }

  private static Optional<String> session(List<String> headers, JsonNode promptCacheKey) throws BadRequest {
    if (headers.size() > 1) {
      throw BadRequest.invalid(SESSION_HEADER + " was sent " + headers.size() + " times; send it once");
    }
    if (headers.size() == 1) {
      return Optional.of(checked(headers.get(0), SESSION_HEADER));
    }
    if (promptCacheKey == null || promptCacheKey.isNull()) {
      return Optional.empty();
    }
    if (!promptCacheKey.isTextual()) {
      throw BadRequest.invalid("prompt_cache_key must be a string");
    }
    return Optional.of(checked(promptCacheKey.asText(), "prompt_cache_key"));
  }

  private static String checked(String value, String field) throws BadRequest {
    if (!SESSION.matcher(value).matches()) {
      // The value is not echoed: it may be a secret pasted by mistake.
      throw new BadRequest(400, "invalid_client_session", field + " must match ^[A-Za-z0-9._:-]{1,128}$ (got "
          + value.length() + " characters that do not)");
    }
    return value;
  }

  private static String text(JsonNode node, String field, String problem) throws BadRequest {
    JsonNode value = node.get(field);
    if (value == null || !value.isTextual() || value.asText().isEmpty()) {
      throw BadRequest.invalid(problem);
    }
    return value.asText();
  }
}

package dev.solweb.provider.http;

import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.platform.Json;
import dev.solweb.provider.protocol.ToolSpec;
import dev.solweb.provider.translate.AttachmentDecoder;
import dev.solweb.provider.translate.BadRequest;
import dev.solweb.provider.translate.ChatInput;
import dev.solweb.provider.translate.Message;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A validated {@code POST /v1/chat/completions} body. Unknown keys ({@code store},
 * {@code max_completion_tokens}, {@code reasoning}, ...) are ignored; everything the daemon relies
 * on is checked and refused with a typed 400 naming the offender.
 */
record ChatRequest(String model, ChatInput input, boolean stream, boolean includeUsage) {

  static final String CLIENT_SESSION_HEADER = "X-Overdeck-Client-Session";
  private static final Pattern CLIENT_SESSION = Pattern.compile("^v1\\.[A-Za-z0-9_-]{43}$");
  /**
   * The request bodies' reader: no cap on a string's length (Jackson's default, 20 million
   * characters, is a 15 MB file in base64), since the body limit already bounds every string.
   */
  static final ObjectMapper JSON = Json.MAPPER.copy();

  static {
    JSON.getFactory().setStreamReadConstraints(
        StreamReadConstraints.builder().maxStringLength(Integer.MAX_VALUE).build());
  }

  /**
   * Checks the client-session header before the body is read. Pi sends the variable's NAME when
   * the variable is unset, so anything but the derived shape is refused rather than used as a key.
   */
  static Optional<String> clientSession(List<String> values) throws BadRequest {
    if (values.isEmpty()) {
      return Optional.empty();
    }
    if (values.size() > 1) {
      throw BadRequest.invalid(CLIENT_SESSION_HEADER + " was sent " + values.size() + " times; send it once");
    }
    String value = values.get(0);
    if (!CLIENT_SESSION.matcher(value).matches()) {
      // The value is not echoed: it may be a secret pasted by mistake.
      throw new BadRequest(400, "invalid_client_session", CLIENT_SESSION_HEADER
          + " must match ^v1\\.[A-Za-z0-9_-]{43}$ (got " + value.length() + " characters that do not);"
          + " is OVERDECK_PI_CLIENT_SESSION set in the client's environment?");
    }
    return Optional.of(value);
  }

  /** {@link #parse(String, Optional, AttachmentDecoder)} with the default file limits. */
  static ChatRequest parse(String body, Optional<String> clientSession) throws BadRequest {
    return parse(body, clientSession, AttachmentDecoder.defaults());
  }

  /** Parses and validates one body; its files are decoded and checked by {@code files}. */
  static ChatRequest parse(String body, Optional<String> clientSession, AttachmentDecoder files) throws BadRequest {
    if (body == null || body.isBlank()) {
      throw BadRequest.invalid("the request body is empty; send a JSON object {model, messages, ...}");
    }
    JsonNode root;
    try {
      root = JSON.readTree(body);
    } catch (IOException e) {
      throw BadRequest.invalid("the request body is not valid JSON: " + firstLine(e.getMessage()));
    }
    if (root == null || !root.isObject()) {
      throw BadRequest.invalid("the request body must be a JSON object");
    }
    JsonNode modelNode = root.get("model");
    if (modelNode == null || !modelNode.isTextual() || modelNode.asText().isEmpty()) {
      throw BadRequest.invalid("model is required: one of " + String.join(", ", Effort.modelIds()));
    }
    String model = modelNode.asText();
    Effort effort = Effort.fromModelId(model).orElseThrow(() -> new BadRequest(400, "model_not_found",
        "unknown model " + model + "; the effort lives in the model id: one of " + String.join(", ", Effort.modelIds())));

    JsonNode messagesNode = root.get("messages");
    if (messagesNode == null || !messagesNode.isArray()) {
      throw BadRequest.invalid("messages is required and must be an array");
    }
    List<Message> messages = new ArrayList<>();
    for (int i = 0; i < messagesNode.size(); i++) {
      messages.add(Message.fromJson(messagesNode.get(i), i, files));
    }
    List<ToolSpec> tools = tools(root.get("tools"));

    boolean stream = bool(root, "stream");
    JsonNode streamOptions = root.get("stream_options");
    boolean includeUsage = streamOptions != null && streamOptions.isObject() && bool(streamOptions, "include_usage");
    return new ChatRequest(model, ChatInput.of(effort, messages, tools, clientSession, parallelToolCalls(root)), stream,
        includeUsage);
  }

  /**
   * {@code parallel_tool_calls}, in either API: false asks for one tool call per reply; absent or
   * null is true (the OpenAI default).
   */
  static boolean parallelToolCalls(JsonNode root) throws BadRequest {
    JsonNode value = root.get("parallel_tool_calls");
    if (value == null || value.isNull()) {
      return true;
    }
    if (!value.isBoolean()) {
      throw BadRequest.invalid("parallel_tool_calls must be a boolean");
    }
    return value.asBoolean();
  }

  /**
   * Reads the OpenAI {@code tools} array ({@code {type:"function", function:{name, description,
   * parameters}}}). Absent or null means no tools.
   */
  static List<ToolSpec> tools(JsonNode tools) throws BadRequest {
    if (tools == null || tools.isNull()) {
      return List.of();
    }
    if (!tools.isArray()) {
      throw BadRequest.invalid("tools must be an array");
    }
    List<ToolSpec> specs = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (int i = 0; i < tools.size(); i++) {
      JsonNode function = tools.get(i).path("function");
      JsonNode name = function.get("name");
      if (name == null || !name.isTextual() || name.asText().isBlank()) {
        throw BadRequest.invalid("tools[" + i + "].function.name must be a non-empty string");
      }
      if (name.asText().equals("final")) {
        throw BadRequest.invalid("tools[" + i + "] is named 'final', which the reply protocol reserves");
      }
      if (!names.add(name.asText())) {
        throw BadRequest.invalid("tools[" + i + "].function.name '" + name.asText() + "' is listed twice");
      }
      JsonNode parameters = function.get("parameters");
      if (parameters != null && !parameters.isNull() && !parameters.isObject()) {
        throw BadRequest.invalid("tools[" + i + "].function.parameters must be a JSON Schema object, got "
            + parameters.getNodeType().name().toLowerCase(java.util.Locale.ROOT));
      }
      specs.add(new ToolSpec(
          name.asText(),
          function.path("description").asText(""),
          parameters == null || parameters.isNull() ? JsonNodeFactory.instance.objectNode() : parameters));
    }
    return List.copyOf(specs);
  }

  /** An optional boolean field: absent or null is false, anything else but a boolean is refused. */
  static boolean bool(JsonNode node, String field) throws BadRequest {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      return false;
    }
    if (!value.isBoolean()) {
      throw BadRequest.invalid(field + " must be a boolean");
    }
    return value.asBoolean();
  }

  static String firstLine(String message) {
    if (message == null) {
      return "unparseable";
    }
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }
}

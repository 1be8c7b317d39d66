package dev.solweb.provider.translate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** One tool the client offers: its name, description and JSON Schema, preserved as given. */
public record ToolSpec(String name, String description, JsonNode parameters) {

  /**
   * Reads the OpenAI {@code tools} array ({@code {type:"function", function:{name, description,
   * parameters}}}). Absent or null means no tools.
   */
  public static List<ToolSpec> listFromJson(JsonNode tools) throws BadRequest {
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
}

package dev.solweb.provider.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Holds a call's arguments to its tool's JSON Schema before the call reaches the client, so the
 * one repair turn asks the model again instead of the client running a call it will refuse.
 *
 * <p>Deliberately a subset, and only the certain part of it: a refusal here costs a page turn and,
 * twice, the whole request (a typed 502), so it flags only what every client refuses too. Checked:
 * {@code required} properties, unknown properties under {@code additionalProperties: false}, a
 * structural type mismatch (an object or array where the schema wants a scalar, or the reverse),
 * a string outside an all-string {@code enum}, and the same inside nested objects and
 * {@code items}; {@code anyOf}/{@code oneOf} pass when any branch passes, {@code allOf} when every
 * one does. Not checked, because clients coerce or judge them themselves: one scalar for another
 * (Pi turns {@code "100"} into 100), formats, patterns, bounds, {@code $ref}.
 */
final class ArgumentCheck {

  private ArgumentCheck() {}

  /** The first violation of {@code schema} by {@code value}, or empty. */
  static Optional<String> violation(JsonNode schema, JsonNode value) {
    return check(schema, value, "");
  }

  private static Optional<String> check(JsonNode schema, JsonNode value, String path) {
    if (schema == null || !schema.isObject()) {
      return Optional.empty();
    }
    Optional<String> structural = type(schema.get("type"), value, path);
    if (structural.isPresent()) {
      return structural;
    }
    Optional<String> outside = enumeration(schema.get("enum"), value, path);
    if (outside.isPresent()) {
      return outside;
    }
    if (value.isObject()) {
      Optional<String> inObject = object(schema, value, path);
      if (inObject.isPresent()) {
        return inObject;
      }
    }
    if (value.isArray() && schema.path("items").isObject()) {
      for (int i = 0; i < value.size(); i++) {
        Optional<String> item = check(schema.get("items"), value.get(i), path + "[" + i + "]");
        if (item.isPresent()) {
          return item;
        }
      }
    }
    return branches(schema, value, path);
  }

  private static Optional<String> object(JsonNode schema, JsonNode value, String path) {
    JsonNode properties = schema.path("properties");
    for (JsonNode required : schema.path("required")) {
      if (required.isTextual() && !value.has(required.asText())) {
        return Optional.of("missing required argument \"" + join(path, required.asText()) + "\"");
      }
    }
    boolean closed = schema.path("additionalProperties").isBoolean() && !schema.path("additionalProperties").asBoolean();
    for (Iterator<Map.Entry<String, JsonNode>> it = value.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> field = it.next();
      JsonNode property = properties.get(field.getKey());
      if (property == null) {
        if (closed && !schema.has("patternProperties")) {
          return Optional.of("unknown argument \"" + join(path, field.getKey()) + "\"; the schema allows only "
              + names(properties));
        }
        continue;
      }
      Optional<String> nested = check(property, field.getValue(), join(path, field.getKey()));
      if (nested.isPresent()) {
        return nested;
      }
    }
    return Optional.empty();
  }

  /** {@code anyOf}/{@code oneOf}: some branch must pass; {@code allOf}: every branch. */
  private static Optional<String> branches(JsonNode schema, JsonNode value, String path) {
    for (String any : List.of("anyOf", "oneOf")) {
      JsonNode options = schema.get(any);
      if (options != null && options.isArray() && !options.isEmpty()) {
        Optional<String> first = Optional.empty();
        for (JsonNode option : options) {
          Optional<String> failed = check(option, value, path);
          if (failed.isEmpty()) {
            first = Optional.empty();
            break;
          }
          first = first.isPresent() ? first : failed;
        }
        if (first.isPresent()) {
          return Optional.of(first.get() + " (and no other " + any + " alternative fits)");
        }
      }
    }
    for (JsonNode part : schema.path("allOf")) {
      Optional<String> failed = check(part, value, path);
      if (failed.isPresent()) {
        return failed;
      }
    }
    return Optional.empty();
  }

  /** Only a structural mismatch: scalars are left to the client, which may coerce one into another. */
  private static Optional<String> type(JsonNode type, JsonNode value, String path) {
    List<String> types = new ArrayList<>();
    if (type != null && type.isTextual()) {
      types.add(type.asText());
    } else if (type != null && type.isArray()) {
      type.forEach(t -> types.add(t.asText()));
    }
    if (types.isEmpty() || value.isNull()) {
      return Optional.empty();
    }
    String shape = value.isObject() ? "object" : value.isArray() ? "array" : "scalar";
    boolean fits = types.stream().anyMatch(t -> switch (t) {
      case "object", "array" -> t.equals(shape);
      case "string", "number", "integer", "boolean" -> shape.equals("scalar");
      case "null" -> false;
      default -> true;
    });
    if (fits) {
      return Optional.empty();
    }
    String got = value.isObject() ? "an object" : value.isArray() ? "an array" : "a " + value.getNodeType().name()
        .toLowerCase(java.util.Locale.ROOT);
    return Optional.of("argument \"" + (path.isEmpty() ? "arguments" : path) + "\" must be " + String.join(" or ", types)
        + ", got " + got);
  }

  private static Optional<String> enumeration(JsonNode values, JsonNode value, String path) {
    if (values == null || !values.isArray() || values.isEmpty() || !value.isTextual()) {
      return Optional.empty();
    }
    for (JsonNode allowed : values) {
      if (!allowed.isTextual()) {
        return Optional.empty();
      }
      if (allowed.asText().equals(value.asText())) {
        return Optional.empty();
      }
    }
    return Optional.of("argument \"" + path + "\" must be one of " + values + ", got " + value);
  }

  private static String join(String path, String key) {
    return path.isEmpty() ? key : path + "." + key;
  }

  private static String names(JsonNode properties) {
    List<String> names = new ArrayList<>();
    properties.fieldNames().forEachRemaining(names::add);
    return names.isEmpty() ? "no arguments" : String.join(", ", names);
  }
}

package dev.solweb.provider.seat.playwright.traffic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.ArrayList;
import java.util.List;

/** The patch operations of delta encoding v1 on a Jackson tree, at RFC 6901 pointers. */
final class JsonPatch {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private JsonPatch() {}

  static void apply(ObjectNode root, String pointer, String op, JsonNode v) {
    List<String> tokens = tokens(pointer);
    if (tokens.isEmpty()) {
      if (!"append".equals(op) || !v.isObject()) {
        throw new IllegalArgumentException("operation " + op + " on the whole document");
      }
      root.setAll((ObjectNode) v.deepCopy());
      return;
    }
    JsonNode parent = root;
    for (int i = 0; i < tokens.size() - 1; i++) {
      JsonNode next = child(parent, tokens.get(i));
      if (next == null || next.isNull() || !next.isContainerNode()) {
        if (!"add".equals(op) && !"append".equals(op) && !"replace".equals(op)) {
          throw new IllegalArgumentException("no " + pointer + " to " + op);
        }
        next = NODES.objectNode();
        set(parent, tokens.get(i), next, false);
      }
      parent = next;
    }
    String last = tokens.get(tokens.size() - 1);
    JsonNode target = child(parent, last);
    switch (op) {
      case "add" -> set(parent, last, v.deepCopy(), true);
      case "replace" -> set(parent, last, v.deepCopy(), false);
      case "remove" -> remove(parent, last);
      case "append" -> {
        if (target == null || target.isNull()) {
          set(parent, last, v.deepCopy(), false);
        } else if (target.isTextual()) {
          set(parent, last, TextNode.valueOf(target.asText() + (v.isTextual() ? v.asText() : v.toString())), false);
        } else if (target instanceof ArrayNode a) {
          if (v.isArray()) {
            v.forEach(e -> a.add(e.deepCopy()));
          } else {
            a.add(v.deepCopy());
          }
        } else if (target instanceof ObjectNode o && v.isObject()) {
          o.setAll((ObjectNode) v.deepCopy());
        } else {
          throw new IllegalArgumentException("cannot append to " + pointer);
        }
      }
      case "truncate" -> {
        int n = v.asInt(-1);
        if (n < 0) {
          throw new IllegalArgumentException("truncate of " + pointer + " without a length");
        }
        if (target != null && target.isTextual() && n < target.asText().length()) {
          set(parent, last, TextNode.valueOf(target.asText().substring(0, n)), false);
        } else if (target instanceof ArrayNode a) {
          while (a.size() > n) {
            a.remove(a.size() - 1);
          }
        }
      }
      default -> throw new IllegalArgumentException("unknown operation " + op + " at " + pointer);
    }
  }

  private static List<String> tokens(String pointer) {
    if (pointer.isEmpty()) {
      return List.of();
    }
    if (!pointer.startsWith("/")) {
      throw new IllegalArgumentException("not a JSON pointer: " + ConversationStreamDecoder.clip(pointer));
    }
    List<String> out = new ArrayList<>();
    for (String t : pointer.substring(1).split("/", -1)) {
      out.add(t.replace("~1", "/").replace("~0", "~"));
    }
    return out;
  }

  private static JsonNode child(JsonNode parent, String token) {
    if (parent instanceof ObjectNode o) {
      return o.get(token);
    }
    int i = index(token);
    return i >= 0 && i < parent.size() ? parent.get(i) : null;
  }

  private static void set(JsonNode parent, String token, JsonNode value, boolean insert) {
    if (parent instanceof ObjectNode o) {
      o.set(token, value);
      return;
    }
    ArrayNode a = (ArrayNode) parent;
    if (token.equals("-")) {
      a.add(value);
      return;
    }
    int i = index(token);
    if (i < 0 || i > a.size()) {
      throw new IllegalArgumentException("index " + token + " outside a list of " + a.size());
    }
    if (i == a.size()) {
      a.add(value);
    } else if (insert) {
      a.insert(i, value);
    } else {
      a.set(i, value);
    }
  }

  private static void remove(JsonNode parent, String token) {
    if (parent instanceof ObjectNode o) {
      o.remove(token);
    } else {
      int i = index(token);
      if (i >= 0 && i < parent.size()) {
        ((ArrayNode) parent).remove(i);
      }
    }
  }

  private static int index(String token) {
    try {
      return Integer.parseInt(token);
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}

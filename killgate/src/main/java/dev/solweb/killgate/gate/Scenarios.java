package dev.solweb.killgate.gate;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.platform.Json;

/** Scenario JSON (the shared ScriptedSeat / fakesol format) built in code. */
final class Scenarios {

  static final String ACCOUNT = "killgate@solweb.invalid";

  private Scenarios() {}

  static ObjectNode scenario() {
    ObjectNode root = Json.MAPPER.createObjectNode().put("account", ACCOUNT);
    root.putArray("default");
    root.putArray("conversations");
    return root;
  }

  /** A scenario whose every new conversation gets {@code replies}. */
  static String defaults(ObjectNode... replies) {
    ObjectNode root = scenario();
    ArrayNode list = (ArrayNode) root.get("default");
    for (ObjectNode reply : replies) {
      list.add(reply);
    }
    return root.toString();
  }

  /** Adds a conversation script for first texts containing {@code match}. */
  static ObjectNode script(ObjectNode scenario, String match, ObjectNode... replies) {
    ObjectNode script = ((ArrayNode) scenario.get("conversations")).addObject().put("match", match);
    ArrayNode list = script.putArray("replies");
    for (ObjectNode reply : replies) {
      list.add(reply);
    }
    return scenario;
  }

  static ObjectNode tool(String name, ObjectNode args) {
    ObjectNode call = Json.MAPPER.createObjectNode().put("tool", name);
    call.set("arguments", args);
    return blocks(call.toString());
  }

  static ObjectNode args() {
    return Json.MAPPER.createObjectNode();
  }

  static ObjectNode fin(String text) {
    return blocks(Json.MAPPER.createObjectNode().put("tool", "final").put("text", text).toString());
  }

  static ObjectNode blocks(String... raw) {
    ObjectNode reply = Json.MAPPER.createObjectNode();
    ArrayNode list = reply.putArray("blocks");
    for (String block : raw) {
      list.add(block);
    }
    return reply;
  }

  /** Two final blocks in one answer: the protocol's Malformed. */
  static ObjectNode malformed() {
    return blocks("{\"tool\":\"final\",\"text\":\"a\"}", "{\"tool\":\"final\",\"text\":\"b\"}");
  }

  static ObjectNode fault(String fault) {
    return Json.MAPPER.createObjectNode().put("fault", fault);
  }
}

package dev.solweb.install;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Pi's {@code settings.json} for direct {@code pi} use: the shipped {@code pi-settings.json}
 * (compaction aligned with solwebd's budget, docs/compaction.md) merged key by key into the user's
 * file, every other setting kept. Pi rewrites this file itself (interactive mode records
 * {@code lastChangelogVersion}, {@code /settings} changes), so it is taken back key by key too,
 * not byte for byte: the manifest records each merged key with the value it held before, and
 * uninstall puts that value back (or removes the key) wherever the key still holds the shipped
 * value; a key the user changed since is left and said so.
 */
final class PiSettings {
  private static final ObjectMapper JSON = InstallerJson.MAPPER;

  sealed interface Plan {}

  /** No settings.json yet: ours becomes it. */
  record Create(byte[] bytes, String record) implements Plan {}

  /** Every shipped key already holds the shipped value. */
  record AlreadyMerged() implements Plan {}

  /** The user's file with the shipped keys set; {@code replaced} names the keys that held other values. */
  record Merge(byte[] bytes, String record, List<String> replaced) implements Plan {}

  private PiSettings() {}

  /**
   * @param prior what an earlier install recorded for {@code file} (its "before" values win: they
   *     are the user's, not an earlier install's), or null
   * @throws StepFailed when the user's file is not a JSON object
   */
  static Plan plan(Path file, Path shipped, Entry prior) throws IOException, StepFailed {
    Map<String, JsonNode> ours = leaves(JSON.readTree(shipped.toFile()));
    boolean exists = Files2.exists(file);
    if (exists && !Files.isRegularFile(file)) {
      throw new StepFailed(file + " is neither a file nor a link to one; move it away, then install again");
    }
    ObjectNode root = exists ? object(file) : JSON.createObjectNode();
    ObjectNode record = JSON.createObjectNode();
    JsonNode priorRecord = prior == null || prior.target() == null ? JSON.createObjectNode() : JSON.readTree(prior.target());
    JsonNode priorKeys = priorRecord.path("keys");
    record.put("created", !exists || priorRecord.path("created").asBoolean());
    ObjectNode keys = record.putObject("keys");
    List<String> replaced = new ArrayList<>();
    boolean changed = false;
    for (Map.Entry<String, JsonNode> leaf : ours.entrySet()) {
      JsonNode current = get(root, leaf.getKey());
      ObjectNode key = keys.putObject(leaf.getKey());
      key.set("ours", leaf.getValue());
      JsonNode earlier = priorKeys.get(leaf.getKey());
      if (earlier != null && current != null && current.equals(earlier.get("ours"))) {
        if (earlier.has("before")) {
          key.set("before", earlier.get("before"));
        }
      } else if (current != null) {
        key.set("before", current);
      }
      if (!leaf.getValue().equals(current)) {
        changed = true;
        if (current != null && (earlier == null || !current.equals(earlier.get("ours")))) {
          replaced.add(leaf.getKey() + " " + current + " -> " + leaf.getValue());
        }
        set(root, leaf.getKey(), leaf.getValue());
      }
    }
    if (!changed) {
      return new AlreadyMerged();
    }
    byte[] bytes = PiModels.render(root);
    return exists ? new Merge(bytes, record.toString(), replaced) : new Create(bytes, record.toString());
  }

  /** The result of taking the recorded keys back out of {@code file}. */
  record TakeBack(byte[] bytes, boolean delete, List<String> leftAsChanged) {}

  /** What {@code file} should hold once the keys recorded in {@code entry} are taken back. */
  static TakeBack takeBack(Path file, Entry entry) throws IOException, StepFailed {
    ObjectNode root = object(file);
    JsonNode record = JSON.readTree(entry.target());
    List<String> left = new ArrayList<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = record.path("keys").fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> key = it.next();
      JsonNode current = get(root, key.getKey());
      if (current == null || !current.equals(key.getValue().get("ours"))) {
        left.add(key.getKey());
      } else if (key.getValue().has("before")) {
        set(root, key.getKey(), key.getValue().get("before"));
      } else {
        remove(root, key.getKey());
      }
    }
    boolean delete = record.path("created").asBoolean() && root.isEmpty();
    return new TakeBack(PiModels.render(root), delete, left);
  }

  private static ObjectNode object(Path file) throws IOException, StepFailed {
    JsonNode root;
    try {
      root = JSON.readTree(Files.readAllBytes(file));
    } catch (IOException e) {
      throw new StepFailed(file + " is not valid JSON (" + e.getMessage().lines().findFirst().orElse("")
          + "); fix or move it, then install again");
    }
    if (root == null || root.isMissingNode()) {
      return JSON.createObjectNode();
    }
    if (!root.isObject()) {
      throw new StepFailed(file + " is not a Pi settings.json (a JSON object)");
    }
    return (ObjectNode) root;
  }

  /** Dotted paths of every non-object value, in order: {"compaction.keepRecentTokens": 15000, ...}. */
  static Map<String, JsonNode> leaves(JsonNode node) {
    Map<String, JsonNode> out = new java.util.LinkedHashMap<>();
    walk("", node, out);
    return out;
  }

  private static void walk(String prefix, JsonNode node, Map<String, JsonNode> out) {
    node.fields().forEachRemaining(f -> {
      String path = prefix.isEmpty() ? f.getKey() : prefix + "." + f.getKey();
      if (f.getValue().isObject()) {
        walk(path, f.getValue(), out);
      } else {
        out.put(path, f.getValue());
      }
    });
  }

  private static JsonNode get(ObjectNode root, String path) {
    JsonNode node = root;
    for (String part : path.split("\\.")) {
      node = node.isObject() ? node.get(part) : null;
      if (node == null) {
        return null;
      }
    }
    return node;
  }

  private static void set(ObjectNode root, String path, JsonNode value) {
    String[] parts = path.split("\\.");
    ObjectNode node = root;
    for (int i = 0; i < parts.length - 1; i++) {
      JsonNode child = node.get(parts[i]);
      node = child instanceof ObjectNode object ? object : node.putObject(parts[i]);
    }
    node.set(parts[parts.length - 1], value);
  }

  /** Removes the key, and any object on its path that it leaves empty. */
  private static void remove(ObjectNode root, String path) {
    String[] parts = path.split("\\.");
    List<ObjectNode> chain = new ArrayList<>(List.of(root));
    for (int i = 0; i < parts.length - 1; i++) {
      if (!(chain.get(i).get(parts[i]) instanceof ObjectNode child)) {
        return;
      }
      chain.add(child);
    }
    chain.get(parts.length - 1).remove(parts[parts.length - 1]);
    for (int i = parts.length - 2; i >= 0; i--) {
      if (chain.get(i + 1).isEmpty()) {
        chain.get(i).remove(parts[i]);
      }
    }
  }
}

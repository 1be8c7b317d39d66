package dev.solweb.factory.receipt;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.solweb.provider.platform.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Writes receipts as {@code <dir>/attempt-<timestamp>-<n>.json}, redacted, atomically, mode 0600,
 * and reads the most recent ones back for {@code factory-gpt status}.
 */
public final class ReceiptWriter {

  private final Path dir;
  private final Redactor redactor;

  public ReceiptWriter(Path dir, Redactor redactor) {
    this.dir = dir;
    this.redactor = redactor;
  }

  /** The receipt as indented JSON with every string value (and field name) redacted. */
  public String render(AttemptReceipt receipt) {
    try {
      JsonNode tree = redactTree(Json.MAPPER.valueToTree(receipt));
      return Json.MAPPER.copy().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(tree) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("AttemptReceipt is always serializable", e);
    }
  }

  /** Redacts value by value, so a redaction can never break the JSON structure. */
  private JsonNode redactTree(JsonNode node) {
    if (node.isTextual()) {
      return TextNode.valueOf(redactor.redact(node.asText()));
    }
    if (node instanceof ObjectNode object) {
      ObjectNode out = Json.MAPPER.createObjectNode();
      object.fields().forEachRemaining(e -> out.set(redactor.redact(e.getKey()), redactTree(e.getValue())));
      return out;
    }
    if (node instanceof ArrayNode array) {
      ArrayNode out = Json.MAPPER.createArrayNode();
      array.forEach(item -> out.add(redactTree(item)));
      return out;
    }
    return node;
  }

  /** Writes the receipt and returns its path. */
  public Path write(AttemptReceipt receipt) throws IOException {
    Files.createDirectories(dir);
    String stamp = receipt.startedAt().replace(":", "").replace("-", "");
    Path file = dir.resolve("attempt-" + stamp + "-" + receipt.attempt() + ".json");
    Path tmp = dir.resolve("." + file.getFileName() + ".tmp");
    Files.writeString(tmp, render(receipt));
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    return file;
  }

  /** The newest receipts first, at most {@code limit}. */
  public static List<Path> recent(Path dir, int limit) throws IOException {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(dir)) {
      List<Path> receipts = new ArrayList<>(files
          .filter(p -> p.getFileName().toString().startsWith("attempt-") && p.toString().endsWith(".json"))
          .toList());
      receipts.sort(Comparator.comparing((Path p) -> p.getFileName().toString()).reversed());
      return receipts.subList(0, Math.min(limit, receipts.size()));
    }
  }
}

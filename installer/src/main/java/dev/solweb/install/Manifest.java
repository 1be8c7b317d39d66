package dev.solweb.install;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code <prefix>/install-manifest.json}: the version installed, where the Pi binary is, and every
 * {@link Entry} in the order it was made (uninstall walks it backwards). Entries are keyed by
 * path: one path has one entry.
 */
public final class Manifest {
  public static final String FILE_NAME = "install-manifest.json";
  private static final ObjectMapper JSON = InstallerJson.MAPPER;

  private final Map<Path, Entry> entries = new LinkedHashMap<>();
  private String version;

  public Manifest(String version) {
    this.version = version;
  }

  public static Optional<Manifest> read(Path prefix) throws IOException {
    Path file = prefix.resolve(FILE_NAME);
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    JsonNode root;
    try {
      root = JSON.readTree(file.toFile());
    } catch (IOException e) {
      throw new IOException("the install manifest " + file + " is not valid JSON: " + e.getMessage(), e);
    }
    Manifest manifest = new Manifest(root.path("version").asText(""));
    for (JsonNode e : root.path("entries")) {
      manifest.put(new Entry(Entry.Kind.valueOf(e.path("kind").asText()), Path.of(e.path("path").asText()),
          text(e, "sha256"), text(e, "target"), e.hasNonNull("backup") ? Path.of(e.get("backup").asText()) : null));
    }
    return Optional.of(manifest);
  }

  public void write(Path prefix) throws IOException {
    ObjectNode root = JSON.createObjectNode();
    root.put("version", version);
    ArrayNode array = root.putArray("entries");
    for (Entry e : entries.values()) {
      ObjectNode node = array.addObject();
      node.put("kind", e.kind().name());
      node.put("path", e.path().toString());
      if (e.sha256() != null) {
        node.put("sha256", e.sha256());
      }
      if (e.target() != null) {
        node.put("target", e.target());
      }
      if (e.backup() != null) {
        node.put("backup", e.backup().toString());
      }
    }
    Path file = prefix.resolve(FILE_NAME);
    Path tmp = prefix.resolve(FILE_NAME + ".tmp");
    Files.writeString(tmp, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n", StandardCharsets.UTF_8);
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  public String version() {
    return version;
  }

  public void version(String newVersion) {
    version = newVersion;
  }

  public Optional<Entry> get(Path path) {
    return Optional.ofNullable(entries.get(path));
  }

  /** Records (or re-records, keeping its first position) the entry for its path. */
  public void put(Entry entry) {
    entries.put(entry.path(), entry);
  }

  public void remove(Path path) {
    entries.remove(path);
  }

  public List<Entry> entries() {
    return new ArrayList<>(entries.values());
  }

  private static String text(JsonNode node, String field) {
    return node.hasNonNull(field) ? node.get(field).asText() : null;
  }
}

package dev.solweb.install;

import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Pi's {@code models.json}: what to do with the user's file. The managed form is a symlink to the
 * installed models.json (seed 001: the deployed symlink is canonical). A user's own file with other
 * providers is kept and gets provider {@code gpt} merged in; every other provider and key stays,
 * in order.
 */
final class PiModels {
  static final String PROVIDER = "gpt";
  private static final ObjectMapper JSON = InstallerJson.MAPPER;

  sealed interface Plan {}

  /** Absent, or already the managed file (a link to it, or a byte-identical copy): the symlink. */
  record Link() implements Plan {}

  /** The user's own file already carries our provider exactly. */
  record AlreadyMerged() implements Plan {}

  /** The user's own file, with our provider merged in. */
  record Merge(byte[] bytes, boolean replacesTheirs) implements Plan {}

  private PiModels() {}

  /**
   * @param file the agent dir's models.json (may be absent, a symlink or a file)
   * @param managed the installed models.json
   * @param ours whether the manifest says the installer put {@code file} there as it is now
   * @throws StepFailed when the user's file is not a JSON object with an object {@code providers}
   */
  static Plan plan(Path file, Path managed, boolean ours) throws IOException, StepFailed {
    if (!Files2.exists(file) || ours || Files2.linksTo(file, managed.toString())) {
      return new Link();
    }
    if (!Files.isRegularFile(file)) {
      throw new StepFailed(file + " is neither a file nor a link to one; move it away, then install again");
    }
    byte[] theirs = Files.readAllBytes(file);
    if (java.util.Arrays.equals(theirs, Files.readAllBytes(managed))) {
      return new Link();
    }
    JsonNode root;
    try {
      root = JSON.readTree(theirs);
    } catch (IOException e) {
      throw new StepFailed(file + " is not valid JSON (" + e.getMessage().lines().findFirst().orElse("") + "); fix or move it, then install again");
    }
    if (root == null || !root.isObject() || (root.has("providers") && !root.get("providers").isObject())) {
      throw new StepFailed(file + " is not a Pi models.json (a JSON object with an object \"providers\")");
    }
    JsonNode gpt = JSON.readTree(managed.toFile()).path("providers").path(PROVIDER);
    JsonNode existing = root.path("providers").path(PROVIDER);
    if (existing.equals(gpt)) {
      return new AlreadyMerged();
    }
    ObjectNode merged = ((ObjectNode) root).deepCopy();
    if (!merged.has("providers")) {
      merged.putObject("providers");
    }
    ((ObjectNode) merged.get("providers")).set(PROVIDER, gpt);
    return new Merge(render(merged), !existing.isMissingNode());
  }

  static byte[] render(JsonNode node) throws IOException {
    // Pi's own style: two-space indent, "key": value.
    DefaultPrettyPrinter printer = new DefaultPrettyPrinter()
        .withSeparators(Separators.createDefaultInstance().withObjectFieldValueSpacing(Separators.Spacing.AFTER))
        .withObjectIndenter(new DefaultIndenter("  ", "\n"))
        .withArrayIndenter(new DefaultIndenter("  ", "\n"));
    return (JSON.writer(printer).writeValueAsString(node) + "\n").getBytes(StandardCharsets.UTF_8);
  }
}

package dev.solweb.factory.demo;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.platform.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Every home the demo's children use, under one private temp dir, so the user's own
 * {@code ~/.overdeck} (solwebd home, enrollment, factory-gpt state) and {@code ~/.pi} are never
 * read or written: {@code HOME}, {@code SOLWEBD_HOME} (token, identity, state file, profile),
 * the managed {@code PI_CODING_AGENT_DIR} holding a demo-only models.json copy, the account
 * agent dir factory-gpt materializes from it, receipts, and the workspace Pi works in.
 */
final class DemoSandbox {

  /** Variables of the caller that would point a child elsewhere than the sandbox; dropped. */
  private static final List<String> DROPPED = List.of("PI_CODING_AGENT_DIR", "PI_BIN", "SOLWEBD_HOME",
      "SOLWEBD_PROFILE", "SOLWEBD_PORT", "SOLWEBD_SEATS", "SOLWEBD_BIN", "SOLWEBCTL_BIN", "SOLWEB_PRESETS_DIR");

  final Path root;
  final Path home;
  final Path solwebdHome;
  final Path managedAgentDir;
  final Path accountAgentDir;
  final Path receipts;
  final Path workspace;

  private DemoSandbox(Path root) throws IOException {
    this.root = root;
    home = Files.createDirectories(root.resolve("home"));
    solwebdHome = root.resolve("solwebd");
    Files.createDirectories(solwebdHome.resolve("profile"));
    managedAgentDir = Files.createDirectories(root.resolve("pi-agent"));
    accountAgentDir = root.resolve("pi-agent-account");
    receipts = root.resolve("receipts");
    workspace = Files.createDirectories(root.resolve("workspace"));
  }

  /** A fresh sandbox under {@code TMPDIR} (else java.io.tmpdir); the temp dir is mode 0700. */
  static DemoSandbox create(Map<String, String> env) throws IOException {
    String tmp = env.getOrDefault("TMPDIR", "");
    Path parent = Path.of(tmp.isBlank() ? System.getProperty("java.io.tmpdir") : tmp);
    return new DemoSandbox(Files.createTempDirectory(parent, "solweb-demo-"));
  }

  /**
   * The environment of every child (solwebctl, solwebd, factory-gpt, Pi): the caller's, with every
   * home moved into the sandbox and the port left to the kernel ({@code SOLWEBD_PORT=0}), so a
   * daemon the user runs on 8791 is neither used nor disturbed.
   */
  Map<String, String> childEnv(Map<String, String> parent, Path solwebRoot) {
    Map<String, String> env = new HashMap<>(parent);
    DROPPED.forEach(env::remove);
    env.put("HOME", home.toString());
    env.put("SOLWEBD_HOME", solwebdHome.toString());
    env.put("SOLWEBD_PORT", "0");
    env.put("PI_CODING_AGENT_DIR", managedAgentDir.toString());
    env.put("SOLWEBCTL_BIN", solwebRoot.resolve("bin/solwebctl").toString());
    env.put("SOLWEB_ROOT", solwebRoot.toString());
    env.put("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1");
    return env;
  }

  /**
   * Writes the demo's managed models.json: the repository's provider {@code gpt}, with its
   * baseUrl (127.0.0.1:8791 as installed) pointed at the demo daemon's endpoint. The account
   * agent dir factory-gpt materializes symlinks to this copy.
   */
  Path writeModels(Path repoModels, String endpoint) throws IOException {
    ObjectNode models = (ObjectNode) Json.MAPPER.readTree(repoModels.toFile());
    if (!(models.path("providers").path("gpt") instanceof ObjectNode gpt)) {
      throw new IllegalStateException(repoModels + " has no provider gpt");
    }
    gpt.put("baseUrl", endpoint);
    Path file = managedAgentDir.resolve("models.json");
    Files.writeString(file, Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(models) + "\n");
    return file;
  }

  /** Removes the whole sandbox (best effort per file; the caller reports what is left). */
  void delete() throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }
}

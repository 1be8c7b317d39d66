package dev.solweb.factory.pi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.platform.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Builds an account-specific {@code PI_CODING_AGENT_DIR} (seed 001, "Topology and installation":
 * materialized Pi directories inherit provider models/extensions while keeping account auth).
 *
 * <ul>
 *   <li>{@code models.json} and {@code extensions/} are symlinks to the managed sources, so a
 *       redeploy of the provider reaches every account dir at once;
 *   <li>{@code settings.json} has Pi's retries off at both levels ({@link #RETRY_OFF}); measured:
 *       only both together give exactly one request per failure (PI-FACTS §4); and Pi's compaction
 *       cut aligned with solwebd's byte budget ({@link #COMPACTION}, docs/compaction.md). Other
 *       keys an account already has are kept;
 *   <li>{@code auth.json} is the account's own and is never read, written or linked here.
 * </ul>
 */
public final class AgentDirMaterializer {

  /** Merged into settings.json: agent-layer and SDK-layer retries off. */
  public static final String RETRY_OFF = "{\"retry\":{\"enabled\":false,\"provider\":{\"maxRetries\":0}}}";

  /**
   * Merged into settings.json: Pi keeps at most 15000 of its chars/4 tokens (60000 characters)
   * when it compacts, so the replay (preamble + summary + kept messages, counted by solwebd at one
   * token per UTF-8 byte) fits the 104000 budget with margin even when the kept text runs at 1.2
   * bytes per character, and still keeps a whole 50 KB read (Pi's own read/bash cap); reserveTokens
   * stays at Pi's 16384, so a threshold compaction happens only where solwebd would refuse the
   * next send anyway (a larger reserve makes Pi compact after a phase's final answer: a wasted
   * ChatGPT turn). Measured with the pinned Pi 0.73.1 in docs/compaction.md. The same values are
   * in the repository's pi-settings.json, which bin/install merges for direct {@code pi} use.
   */
  public static final String COMPACTION = "{\"compaction\":{\"keepRecentTokens\":15000,\"reserveTokens\":16384}}";

  private static final ObjectMapper JSON = Json.MAPPER;

  private AgentDirMaterializer() {}

  /**
   * Materializes {@code accountDir} from {@code managedDir} (the installed default agent dir,
   * e.g. {@code ~/.pi/agent}, whose {@code models.json} is the deployed provider).
   *
   * @return {@code accountDir}
   * @throws IllegalStateException when the managed dir has no models.json, or the account dir
   *     holds a regular models.json or extensions directory of its own (never overwritten)
   * @throws IOException on filesystem failure
   */
  public static Path materialize(Path managedDir, Path accountDir) throws IOException {
    Path managedModels = managedDir.resolve("models.json");
    if (!Files.isRegularFile(managedModels)) {
      throw new IllegalStateException("managed Pi agent dir has no models.json: " + managedModels);
    }
    if (!Files.isDirectory(accountDir)) {
      Files.createDirectories(accountDir);
      Files.setPosixFilePermissions(accountDir, PosixFilePermissions.fromString("rwx------"));
    }
    link(accountDir.resolve("models.json"), managedModels.toRealPath());
    Path managedExtensions = managedDir.resolve("extensions");
    if (Files.isDirectory(managedExtensions)) {
      link(accountDir.resolve("extensions"), managedExtensions.toRealPath());
    }
    writeSettings(accountDir.resolve("settings.json"));
    return accountDir;
  }

  private static void link(Path link, Path target) throws IOException {
    if (Files.isSymbolicLink(link)) {
      if (Files.readSymbolicLink(link).equals(target)) {
        return;
      }
      Files.delete(link);
    } else if (Files.exists(link, LinkOption.NOFOLLOW_LINKS)) {
      throw new IllegalStateException(
          "account Pi dir has its own " + link.getFileName() + " (not a symlink); refusing to replace " + link);
    }
    Files.createSymbolicLink(link, target);
  }

  private static void writeSettings(Path settings) throws IOException {
    ObjectNode merged = JSON.createObjectNode();
    if (Files.isRegularFile(settings, LinkOption.NOFOLLOW_LINKS)) {
      JsonNode existing = JSON.readTree(settings.toFile());
      if (existing instanceof ObjectNode object) {
        merged = object;
      }
    }
    ObjectNode retry = merged.withObjectProperty("retry");
    retry.put("enabled", false);
    retry.withObjectProperty("provider").put("maxRetries", 0);
    ObjectNode compaction = merged.withObjectProperty("compaction");
    JSON.readTree(COMPACTION).path("compaction").fields().forEachRemaining(f -> compaction.set(f.getKey(), f.getValue()));
    Path tmp = settings.resolveSibling(".settings.json.tmp");
    Files.writeString(tmp, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(merged) + "\n");
    Files.move(tmp, settings, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }
}

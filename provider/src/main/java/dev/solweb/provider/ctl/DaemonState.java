package dev.solweb.provider.ctl;

import dev.solweb.provider.platform.Json;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The runtime state file solwebd writes atomically after it listens and removes on a clean
 * shutdown: {@code {"pid","process_start_ticks","instance_generation","port","version","seat"}}.
 * solwebctl trusts none of it alone: pid, start ticks and generation must all match the live
 * process and its /healthz answer.
 */
public record DaemonState(long pid, long processStartTicks, String instanceGeneration, int port, String version, String seat) {

  private static final ObjectMapper JSON = Json.MAPPER;

  /**
   * @return empty when there is no state file (no daemon was started, or it shut down cleanly)
   * @throws CtlException {@link ExitCodes#OWNERSHIP} when the file is unreadable or malformed
   */
  public static Optional<DaemonState> read(Path file) throws CtlException {
    if (!Files.exists(file)) {
      return Optional.empty();
    }
    try {
      JsonNode node = JSON.readTree(Files.readString(file));
      long pid = requiredLong(node, "pid");
      long ticks = requiredLong(node, "process_start_ticks");
      JsonNode generation = node.get("instance_generation");
      if (generation == null || !generation.isTextual() || generation.asText().isEmpty()) {
        throw new IOException("instance_generation missing");
      }
      int port = (int) requiredLong(node, "port");
      if (pid <= 0 || port <= 0 || port > 65535) {
        throw new IOException("pid or port out of range");
      }
      return Optional.of(new DaemonState(pid, ticks, generation.asText(), port,
          node.path("version").asText("unknown"), node.path("seat").asText(null)));
    } catch (IOException | RuntimeException e) {
      throw new CtlException(ExitCodes.OWNERSHIP,
          "state file " + file + " is malformed (" + e.getMessage() + "); not trusting it", e);
    }
  }

  private static long requiredLong(JsonNode node, String field) throws IOException {
    JsonNode value = node.get(field);
    if (value == null || !value.canConvertToLong() || !value.isIntegralNumber()) {
      throw new IOException(field + " missing or not an integer");
    }
    return value.asLong();
  }
}

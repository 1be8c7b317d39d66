package dev.solweb.provider.daemon;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.solweb.provider.platform.Json;
import dev.solweb.provider.platform.Poll;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Optional;

/**
 * The running daemon's identity, {@code <home>/solwebd.state.json}: written atomically once it
 * listens, removed on a clean shutdown. {@code solwebctl} trusts none of it alone: pid, start
 * ticks and instance generation must all match the live process and its {@code /healthz}.
 */
public record StateFile(
    @JsonProperty("pid") long pid,
    @JsonProperty("process_start_ticks") long processStartTicks,
    @JsonProperty("instance_generation") String instanceGeneration,
    @JsonProperty("port") int port,
    @JsonProperty("version") String version,
    @JsonProperty("seat") String seat) {

  public static final String NAME = "solwebd.state.json";
  private static final ObjectMapper JSON = Json.MAPPER;

  public void write(Path home) throws IOException {
    Path temp = home.resolve(NAME + ".tmp");
    Files.deleteIfExists(temp);
    Files.createFile(temp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    JSON.writeValue(temp.toFile(), this);
    Files.move(temp, home.resolve(NAME), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  /**
   * Reads {@code file} strictly: pid, start ticks and port integers in range, a non-empty
   * generation (unknown fields are ignored; a missing version reads {@code unknown}).
   *
   * @return empty when there is no state file (no daemon was started, or it shut down cleanly)
   * @throws IOException when the file is unreadable or malformed; the message says what is wrong
   */
  public static Optional<StateFile> read(Path file) throws IOException {
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
      return Optional.of(new StateFile(pid, ticks, generation.asText(), port,
          node.path("version").asText("unknown"), node.path("seat").asText(null)));
    } catch (RuntimeException e) {
      throw new IOException(e.getMessage(), e);
    }
  }

  /**
   * Waits for the state file of a daemon this process launched into {@code home} (a demo, a
   * benchmark): it appears once the daemon listens.
   *
   * @throws IllegalStateException when the daemon exits first (with its log) or {@code timeout} passes
   */
  public static StateFile await(Path home, Process daemon, Path log, Duration timeout) throws IOException {
    return Poll.until(timeout, Duration.ofMillis(20), () -> {
      Optional<StateFile> written = read(home.resolve(NAME));
      if (written.isEmpty() && !daemon.isAlive()) {
        throw new IllegalStateException("solwebd exited with " + daemon.exitValue() + ": " + Files.readString(log));
      }
      return written;
    }).orElseThrow(() -> new IllegalStateException("solwebd did not start within " + timeout.toSeconds() + " s"));
  }

  private static long requiredLong(JsonNode node, String field) throws IOException {
    JsonNode value = node.get(field);
    if (value == null || !value.canConvertToLong() || !value.isIntegralNumber()) {
      throw new IOException(field + " missing or not an integer");
    }
    return value.asLong();
  }
}

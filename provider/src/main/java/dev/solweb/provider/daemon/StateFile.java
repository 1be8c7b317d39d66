package dev.solweb.provider.daemon;

import dev.solweb.provider.platform.Json;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The running daemon's identity, {@code <home>/solwebd.state.json}: written atomically once it
 * listens, removed on a clean shutdown. {@code solwebctl} trusts a daemon only when pid, start
 * ticks and instance generation all match {@code /healthz} and {@code /proc}.
 */
public record StateFile(
    @JsonProperty("pid") long pid,
    @JsonProperty("process_start_ticks") long processStartTicks,
    @JsonProperty("instance_generation") String instanceGeneration,
    @JsonProperty("port") int port,
    @JsonProperty("version") String version,
    @JsonProperty("seat") String seat) {

  public static final String NAME = "solwebd.state.json";
  private static final ObjectMapper JSON =
      Json.MAPPER.copy().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  public void write(Path home) throws IOException {
    Path temp = home.resolve(NAME + ".tmp");
    Files.deleteIfExists(temp);
    Files.createFile(temp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    JSON.writeValue(temp.toFile(), this);
    Files.move(temp, home.resolve(NAME), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  public static StateFile read(Path home) throws IOException {
    return JSON.readValue(home.resolve(NAME).toFile(), StateFile.class);
  }
}

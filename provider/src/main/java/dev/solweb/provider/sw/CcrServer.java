package dev.solweb.provider.sw;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.solweb.provider.platform.Json;
import dev.solweb.provider.platform.Poll;
import java.io.File;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Makes sure claude-code-router answers on its port (the job of the owner's ccr-up.sh): a ccr
 * that answers is used as it is; a free port gets {@code ccr start}, detached into its own
 * session, logged to a file; a port held by anything that does not answer like ccr is an error
 * naming the port. ccr's {@code /health} and {@code /} need no key.
 */
final class CcrServer {
  private static final ObjectMapper JSON = Json.MAPPER;
  private static final Duration POLL = Duration.ofMillis(200);

  /** What is on the port. */
  enum Probe { CCR, FREE, FOREIGN }

  /** ccr could not be reached or started; the message says why and what to do. */
  static final class Unavailable extends Exception {
    Unavailable(String message) {
      super(message);
    }
  }

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).proxy(HttpClient.Builder.NO_PROXY).build();
  private final int port;

  CcrServer(int port) {
    this.port = port;
  }

  int port() {
    return port;
  }

  String baseUrl() {
    return "http://127.0.0.1:" + port;
  }

  Probe probe() {
    try {
      HttpResponse<String> health = get("/health");
      HttpResponse<String> root = get("/");
      JsonNode status = JSON.readTree(health.body());
      JsonNode banner = JSON.readTree(root.body());
      boolean ccr = health.statusCode() == 200 && "ok".equals(status.path("status").asText())
          && root.statusCode() == 200 && "LLMs API".equals(banner.path("message").asText());
      return ccr ? Probe.CCR : Probe.FOREIGN;
    } catch (ConnectException e) {
      return Probe.FREE;
    } catch (IOException e) {
      // Something accepted the connection but did not speak ccr's HTTP.
      return e.getCause() instanceof ConnectException ? Probe.FREE : Probe.FOREIGN;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Probe.FOREIGN;
    }
  }

  /**
   * Returns once ccr answers on the port, starting it if the port is free.
   *
   * @param env the environment ccr starts with (its HOME decides which config it reads)
   */
  void ensure(Path ccr, java.util.Map<String, String> env, Path log, Duration startTimeout) throws Unavailable {
    switch (probe()) {
      case CCR -> {
        return;
      }
      case FOREIGN -> throw new Unavailable("port " + port + " on 127.0.0.1 is in use by something that is not"
          + " claude-code-router (its /health and / do not answer like ccr); free it or set PORT in the ccr config");
      case FREE -> start(ccr, env, log, startTimeout);
      default -> throw new IllegalStateException("Unhandled probe result");
    }
  }

  private void start(Path ccr, java.util.Map<String, String> env, Path log, Duration startTimeout) throws Unavailable {
    if (!Files.isExecutable(ccr)) {
      throw new Unavailable("claude-code-router is not installed at " + ccr + "; run: npm ci --prefix <solweb>/tools/ccr");
    }
    List<String> command = new ArrayList<>();
    // Its own session: ccr is shared by later runs and must outlive this one (and its timeout group).
    if (Files.isExecutable(Path.of("/usr/bin/setsid"))) {
      command.add("/usr/bin/setsid");
    }
    command.add(ccr.toString());
    command.add("start");
    Process process;
    try {
      Files.createDirectories(log.getParent());
      ProcessBuilder builder = new ProcessBuilder(command)
          .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
          .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
          .redirectErrorStream(true);
      builder.environment().clear();
      builder.environment().putAll(env);
      process = builder.start();
    } catch (IOException e) {
      throw new Unavailable("cannot start claude-code-router (" + ccr + "): " + e.getMessage());
    }
    Optional<Probe> up = Poll.until(startTimeout, POLL, () -> {
      Probe probe = probe();
      if (probe == Probe.CCR) {
        return Optional.of(probe);
      }
      if (probe == Probe.FOREIGN) {
        throw new Unavailable("port " + port + " was taken by something that is not claude-code-router while ccr started");
      }
      if (!process.isAlive() && probe() != Probe.CCR) {
        throw new Unavailable("claude-code-router exited with code " + process.exitValue()
            + " before it answered on port " + port + "; see " + log);
      }
      return Optional.empty();
    });
    if (up.isPresent()) {
      return;
    }
    throw new Unavailable("claude-code-router did not answer on port " + port + " within "
        + startTimeout.toSeconds() + " s; see " + log);
  }

  private HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return http.send(HttpRequest.newBuilder(URI.create(baseUrl() + path)).timeout(Duration.ofSeconds(3)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }
}

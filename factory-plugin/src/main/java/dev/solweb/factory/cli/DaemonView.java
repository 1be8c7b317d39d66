package dev.solweb.factory.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.solweb.provider.platform.Json;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Views of the daemon for progress and status: {@code solwebctl token} (held in this process
 * only, never printed or passed on), {@code GET /healthz} and {@code GET /v1/conversations}.
 * Observation, never reservation: nothing here admits or queues a turn. The one write is
 * {@link #deleteConversations} ({@code factory-gpt run --cleanup}), asked for by name.
 */
final class DaemonView {

  private final Map<String, String> env;
  private final Path solwebctl;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2))
      .proxy(HttpClient.Builder.NO_PROXY).build();

  DaemonView(Map<String, String> env, Path solwebctl) {
    this.env = env;
    this.solwebctl = solwebctl;
  }

  /** The bearer token via {@code solwebctl token}, or empty when it refuses. */
  Optional<String> token() {
    return run("token").map(String::strip).filter(t -> !t.isEmpty());
  }

  /** {@code solwebctl <verb> --json} parsed, or empty. */
  Optional<JsonNode> ctlJson(String verb) {
    return run(verb, "--json").flatMap(text -> {
      try {
        return Optional.of(Json.MAPPER.readTree(text));
      } catch (IOException e) {
        return Optional.empty();
      }
    });
  }

  private Optional<String> run(String... args) {
    if (solwebctl == null) {
      return Optional.empty();
    }
    try {
      String[] command = new String[args.length + 1];
      command[0] = solwebctl.toString();
      System.arraycopy(args, 0, command, 1, args.length);
      ProcessBuilder pb = new ProcessBuilder(command)
          .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
          .redirectError(ProcessBuilder.Redirect.DISCARD);
      pb.environment().clear();
      pb.environment().putAll(env);
      Process p = pb.start();
      byte[] out = p.getInputStream().readAllBytes();
      if (!p.waitFor(15, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return Optional.empty();
      }
      return Optional.of(new String(out, StandardCharsets.UTF_8));
    } catch (IOException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  /** {@code GET <origin>/healthz} with the token; empty on any failure. */
  Optional<JsonNode> healthz(String baseUrl, String token) {
    return call(baseUrl, token, "/healthz", null, null, Duration.ofSeconds(3));
  }

  /** {@code GET <origin>/v1/conversations?client_session=...}: the conversations of one client session. */
  Optional<JsonNode> conversationsOf(String baseUrl, String token, String clientSession) {
    return call(baseUrl, token, "/v1/conversations", "client_session=" + clientSession, null, Duration.ofSeconds(10));
  }

  /**
   * {@code POST <origin>/v1/conversations/delete} of one client session's conversations (each
   * between turns, verified gone): the daemon's report, or empty when it did not answer 200.
   */
  Optional<JsonNode> deleteConversations(String baseUrl, String token, String clientSession) {
    String body = Json.MAPPER.createObjectNode().put("client_session", clientSession).toString();
    return call(baseUrl, token, "/v1/conversations/delete", null, body, Duration.ofMinutes(15));
  }

  private Optional<JsonNode> call(String baseUrl, String token, String path, String query, String body, Duration wait) {
    try {
      URI base = URI.create(baseUrl);
      URI uri = new URI(base.getScheme(), null, base.getHost(), base.getPort(), path, query, null);
      HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(wait).header("Authorization", "Bearer " + token);
      request = body == null ? request.GET()
          : request.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
      HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        return Optional.empty();
      }
      return Optional.of(Json.MAPPER.readTree(response.body()));
    } catch (IOException | IllegalArgumentException | java.net.URISyntaxException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }
}

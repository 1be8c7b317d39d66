package dev.solweb.provider.ctl;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;

/**
 * The two daemon routes solwebctl calls, on 127.0.0.1 only, with the bearer token.
 *
 * <p>The JDK client rather than Vert.x Web Client: one blocking call from a short-lived CLI
 * needs no event loop, and the JVM starts measurably faster without one.
 */
final class DaemonClient {

  /** The daemon did not answer at all (connection refused, reset, or timeout). */
  static final class Unreachable extends Exception {
    Unreachable(String message, Throwable cause) {
      super(message, cause);
    }
  }

  private static final ObjectMapper JSON = new ObjectMapper();
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).proxy(HttpClient.Builder.NO_PROXY).build();
  private final int port;
  private final String token;

  DaemonClient(int port, String token) {
    this.port = port;
    this.token = token;
  }

  /**
   * GET /healthz.
   *
   * @throws CtlException {@link ExitCodes#REFUSED} on 401, {@link ExitCodes#OWNERSHIP} on any
   *     other non-200 status or a body that is not a JSON object
   */
  JsonNode health() throws CtlException, Unreachable {
    HttpResponse<String> response = send(HttpRequest.newBuilder(uri("/healthz")).GET());
    if (response.statusCode() == 401) {
      throw new CtlException(ExitCodes.REFUSED, "solwebd on port " + port + " rejected the token (401)");
    }
    if (response.statusCode() != 200) {
      throw new CtlException(ExitCodes.OWNERSHIP,
          "malformed health: /healthz on port " + port + " answered HTTP " + response.statusCode());
    }
    try {
      JsonNode node = JSON.readTree(response.body());
      if (node == null || !node.isObject()) {
        throw new IOException("not a JSON object");
      }
      return node;
    } catch (IOException e) {
      throw new CtlException(ExitCodes.OWNERSHIP, "malformed health: /healthz body is not a JSON object", e);
    }
  }

  /** POST /shutdown; the daemon answers 200 and exits 0. */
  void shutdown() throws CtlException, Unreachable {
    HttpResponse<String> response =
        send(HttpRequest.newBuilder(uri("/shutdown")).POST(HttpRequest.BodyPublishers.noBody()));
    if (response.statusCode() != 200) {
      throw new CtlException(ExitCodes.OWNERSHIP,
          "solwebd on port " + port + " refused /shutdown with HTTP " + response.statusCode());
    }
  }

  private URI uri(String path) {
    return URI.create("http://127.0.0.1:" + port + path);
  }

  private HttpResponse<String> send(HttpRequest.Builder request) throws Unreachable {
    try {
      return http.send(
          request.header("Authorization", "Bearer " + token).timeout(Duration.ofSeconds(5)).build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (ConnectException | HttpTimeoutException e) {
      throw new Unreachable("solwebd does not answer on 127.0.0.1:" + port, e);
    } catch (IOException e) {
      throw new Unreachable("solwebd on 127.0.0.1:" + port + " closed the connection: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Unreachable("interrupted while asking solwebd on port " + port, e);
    }
  }
}

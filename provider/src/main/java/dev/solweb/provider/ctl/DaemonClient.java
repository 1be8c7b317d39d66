package dev.solweb.provider.ctl;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.solweb.provider.platform.Json;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.SocketTimeoutException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The daemon routes solwebctl calls, on 127.0.0.1 only, with the bearer token.
 *
 * <p>HttpURLConnection rather than Vert.x Web Client or java.net.http: one blocking call from a
 * short-lived CLI needs no event loop, and java.net.http's client set-up (selector thread, TLS
 * context) cost about half a second of every ensure/health on the 2-core test box.
 */
final class DaemonClient {

  /** The daemon did not answer at all (connection refused, reset, or timeout). */
  static final class Unreachable extends Exception {
    Unreachable(String message, Throwable cause) {
      super(message, cause);
    }
  }

  record Response(int status, String body) {}

  private static final ObjectMapper JSON = Json.MAPPER;
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
    Response response = send("GET", "/healthz");
    if (response.status() == 401) {
      throw new CtlException(ExitCodes.REFUSED, "solwebd on port " + port + " rejected the token (401)");
    }
    if (response.status() != 200) {
      throw new CtlException(ExitCodes.OWNERSHIP,
          "malformed health: /healthz on port " + port + " answered HTTP " + response.status());
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
    Response response = send("POST", "/shutdown");
    if (response.status() != 200) {
      throw new CtlException(ExitCodes.OWNERSHIP,
          "solwebd on port " + port + " refused /shutdown with HTTP " + response.status());
    }
  }

  /**
   * GET {@code path} of a page-reading route (/v1/doctor, /v1/capture): the daemon queues it like
   * a turn, so the wait covers a turn ahead of it. Returns the body of a 200.
   *
   * @throws CtlException {@link ExitCodes#REFUSED} on 401, {@link ExitCodes#REFUSED} with the
   *     daemon's typed message for any other status
   */
  String pageRead(String path, Duration wait) throws CtlException, Unreachable {
    return answered(send("GET", path, null, wait));
  }

  /**
   * POST {@code body} (JSON) to {@code path} and wait up to {@code wait}; returns the body of a 200.
   *
   * @throws CtlException {@link ExitCodes#REFUSED} on 401 or any other status, with the daemon's typed message
   */
  String postJson(String path, String body, Duration wait) throws CtlException, Unreachable {
    return answered(send("POST", path, body, wait));
  }

  private String answered(Response response) throws CtlException {
    if (response.status() == 401) {
      throw new CtlException(ExitCodes.REFUSED, "solwebd on port " + port + " rejected the token (401)");
    }
    if (response.status() != 200) {
      String message = response.body();
      try {
        JsonNode error = JSON.readTree(response.body()).path("error");
        message = error.path("message").asText(message);
      } catch (IOException e) {
        // Not our typed body: show it as it came.
      }
      throw new CtlException(ExitCodes.REFUSED, "solwebd answered HTTP " + response.status() + ": " + message);
    }
    return response.body();
  }

  private Response send(String method, String path) throws Unreachable {
    return send(method, path, null, Duration.ofSeconds(5));
  }

  private Response send(String method, String path, String json, Duration readTimeout) throws Unreachable {
    HttpURLConnection connection = null;
    try {
      connection = (HttpURLConnection) new URL("http", "127.0.0.1", port, path).openConnection(Proxy.NO_PROXY);
      connection.setRequestMethod(method);
      connection.setConnectTimeout(2_000);
      connection.setReadTimeout((int) readTimeout.toMillis());
      connection.setUseCaches(false);
      connection.setRequestProperty("Authorization", "Bearer " + token);
      if (method.equals("POST")) {
        byte[] bytes = json == null ? new byte[0] : json.getBytes(StandardCharsets.UTF_8);
        connection.setDoOutput(true);
        connection.setFixedLengthStreamingMode(bytes.length);
        if (json != null) {
          connection.setRequestProperty("Content-Type", "application/json");
        }
        connection.getOutputStream().write(bytes);
      }
      int status = connection.getResponseCode();
      InputStream body = status >= 400 ? connection.getErrorStream() : connection.getInputStream();
      return new Response(status, body == null ? "" : new String(body.readAllBytes(), StandardCharsets.UTF_8));
    } catch (ConnectException | SocketTimeoutException e) {
      throw new Unreachable("solwebd does not answer on 127.0.0.1:" + port, e);
    } catch (IOException e) {
      throw new Unreachable("solwebd on 127.0.0.1:" + port + " closed the connection: " + e.getMessage(), e);
    } finally {
      if (connection != null) {
        connection.disconnect();
      }
    }
  }
}

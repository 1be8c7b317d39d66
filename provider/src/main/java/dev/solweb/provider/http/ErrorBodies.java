package dev.solweb.provider.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.platform.Json;
import io.vertx.core.http.HttpServerResponse;

/**
 * Typed error bodies. A {@link ProviderFailure} always travels whole in
 * {@code error.metadata.raw}: Pi shows only {@code "<status> " + message} plus that field, and
 * the factory plugin parses it back into the attempt receipt.
 */
public final class ErrorBodies {
  private static final ObjectMapper JSON = Json.MAPPER;

  private ErrorBodies() {}

  public static ObjectNode failure(ProviderFailure failure) {
    ObjectNode root = JSON.createObjectNode();
    ObjectNode error = root.putObject("error");
    error.put("type", failure.kind().wireName());
    error.put("code", failure.kind().code());
    error.put("message", failure.message());
    error.putObject("metadata").put("raw", failure.toJson());
    if (failure.resumeAt() != null) {
      error.put("resume_at", failure.resumeAt());
    }
    if (failure.retryAfterSeconds() != null) {
      error.put("retry_after_seconds", failure.retryAfterSeconds());
    }
    return root;
  }

  public static ObjectNode request(String type, String message) {
    ObjectNode root = JSON.createObjectNode();
    ObjectNode error = root.putObject("error");
    error.put("type", type);
    error.put("code", type);
    error.put("message", message);
    return root;
  }

  /** Ends {@code response} with a failure's status, headers and body. */
  public static void send(HttpServerResponse response, ProviderFailure failure) {
    response.setStatusCode(failure.kind().httpStatus());
    response.putHeader("x-should-retry", failure.kind().clientMayRetry() ? "true" : "false");
    if (failure.retryAfterSeconds() != null) {
      response.putHeader("Retry-After", Long.toString(failure.retryAfterSeconds()));
    }
    json(response, failure(failure));
  }

  public static void sendRequestError(HttpServerResponse response, int status, String type, String message) {
    response.setStatusCode(status);
    response.putHeader("x-should-retry", "false");
    json(response, request(type, message));
  }

  public static void json(HttpServerResponse response, ObjectNode body) {
    if (response.ended() || response.closed()) {
      return;
    }
    response.putHeader("Content-Type", "application/json").end(body.toString());
  }
}

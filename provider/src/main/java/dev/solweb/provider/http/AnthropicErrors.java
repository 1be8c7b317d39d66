package dev.solweb.provider.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.platform.Json;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;

/**
 * Errors in Anthropic's shape, {@code {"type":"error","error":{"type","message"}}}, with the
 * statuses Claude Code's SDK reads: 400 {@code invalid_request_error}, 401
 * {@code authentication_error}, 404 {@code not_found_error}, 413 {@code request_too_large}, 429
 * {@code rate_limit_error} (a cap, with {@code Retry-After}), 529 {@code overloaded_error} (the
 * page unavailable), other 5xx {@code api_error}, which is never bad input. Every refusal carries
 * {@code x-should-retry: false}: nothing here gets better by asking again at once. The whole
 * {@link ProviderFailure} travels in {@code error.metadata.raw}, as on the other wires; a context
 * overflow's message starts "prompt is too long", the words Claude Code compacts on.
 */
final class AnthropicErrors {
  static final String VERSION_HEADER = "anthropic-version";
  private static final ObjectMapper JSON = Json.MAPPER;

  private AnthropicErrors() {}

  /** A request that speaks the Messages API: its path, or the header every Anthropic SDK sends. */
  static boolean speaks(HttpServerRequest request) {
    return request.path().startsWith("/v1/messages") || request.getHeader(VERSION_HEADER) != null;
  }

  /** Ends {@code response} with a refusal of the request itself (auth, route, body). */
  static void sendRequestError(HttpServerResponse response, int status, String message) {
    response.setStatusCode(status);
    response.putHeader("x-should-retry", "false");
    ErrorBodies.json(response, body(typeOf(status), message));
  }

  /** Ends {@code response} with a failure's status, {@code Retry-After} and body, before any stream committed. */
  static void send(HttpServerResponse response, ProviderFailure failure) {
    int status = statusOf(failure.kind());
    response.setStatusCode(status);
    response.putHeader("x-should-retry", "false");
    if (failure.retryAfterSeconds() != null) {
      response.putHeader("Retry-After", Long.toString(failure.retryAfterSeconds()));
    }
    ErrorBodies.json(response, failure(failure));
  }

  /** The body of a failure; also the data of a stream's {@code error} event. */
  static ObjectNode failure(ProviderFailure failure) {
    String message = failure.kind() == ProviderFailure.Kind.CONTEXT_OVERFLOW
        ? "prompt is too long: " + failure.message() : failure.message();
    ObjectNode root = body(typeOf(statusOf(failure.kind())), message);
    ObjectNode error = (ObjectNode) root.get("error");
    error.putObject("metadata").put("raw", failure.toJson());
    if (failure.resumeAt() != null) {
      error.put("resume_at", failure.resumeAt());
    }
    return root;
  }

  static ObjectNode body(String type, String message) {
    ObjectNode root = JSON.createObjectNode().put("type", "error");
    root.putObject("error").put("type", type).put("message", message);
    return root;
  }

  private static int statusOf(ProviderFailure.Kind kind) {
    return switch (kind) {
      case UNAVAILABLE -> 529;
      case CAPPED, CONTEXT_OVERFLOW, PROTOCOL, TIMEOUT, CANCELLED -> kind.httpStatus();
    };
  }

  private static String typeOf(int status) {
    return switch (status) {
      case 400 -> "invalid_request_error";
      case 401 -> "authentication_error";
      case 403 -> "permission_error";
      case 404 -> "not_found_error";
      case 413 -> "request_too_large";
      case 429 -> "rate_limit_error";
      case 529 -> "overloaded_error";
      default -> status < 500 ? "invalid_request_error" : "api_error";
    };
  }
}

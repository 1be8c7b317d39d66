package dev.solweb.provider.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.platform.Json;
import io.vertx.core.http.HttpServerResponse;
import java.time.Instant;

/**
 * Typed failures in the shapes a Responses client reads: an HTTP error body before the stream
 * commits, the {@code response.error} of {@code response.failed} after. The whole
 * {@link ProviderFailure} always travels in {@code metadata.raw}, as on the chat route, and
 * {@code message} is its {@code "<kind>: <detail>"}, which Codex prints.
 *
 * <p>A cap is {@code type}/{@code code} {@code usage_limit_reached} with {@code resets_at} (epoch
 * seconds): Codex 0.169 reads that on a 429 as its own usage limit and stops at once, printing the
 * reset time; any other 429 it waits out per {@code Retry-After} (measured: a capped daemon kept
 * it waiting for the whole cap). Overflow keeps {@code context_length_exceeded}, which Codex
 * treats as a full context window and never retries.
 */
final class ResponsesErrors {
  private static final ObjectMapper JSON = Json.MAPPER;

  private ResponsesErrors() {}

  /** Ends {@code response} with the failure's status, {@code Retry-After} and body. */
  static void send(HttpServerResponse response, ProviderFailure failure) {
    response.setStatusCode(failure.kind().httpStatus());
    response.putHeader("x-should-retry", failure.kind().clientMayRetry() ? "true" : "false");
    if (failure.retryAfterSeconds() != null) {
      response.putHeader("Retry-After", Long.toString(failure.retryAfterSeconds()));
    }
    ObjectNode root = JSON.createObjectNode();
    root.set("error", body(failure));
    ErrorBodies.json(response, root);
  }

  static ObjectNode streamError(ProviderFailure failure) {
    return body(failure);
  }

  private static ObjectNode body(ProviderFailure failure) {
    ObjectNode error = JSON.createObjectNode();
    boolean cap = failure.kind() == ProviderFailure.Kind.CAPPED;
    error.put("type", cap ? "usage_limit_reached" : failure.kind().wireName());
    error.put("code", cap ? "usage_limit_reached" : failure.kind().code());
    error.put("message", failure.message());
    error.putNull("param");
    error.putObject("metadata").put("raw", failure.toJson());
    if (failure.resumeAt() != null) {
      error.put("resume_at", failure.resumeAt());
      error.put("resets_at", Instant.parse(failure.resumeAt()).getEpochSecond());
    }
    if (failure.retryAfterSeconds() != null) {
      error.put("retry_after_seconds", failure.retryAfterSeconds());
    }
    return error;
  }
}

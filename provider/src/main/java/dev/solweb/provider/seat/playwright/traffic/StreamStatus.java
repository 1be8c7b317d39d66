package dev.solweb.provider.seat.playwright.traffic;

import com.fasterxml.jackson.databind.JsonNode;
import dev.solweb.provider.platform.Json;
import java.io.IOException;
import java.util.Locale;

/**
 * The page's {@code GET /backend-api/conversation/<id>/stream_status} (../shared/REAL-PAGE.md rows
 * 18 and 30): whether the conversation's answer is still being written, finished, or failed. It is
 * what the page itself polls when it cannot follow a stream, so it is what the seat asks before
 * any DOM rule. "Connection interrupted" keeps {@code IS_STREAMING}: that is not an end. Pure.
 */
public enum StreamStatus {
  IS_STREAMING, COMPLETE, FAILURE, UNKNOWN;

  /** Reads a stream-status answer: {@code {"status": ...}} (or {@code stream_status}, or a bare string); a 404 is {@code UNKNOWN}. */
  public static StreamStatus decode(int httpStatus, byte[] body) {
    if (httpStatus != 200 || body == null) {
      return UNKNOWN;
    }
    JsonNode root;
    try {
      root = Json.MAPPER.readTree(body);
    } catch (IOException | RuntimeException e) {
      return UNKNOWN;
    }
    JsonNode value = root == null ? null : root.isTextual() ? root
        : root.path("status").isTextual() ? root.path("status") : root.path("stream_status");
    if (value == null || !value.isTextual()) {
      return UNKNOWN;
    }
    return switch (value.asText().toUpperCase(Locale.ROOT)) {
      case "IS_STREAMING", "STREAMING" -> IS_STREAMING;
      case "COMPLETE", "COMPLETED" -> COMPLETE;
      case "FAILURE", "FAILED" -> FAILURE;
      default -> UNKNOWN;
    };
  }
}

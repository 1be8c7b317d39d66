package dev.solweb.provider.failure;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.solweb.provider.platform.Json;
import java.time.Instant;
import java.util.Objects;

/**
 * The one failure type that travels end to end: seat, dispatcher, HTTP status or in-stream
 * error event, Pi's error text ({@code error.metadata.raw}), Factory attempt receipt.
 *
 * <p>Its compact JSON form ({@link #toJson()}) is a wire contract: the factory plugin parses it
 * back out of Pi's error message, so field names and order never change.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ProviderFailure(
    @JsonProperty("kind") Kind kind,
    @JsonProperty("detail") String detail,
    @JsonProperty("retry_after_seconds") Long retryAfterSeconds,
    @JsonProperty("resume_at") String resumeAt) {

  private static final ObjectMapper JSON = Json.MAPPER;

  public ProviderFailure {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(detail, "detail");
  }

  public static ProviderFailure of(Kind kind, String detail) {
    return new ProviderFailure(kind, detail, null, null);
  }

  /** A usage cap that lifts at {@code resumeAt}; Retry-After is derived from {@code now}. */
  public static ProviderFailure capped(String detail, Instant resumeAt, Instant now) {
    return until(Kind.CAPPED, detail, resumeAt, now);
  }

  /** A failure that lasts until {@code resumeAt} (a cap, an account's pause); Retry-After is derived from {@code now}. */
  public static ProviderFailure until(Kind kind, String detail, Instant resumeAt, Instant now) {
    long seconds = Math.max(1, resumeAt.getEpochSecond() - now.getEpochSecond());
    return new ProviderFailure(kind, detail, seconds, resumeAt.toString());
  }

  /** The same failure with its retry-after recomputed against {@code now} (caps and pauses age while queued). */
  public ProviderFailure at(Instant now) {
    if (resumeAt == null) {
      return this;
    }
    return until(kind, detail, Instant.parse(resumeAt), now);
  }

  /** The client-visible message: {@code "<kind>: <detail>[ resume_at=<iso>]"}. */
  public String message() {
    return kind.wireName() + ": " + detail + (resumeAt == null ? "" : " resume_at=" + resumeAt);
  }

  /** Compact JSON, field order fixed: kind, detail, retry_after_seconds, resume_at. */
  public String toJson() {
    try {
      return JSON.writeValueAsString(this);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("ProviderFailure is always serializable", e);
    }
  }

  public static ProviderFailure fromJson(String json) throws JsonProcessingException {
    return JSON.readValue(json, ProviderFailure.class);
  }

  /** The failure kinds. HTTP status is what a client sees before the stream is committed. */
  public enum Kind {
    @JsonProperty("capped") CAPPED("capped", 429, "usage_cap"),
    @JsonProperty("unavailable") UNAVAILABLE("unavailable", 503, "provider_unavailable"),
    @JsonProperty("protocol") PROTOCOL("protocol", 502, "protocol_violation"),
    @JsonProperty("context_overflow") CONTEXT_OVERFLOW("context_overflow", 400, "context_length_exceeded"),
    @JsonProperty("timeout") TIMEOUT("timeout", 504, "turn_timeout"),
    @JsonProperty("cancelled") CANCELLED("cancelled", 499, "client_cancelled");

    private final String wireName;
    private final int httpStatus;
    private final String code;

    Kind(String wireName, int httpStatus, String code) {
      this.wireName = wireName;
      this.httpStatus = httpStatus;
      this.code = code;
    }

    public String wireName() {
      return wireName;
    }

    public int httpStatus() {
      return httpStatus;
    }

    /** The OpenAI-style {@code error.code}. */
    public String code() {
      return code;
    }

    /**
     * Whether a client may retry this at once. Nothing here is worth an immediate retry:
     * caps and outages need time, protocol drift is already repaired once, overflow is the
     * client's compaction to fix, and a timeout already held a seat for the whole budget.
     */
    public boolean clientMayRetry() {
      return false;
    }
  }
}

package dev.solweb.factory.pi;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One Pi tool execution, as Factory shows it (seed 001 "Observability"): arguments and result
 * bounded to {@link #BOUND} characters each, wall duration, and status {@code ok|error}.
 */
public record ToolEvent(
    @JsonProperty("tool_call_id") String toolCallId,
    @JsonProperty("tool") String tool,
    @JsonProperty("args") String args,
    @JsonProperty("result") String result,
    @JsonProperty("status") String status,
    @JsonProperty("duration_ms") long durationMs) {

  public static final int BOUND = 2000;

  /** Cuts {@code text} to {@link #BOUND} characters, saying how much was cut. */
  public static String bound(String text) {
    if (text == null || text.length() <= BOUND) {
      return text;
    }
    return text.substring(0, BOUND) + "...[" + (text.length() - BOUND) + " more chars]";
  }
}

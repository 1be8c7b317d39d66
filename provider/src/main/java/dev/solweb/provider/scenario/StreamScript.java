package dev.solweb.provider.scenario;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * fakesol only: how the page's own conversation stream carries a reply (../shared/CHATGPT-STREAM.md).
 * ScriptedSeat has no stream and ignores it, except that the HTTP errors fail the send as the page would.
 *
 * @param format {@code v1} (delta encoding, the default) or {@code cumulative} (the older format)
 * @param fault how the stream misbehaves, if at all; see {@link Fault}
 * @param silenceMs for {@code silence_resume}: how long the POST body stays silent before the page resumes
 * @param clearsInSeconds for {@code http_429}: the {@code clears_in} of the 429 body
 * @param resendOlder the body first re-sends the conversation's older answers, already finished
 * @param modelAdjustments {@code model_adjustments} on the answer, e.g. {@code auto:smaller_model:reached_message_cap}
 */
public record StreamScript(
    @JsonProperty("format") Format format,
    @JsonProperty("fault") Fault fault,
    @JsonProperty("silence_ms") long silenceMs,
    @JsonProperty("clears_in_s") Long clearsInSeconds,
    @JsonProperty("resend_older") boolean resendOlder,
    @JsonProperty("model_adjustments") List<String> modelAdjustments) {

  public static final StreamScript DEFAULT = new StreamScript(null, null, 0, null, false, null);

  public StreamScript {
    format = format == null ? Format.V1 : format;
    modelAdjustments = modelAdjustments == null ? List.of() : List.copyOf(modelAdjustments);
  }

  /** The body's encoding. */
  public enum Format {
    @JsonProperty("v1") V1,
    @JsonProperty("cumulative") CUMULATIVE
  }

  /** Stream faults: each one a behaviour CHATGPT-STREAM.md names. */
  public enum Fault {
    /** The body ends after the answer's text but before its finish and the terminal frames (a drop). */
    @JsonProperty("cut") CUT,
    /** The body goes silent mid-answer; the page aborts it and continues over {@code /resume}. */
    @JsonProperty("silence_resume") SILENCE_RESUME,
    /** The body ends with {@code stream_handoff}; the answer comes over a WebSocket. */
    @JsonProperty("handoff_ws") HANDOFF_WS,
    /** The body ends with {@code stream_handoff}; the page follows in a way the seat cannot see (the DOM only). */
    @JsonProperty("handoff_unfollowed") HANDOFF_UNFOLLOWED,
    /** HTTP 429 with a JSON {@code detail} holding {@code clears_in}. */
    @JsonProperty("http_429") HTTP_429,
    /** HTTP 403 "Unusual activity has been detected from your device". */
    @JsonProperty("http_403") HTTP_403
  }
}

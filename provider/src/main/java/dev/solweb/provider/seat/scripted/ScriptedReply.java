package dev.solweb.provider.seat.scripted;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * One scripted answer, or one scripted fault, for one send.
 *
 * @param blocks the answer's code blocks, raw text between the fences
 * @param prose the visible text outside code blocks
 * @param delayMs how long the answer takes after Send
 * @param fault a fault instead of (or, for page behaviours, along with) the answer; see {@link Fault}
 * @param resumeAt for cap faults: when the cap lifts (ISO-8601); else {@code resumeInSeconds}
 * @param resumeInSeconds for cap faults: seconds from now until the cap lifts
 * @param modelSlug the model slug the answer carries (default: the one for the effort in force)
 * @param effortLabel the effort label the page reads back for this send (default: the one set)
 * @param images image file names the answer carries (one-shot asks)
 * @param thinkingMs fakesol: a pause with Stop visible before text appears
 * @param falsePauseMs fakesol: text stable and Stop gone, but no action bar yet, for this long
 * @param streamMs fakesol: the answer streams in over this long
 * @param rerenderPrevious fakesol: an older turn re-renders while this one streams
 * @param stream fakesol: how the page's conversation stream carries this reply ({@link StreamScript})
 */
public record ScriptedReply(
    @JsonProperty("blocks") List<String> blocks,
    @JsonProperty("prose") String prose,
    @JsonProperty("delay_ms") long delayMs,
    @JsonProperty("fault") Fault fault,
    @JsonProperty("resume_at") String resumeAt,
    @JsonProperty("resume_in_s") Long resumeInSeconds,
    @JsonProperty("model_slug") String modelSlug,
    @JsonProperty("effort_label") String effortLabel,
    @JsonProperty("images") List<String> images,
    @JsonProperty("thinking_ms") long thinkingMs,
    @JsonProperty("false_pause_ms") long falsePauseMs,
    @JsonProperty("stream_ms") long streamMs,
    @JsonProperty("rerender_previous") boolean rerenderPrevious,
    @JsonProperty("stream") StreamScript stream) {

  public ScriptedReply {
    blocks = blocks == null ? List.of() : List.copyOf(blocks);
    prose = prose == null ? "" : prose;
    images = images == null ? List.of() : List.copyOf(images);
    stream = stream == null ? StreamScript.DEFAULT : stream;
  }

  public static ScriptedReply answer(List<String> blocks, String prose) {
    return new ScriptedReply(blocks, prose, 0, null, null, null, null, null, null, 0, 0, 0, false, null);
  }

  public static ScriptedReply fault(Fault fault) {
    return new ScriptedReply(null, null, 0, fault, null, null, null, null, null, 0, 0, 0, false, null);
  }

  /** Faults a scenario can script. Page-only ones are shown by fakesol; ScriptedSeat maps them. */
  public enum Fault {
    /** Usage-cap banner after Send: {@code capped} with resume_at. */
    @JsonProperty("cap") CAP,
    /** Plan-limit banner and the answer comes from a lower model: {@code capped}. */
    @JsonProperty("cap_downgrade") CAP_DOWNGRADE,
    /** Login wall instead of the composer, before Send: {@code unavailable}. */
    @JsonProperty("logged_out") LOGGED_OUT,
    /** Cloudflare challenge page, before Send: {@code unavailable}. */
    @JsonProperty("cloudflare") CLOUDFLARE,
    /** The browser dies after Send. */
    @JsonProperty("crash") CRASH,
    /** The browser dies before Send. */
    @JsonProperty("crash_before_send") CRASH_BEFORE_SEND,
    /** Send is clicked and no answer ever completes (until stopped). */
    @JsonProperty("hang") HANG,
    /** "Something went wrong" with a Retry button, after Send: {@code unavailable}. */
    @JsonProperty("something_went_wrong") SOMETHING_WENT_WRONG,
    /** "The message you submitted was too long", nothing sent: {@code context_overflow}. */
    @JsonProperty("too_long") TOO_LONG,
    /** The conversation is gone when resumed: a safe full replay. */
    @JsonProperty("deleted") DELETED
  }
}

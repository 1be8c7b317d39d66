package dev.solweb.provider.scenario;

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
 * @param flashActionBar fakesol: during {@code thinking_ms} the finished-action bar flashes on and
 *     off while the turn still thinks (oracle's history, REAL-PAGE row 3)
 * @param preamble fakesol: a Pro preamble that renders and settles (no Stop, no thinking signal)
 *     for {@code preamble_ms} before thinking starts and the answer follows
 * @param preambleMs fakesol: how long the settled preamble holds (default 1500)
 * @param noDurableUrl fakesol: the address bar never shows /c/&lt;id&gt; for this conversation
 *     (onflip: 7 of 25 new chats)
 * @param safetyReviewMs fakesol: mid-answer, a safety-review status line holds the text still this
 *     long while the model works on (REAL-PAGE row 19)
 * @param connectionInterruptedMs fakesol: mid-answer, "Connection interrupted. Waiting for the
 *     complete answer" holds the text still this long, then the answer goes on (rows 19, 30)
 * @param turnStateStuck fakesol, 2026-10: the exchange's data-talvt-turn-state stays in_progress
 *     after the answer is complete (row 14)
 * @param canvas fakesol: the answer opens a Canvas, a CodeMirror editor on the page (row 15)
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
    @JsonProperty("flash_action_bar") boolean flashActionBar,
    @JsonProperty("preamble") String preamble,
    @JsonProperty("preamble_ms") long preambleMs,
    @JsonProperty("no_durable_url") boolean noDurableUrl,
    @JsonProperty("stream") StreamScript stream,
    @JsonProperty("safety_review_ms") long safetyReviewMs,
    @JsonProperty("connection_interrupted_ms") long connectionInterruptedMs,
    @JsonProperty("turn_state_stuck") boolean turnStateStuck,
    @JsonProperty("canvas") boolean canvas) {

  public ScriptedReply {
    blocks = blocks == null ? List.of() : List.copyOf(blocks);
    prose = prose == null ? "" : prose;
    images = images == null ? List.of() : List.copyOf(images);
    stream = stream == null ? StreamScript.DEFAULT : stream;
    preambleMs = preambleMs <= 0 ? 1500 : preambleMs;
  }

  public static ScriptedReply answer(List<String> blocks, String prose) {
    return new ScriptedReply(blocks, prose, 0, null, null, null, null, null, null, 0, 0, 0, false, false, null, 0, false, null, 0, 0, false, false);
  }

  public static ScriptedReply fault(Fault fault) {
    return new ScriptedReply(null, null, 0, fault, null, null, null, null, null, 0, 0, 0, false, false, null, 0, false, null, 0, 0, false, false);
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
    /**
     * "Files, images, and data analysis are unavailable until usage resets at ..." (REAL-PAGE row
     * 7): text turns still work; an ask with attachments fails {@code capped} before Send.
     */
    @JsonProperty("feature_cap") FEATURE_CAP,
    /**
     * A turn's file upload fails (the page's processing stream ends {@code .failed}, REAL-PAGE row
     * 45): {@code unavailable} before anything is typed, nothing sent. A turn without files answers.
     */
    @JsonProperty("upload_failed") UPLOAD_FAILED,
    /**
     * The page's uploads are capped ({@code POST /backend-api/files} 429 {@code throttled}, row 49):
     * {@code capped} with resume_at before anything is typed. A turn without files answers.
     */
    @JsonProperty("upload_throttled") UPLOAD_THROTTLED,
    /** "ChatGPT is at capacity right now" after Send: {@code unavailable}. */
    @JsonProperty("capacity") CAPACITY,
    /**
     * "Unusual activity has been detected from your device" after Send: {@code unavailable}, and the
     * whole account stops until a person clears it (REAL-PAGE row 53).
     */
    @JsonProperty("unusual_activity") UNUSUAL_ACTIVITY,
    /**
     * The "Too many requests" modal over the composer before anything is typed (REAL-PAGE row 52):
     * {@code unavailable} with {@code retry_after_seconds}, and the whole account pauses. On the
     * scripted seat only (fakesol shows the modal by its burst rule and its {@code modal} shape).
     */
    @JsonProperty("too_many_requests") TOO_MANY_REQUESTS,
    /**
     * "You've reached the maximum length for this conversation..." in the answer (REAL-PAGE row
     * 8): {@code context_overflow} for this turn; the next turn goes to a fresh conversation.
     */
    @JsonProperty("conversation_full") CONVERSATION_FULL,
    /** The conversation is gone when resumed: a safe full replay. */
    @JsonProperty("deleted") DELETED,
    /**
     * The model asks a STRUCTURED QUESTION and ends its turn waiting for the user ("Waiting for
     * your answer", a form with Submit/Skip: REAL-PAGE row 29); {@code prose} is the question. It
     * has not answered: {@code unavailable} after Send, never a final answer.
     */
    @JsonProperty("structured_question") STRUCTURED_QUESTION,
    /**
     * REAL-PAGE row 51: the turn request is refused HTTP 429 with the code
     * {@code model_cap_exceeded} and {@code clears_in} (from {@code resume_at} or
     * {@code resume_in_s}): {@code capped} after Send.
     */
    @JsonProperty("model_cap_exceeded") MODEL_CAP_EXCEEDED,
    /**
     * REAL-PAGE row 51: at the cap the answer silently comes from a smaller model (the stream
     * names it, with {@code model_adjustments: auto:smaller_model:reached_message_cap}) and no
     * banner shows: {@code capped} after Send, the answer is not taken.
     */
    @JsonProperty("smaller_model") SMALLER_MODEL
  }
}

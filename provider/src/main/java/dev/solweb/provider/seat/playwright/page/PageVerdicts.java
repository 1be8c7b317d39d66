package dev.solweb.provider.seat.playwright.page;

import dev.solweb.provider.failure.ProviderFailure.Kind;
import dev.solweb.provider.seat.SeatProbe;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The ONE table from what a banner, toast, dialog or in-message error says to what it means for a
 * turn. Texts are the ones peers saw on chatgpt.com (REAL-PAGE rows 7, 8, 19, 20, 29, 30, CHATGPT-DOM.md);
 * the first matching row wins, so the narrower texts come first. Each verdict carries, as data,
 * what every reader of page state needs: the failure kind, its wording, and the probe state a
 * page showing it is in; {@code SeatFaults} (the seat) and the doctor both read it from here.
 */
public final class PageVerdicts {

  /**
   * What a page text means: the typed failure ({@code kind}, null when it stops no turn), the
   * detail's wording ({@code %s} is the page's text), what it adds before and after Send, and the
   * state a probe reports for a page that shows it (null: the page is still usable).
   */
  public enum Verdict {
    /** "The message you submitted was too long": context_overflow, nothing sent. */
    TOO_LONG(Kind.CONTEXT_OVERFLOW, null, "ChatGPT refused the message as too long: %s", "", ""),
    /** "You've reached the maximum length for this conversation": context_overflow, next turn fresh. */
    CONVERSATION_FULL(Kind.CONTEXT_OVERFLOW, null, "ChatGPT says the conversation reached its maximum length (\"%s\");"
        + " nothing was resent, the next turn goes to a new conversation", "", ""),
    /** "Files, images, and data analysis are unavailable until ...": fails asks with attachments only. */
    FEATURE_CAP(Kind.CAPPED, null, "uploads are capped: %s", "", ""),
    /** A plan limit that answers from another model: capped. */
    CAP_DOWNGRADE(Kind.CAPPED, SeatProbe.State.CAPPED, "usage cap: %s", "", ""),
    /** A message cap: capped with resume_at. */
    CAP(Kind.CAPPED, SeatProbe.State.CAPPED, "usage cap: %s", "", ""),
    /** "ChatGPT is at capacity", "high demand": unavailable (transient). */
    CAPACITY(Kind.UNAVAILABLE, SeatProbe.State.ERROR, "ChatGPT is over capacity: \"%s\"", NOT_SENT, ""),
    /**
     * Rows 41, 52: the rate-limit modal over the composer and picker, told by its test id or id in
     * any language ("Too many requests" in English). No click goes through it. A turn that meets it
     * fails {@code unavailable} and pauses the whole account ({@code SeatFaults.answerModal}); the
     * first turn after the pause dismisses it, at most three times. Its kind here serves the probe
     * (the page reads as capped while it shows).
     */
    RATE_LIMIT(Kind.CAPPED, SeatProbe.State.CAPPED, "ChatGPT's rate-limit modal covers the page (\"%s\"): it limits requests"
        + " for a few minutes", NOT_SENT, "; nothing was resent"),
    /** "Unusual activity ...": unavailable; a person must look at the account. */
    UNUSUAL_ACTIVITY(Kind.UNAVAILABLE, SeatProbe.State.ERROR,
        "ChatGPT reports unusual activity (a person must look at the account): \"%s\"", NOT_SENT, ""),
    /** The conversation is gone. */
    MISSING(Kind.UNAVAILABLE, null, "%s", "", ""),
    /**
     * A STRUCTURED QUESTION (REAL-PAGE row 29): the turn ended "Waiting for your answer" with a
     * form; the model waits for the user and has not answered. Only the answer's own turn is read
     * for it, so it fails the turn that asked, after Send, never a later one.
     */
    QUESTION(Kind.UNAVAILABLE, null, "ChatGPT asked a structured question and waits for the user (\"%s\"): the model has"
        + " not answered", "", "; nothing was resent"),
    /** "Something went wrong" and its kin, shown with Retry: unavailable; Retry is never clicked. */
    ERROR(Kind.UNAVAILABLE, SeatProbe.State.ERROR, "ChatGPT showed \"%s\"", "",
        "; Retry was not clicked and nothing was resent"),
    /** Rows 19/30: "Connection interrupted. Waiting for the complete answer": the answer still comes; not an end. */
    INTERRUPTED(null, null, "%s", "", ""),
    /** Row 19: a safety review ("Our systems are doing additional processing"): a phase while the model works, not an end. */
    REVIEWING(null, null, "%s", "", ""),
    /** Anything else: not a fault. */
    OTHER(null, null, "%s", "", "");

    private final Kind kind;
    private final SeatProbe.State probe;
    private final String wording;
    private final String beforeSend;
    private final String afterSend;

    Verdict(Kind kind, SeatProbe.State probe, String wording, String beforeSend, String afterSend) {
      this.kind = kind;
      this.probe = probe;
      this.wording = wording;
      this.beforeSend = beforeSend;
      this.afterSend = afterSend;
    }

    /** The failure kind this text means for a turn; null when it stops none. */
    public Kind kind() {
      return kind;
    }

    /** The probe state of a page that shows it; null when the page is still usable. */
    public SeatProbe.State probe() {
      return probe;
    }

    /** The failure's detail for a page text {@code text}, before or after the Send boundary. */
    public String detail(String text, boolean sent) {
      return wording.formatted(text) + (sent ? afterSend : beforeSend);
    }

    /** Whether a fresh load may clear it (a banner left from an earlier turn). */
    public boolean fault() {
      return kind != null && this != FEATURE_CAP;
    }

    /** Whether it is a usage cap whose text may name when it lifts. */
    public boolean cap() {
      return kind == Kind.CAPPED;
    }

    /** Whether the conversation can take no further turn: the next one goes to a fresh conversation. */
    public boolean retiresConversation() {
      return this == CONVERSATION_FULL;
    }

    /**
     * Whether it says the model still works on the answer (rows 19, 30: a connection that recovers,
     * a safety review): live work like thinking, so a turn showing it is not complete.
     */
    public boolean working() {
      return this == INTERRUPTED || this == REVIEWING;
    }

    /** Whether it stops only a turn that uploads files (a feature cap: text turns still work). */
    public boolean onlyWithAttachments() {
      return this == FEATURE_CAP;
    }
  }

  private static final String NOT_SENT = "; nothing was sent";

  /** Row 20: the page's own error codes (HTTP bodies, stream error frames), each with its verdict. */
  private static final Map<String, Verdict> CODES = Map.of(
      "conversation_too_large", Verdict.CONVERSATION_FULL,
      "model_cap_exceeded", Verdict.CAP,
      "work_usage_limit_exceeded", Verdict.CAP,
      "conversation_not_found", Verdict.MISSING,
      "conversation_deleted", Verdict.MISSING,
      "history_disabled_conversation_not_found", Verdict.MISSING,
      "history_disabled_conversation_expired", Verdict.MISSING);

  private record Row(Pattern text, Verdict verdict) { }

  private static final List<Row> TABLE = List.of(
      row("message you submitted was too long", Verdict.TOO_LONG),
      row("maximum length for this conversation|maximum conversation length|conversation is too long"
          + "|достигли максимальной длины", Verdict.CONVERSATION_FULL),
      row("(?:files|images|uploads|data analysis)[^.]{0,60}(?:unavailable|not available) until", Verdict.FEATURE_CAP),
      row("responses will use another model|hit the .{0,40}plan limit", Verdict.CAP_DOWNGRADE),
      row("reached (?:our|the current|your) (?:limit|usage cap)|limit of messages|usage cap"
          + "|too many requests|sending too many requests|too quickly|temporarily limited access"
          + "|limit resets|plan limit", Verdict.CAP),
      row("at capacity|high demand|experiencing heavy load|перегружен", Verdict.CAPACITY),
      row("unusual activity|suspicious activity|необычн\\S* активност", Verdict.UNUSUAL_ACTIVITY),
      row("unable to load conversation|conversation not found|conversation you requested does not exist"
          // openai/codex#42834: what the site says for a deleted conversation
          + "|conversation has been deleted",
          Verdict.MISSING),
      row("waiting for your answer|ожидание вашего ответа", Verdict.QUESTION),
      // Row 30: interrupted is not an end (Stop stays, stream_status IS_STREAMING); the terminal texts below are.
      row("connection interrupted|соединение прервано", Verdict.INTERRUPTED),
      row("systems are doing additional processing|additional processing|выполняют дополнительную обработку",
          Verdict.REVIEWING),
      row("something went wrong|error generating a response|network error occurred|message delivery timed out"
          + "|thinking failed|stream cache expired|stream recovery polling timed out|resume stream unavailable"
          + "|error in message stream|analysis errored|что-то пошло не так", Verdict.ERROR));

  private PageVerdicts() {}

  private static Row row(String regex, Verdict verdict) {
    return new Row(Pattern.compile(regex, Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE), verdict);
  }

  /** The verdict of one of the page's error codes ({@code conversation_too_large}, ...), if it is one of row 20's. */
  public static Optional<Verdict> byCode(String code) {
    return code == null ? Optional.empty() : Optional.ofNullable(CODES.get(code.toLowerCase(java.util.Locale.ROOT)));
  }

  public static Verdict verdict(String text) {
    for (Row row : TABLE) {
      if (row.text().matcher(text).find()) {
        return row.verdict();
      }
    }
    return Verdict.OTHER;
  }
}

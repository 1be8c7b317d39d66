package dev.solweb.provider.seat.playwright;

import java.util.List;
import java.util.regex.Pattern;

/**
 * The ONE table from what a banner, toast, dialog or in-message error says to what it means for a
 * turn. Texts are the ones peers saw on chatgpt.com (REAL-PAGE rows 7 and 8, CHATGPT-DOM.md);
 * the first matching row wins, so the narrower texts come first.
 */
final class PageVerdicts {

  /** What a page text means. */
  enum Verdict {
    /** "The message you submitted was too long": context_overflow, nothing sent. */
    TOO_LONG,
    /** "You've reached the maximum length for this conversation": context_overflow, next turn fresh. */
    CONVERSATION_FULL,
    /** "Files, images, and data analysis are unavailable until ...": fails asks with attachments only. */
    FEATURE_CAP,
    /** A plan limit that answers from another model: capped. */
    CAP_DOWNGRADE,
    /** A message cap: capped with resume_at. */
    CAP,
    /** "ChatGPT is at capacity", "high demand": unavailable (transient). */
    CAPACITY,
    /** "Unusual activity ...": unavailable; a person must look at the account. */
    UNUSUAL_ACTIVITY,
    /** The conversation is gone. */
    MISSING,
    /** "Something went wrong" and its kin, shown with Retry: unavailable; Retry is never clicked. */
    ERROR,
    /** Anything else: not a fault. */
    OTHER;

    /** Whether a fresh load may clear it (a banner left from an earlier turn). */
    boolean fault() {
      return this != OTHER && this != FEATURE_CAP;
    }
  }

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
      row("something went wrong|error generating a response|network error occurred|message delivery timed out"
          + "|connection interrupted|thinking failed|stream cache expired|resume stream unavailable"
          + "|error in message stream|analysis errored|что-то пошло не так", Verdict.ERROR));

  private PageVerdicts() {}

  private static Row row(String regex, Verdict verdict) {
    return new Row(Pattern.compile(regex, Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE), verdict);
  }

  static Verdict verdict(String text) {
    for (Row row : TABLE) {
      if (row.text().matcher(text).find()) {
        return row.verdict();
      }
    }
    return Verdict.OTHER;
  }
}

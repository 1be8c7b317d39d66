package dev.solweb.killgate.fakesol;

import dev.solweb.provider.model.Effort;
import dev.solweb.provider.scenario.ScriptedReply;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * The account's limits as the page words them: the cap banners (REAL-PAGE row 7), when a capped
 * reply resumes, and which model answers an effort (or a capped account, row 51).
 */
final class CapBanners {

  /** The model a capped account's answer comes from, with no banner ({@code smaller_model}). */
  static final String SMALLER_SLUG = "gpt-5-6-mini";
  private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("h:mm a", Locale.US);

  private final Clock clock;

  CapBanners(Clock clock) {
    this.clock = clock;
  }

  /** When a capped reply's limit resets: its scripted time, else in its scripted seconds, else in an hour. */
  Instant resumeAt(ScriptedReply reply) {
    if (reply.resumeAt() != null) {
      return Instant.parse(reply.resumeAt());
    }
    return clock.instant().plusSeconds(reply.resumeInSeconds() != null ? reply.resumeInSeconds() : 3600);
  }

  /**
   * The banner words ChatGPT uses. A whole number of hours reads "in N hours" (as the real page
   * does for long caps); any other time reads as a clock time in this machine's zone.
   *
   * @param kind {@code downgrade} for the answer-from-another-model banner, else null
   */
  String capText(Instant resumeAt, String kind) {
    long seconds = resumeAt.getEpochSecond() - clock.instant().getEpochSecond();
    String when = seconds > 0 && seconds % 3600 == 0
        ? "in " + seconds / 3600 + (seconds == 3600 ? " hour" : " hours")
        : "after " + CLOCK.format(resumeAt.atZone(ZoneId.systemDefault()));
    if ("downgrade".equals(kind)) {
      return "You've hit the Plus plan limit for GPT-5 Thinking. Responses will use another model until your limit resets "
          + when + ".";
    }
    return "You've reached our limit of messages per 3 hours. Your limit resets " + when + ".";
  }

  /** REAL-PAGE row 7's feature-cap text, with the reset time as a clock time in this machine's zone. */
  String featureCapText(ScriptedReply reply) {
    return "Files, images, and data analysis are unavailable until usage resets at "
        + CLOCK.format(resumeAt(reply).atZone(ZoneId.systemDefault())) + ".";
  }

  /** The model that answers an effort's label when the script names none. */
  static String defaultSlug(String label) {
    Effort effort = Effort.fromLabel(label).orElse(Effort.MEDIUM);
    return switch (effort) {
      case INSTANT -> "gpt-5-instant";
      case PRO -> "gpt-5-pro";
      default -> "gpt-5-thinking";
    };
  }
}

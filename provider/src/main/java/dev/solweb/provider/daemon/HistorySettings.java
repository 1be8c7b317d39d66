package dev.solweb.provider.daemon;

import dev.solweb.provider.translate.ConversationPlace;
import java.time.Duration;
import java.util.Map;

/**
 * The history-hygiene settings of solwebd, parsed once at start: where new conversations are
 * opened ({@code SOLWEBD_PROJECT=<name or project URL>}, {@code SOLWEBD_TEMPORARY=1}; both at
 * once is a start-up error, an empty value is unset) and {@code SOLWEBD_RETENTION_DAYS} (off by
 * default: managed conversations idle that many days are deleted).
 *
 * @param retention null when off
 */
public record HistorySettings(ConversationPlace place, Duration retention) {

  public static final HistorySettings DEFAULT = new HistorySettings(ConversationPlace.HISTORY, null);

  /** @throws IllegalArgumentException naming the variable and what it accepts */
  public static HistorySettings fromEnv(Map<String, String> env) {
    String project = trimmed(env.get("SOLWEBD_PROJECT"));
    String temporary = trimmed(env.get("SOLWEBD_TEMPORARY"));
    boolean isTemporary = switch (temporary == null ? "0" : temporary.toLowerCase(java.util.Locale.ROOT)) {
      case "1", "true", "yes" -> true;
      case "0", "false", "no" -> false;
      default -> throw new IllegalArgumentException("SOLWEBD_TEMPORARY must be 1 (temporary chats) or 0, got: " + temporary);
    };
    if (project != null && isTemporary) {
      throw new IllegalArgumentException("SOLWEBD_PROJECT and SOLWEBD_TEMPORARY are both set: a temporary chat"
          + " cannot be kept in a project; unset one");
    }
    if (project != null && project.matches("(?i)https?://.*") && !project.matches("(?i)https?://[^/]+/g/g-p-[A-Za-z0-9_-]+(/.*)?")) {
      throw new IllegalArgumentException("SOLWEBD_PROJECT is a URL but not a project's (https://chatgpt.com/g/g-p-<slug>/project),"
          + " got: " + project);
    }
    ConversationPlace place = project != null ? new ConversationPlace.Project(project)
        : isTemporary ? new ConversationPlace.Temporary() : ConversationPlace.HISTORY;
    return new HistorySettings(place, retention(trimmed(env.get("SOLWEBD_RETENTION_DAYS"))));
  }

  /** For the start-up line: where new conversations go, and retention when on. */
  public String describe() {
    String where = place instanceof ConversationPlace.Project project ? "the project " + project.nameOrUrl()
        : place instanceof ConversationPlace.Temporary ? "temporary chats" : "the history";
    return where + (retention == null ? "" : ", deleted after " + retention.toDays() + " idle days");
  }

  private static Duration retention(String days) {
    if (days == null || days.equalsIgnoreCase("off")) {
      return null;
    }
    try {
      int value = Integer.parseInt(days);
      if (value < 1) {
        throw new NumberFormatException();
      }
      return Duration.ofDays(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("SOLWEBD_RETENTION_DAYS must be a whole number of days, 1 or more (or off), got: " + days);
    }
  }

  private static String trimmed(String value) {
    return value == null || value.isBlank() ? null : value.trim();
  }
}

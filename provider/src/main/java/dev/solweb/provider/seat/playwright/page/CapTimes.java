package dev.solweb.provider.seat.playwright.page;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads when a usage cap lifts from the banner's words: a clock time ("resets after 4:04 PM",
 * "try again after 16:04") taken as the next such time in the browser's zone, or a span
 * ("in 4 hours", "in 30 minutes", "in 1 hour and 20 minutes"). Empty when the text names none:
 * the caller then estimates and says so, it never invents a precise time.
 */
public final class CapTimes {

  private static final Pattern CLOCK = Pattern.compile(
      "(?:after|at|until)\\s+(\\d{1,2})(?::(\\d{2}))?\\s*([ap]\\.?m\\.?)?(?![\\d:])",
      Pattern.CASE_INSENSITIVE);
  private static final Pattern SPAN = Pattern.compile(
      "in\\s+(?:(\\d+|an?|one)\\s+hours?)?(?:\\s*(?:and|,)?\\s*(\\d+|a|one)\\s+min(?:ute)?s?)?",
      Pattern.CASE_INSENSITIVE);

  private CapTimes() {}

  public static Optional<Instant> parse(String text, Instant now, ZoneId zone) {
    Matcher span = SPAN.matcher(text);
    while (span.find()) {
      if (span.group(1) == null && span.group(2) == null) {
        continue;
      }
      long hours = span.group(1) == null ? 0 : count(span.group(1));
      long minutes = span.group(2) == null ? 0 : count(span.group(2));
      return Optional.of(now.plus(Duration.ofHours(hours).plusMinutes(minutes)).truncatedTo(ChronoUnit.SECONDS));
    }
    Matcher clock = CLOCK.matcher(text);
    while (clock.find()) {
      int hour = Integer.parseInt(clock.group(1));
      int minute = clock.group(2) == null ? 0 : Integer.parseInt(clock.group(2));
      String ampm = clock.group(3);
      if (ampm == null && clock.group(2) == null) {
        continue; // "after 4" alone is not a time
      }
      if (ampm != null) {
        if (hour < 1 || hour > 12) {
          continue;
        }
        boolean pm = ampm.toLowerCase(Locale.ROOT).startsWith("p");
        hour = hour % 12 + (pm ? 12 : 0);
      }
      if (hour > 23 || minute > 59) {
        continue;
      }
      ZonedDateTime local = now.atZone(zone);
      LocalDate day = local.toLocalDate();
      ZonedDateTime at = ZonedDateTime.of(day, LocalTime.of(hour, minute), zone);
      if (!at.toInstant().isAfter(now)) {
        at = at.plusDays(1);
      }
      return Optional.of(at.toInstant());
    }
    return Optional.empty();
  }

  private static long count(String word) {
    return switch (word.toLowerCase(Locale.ROOT)) {
      case "a", "an", "one" -> 1;
      default -> Long.parseLong(word);
    };
  }
}

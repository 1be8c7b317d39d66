package dev.solweb.provider.seat.playwright.page;

import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.seat.SeatException;
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
 * "try again after 16:04") taken as the next such time in the browser's zone, a span ("in 4
 * hours", "in 30 minutes", "in 1 hour and 20 minutes"), or a day (a capped tier's tooltip,
 * REAL-PAGE row 21: "Try again after Aug 16, 2026.", ru "после 16 авг. 2026 г.") taken as the
 * start of that day in the browser's zone. Empty when the text names none: the caller then
 * estimates and says so, it never invents a precise time.
 */
public final class CapTimes {

  private static final Pattern CLOCK = Pattern.compile(
      "(?:after|at|until)\\s+(\\d{1,2})(?::(\\d{2}))?\\s*([ap]\\.?m\\.?)?(?![\\d:])",
      Pattern.CASE_INSENSITIVE);
  private static final Pattern SPAN = Pattern.compile(
      "in\\s+(?:(\\d+|an?|one)\\s+hours?)?(?:\\s*(?:and|,)?\\s*(\\d+|a|one)\\s+min(?:ute)?s?)?",
      Pattern.CASE_INSENSITIVE);

  private static final Pattern DAY_EN = Pattern.compile(
      "(?:after|on|until)\\s+(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\\.?\\s+(\\d{1,2})(?:,?\\s+(\\d{4}))?",
      Pattern.CASE_INSENSITIVE);
  private static final Pattern DAY_RU = Pattern.compile(
      "(?:после|до)\\s+(\\d{1,2})\\s+(янв|фев|мар|апр|ма[йя]|июн|июл|авг|сен|окт|ноя|дек)\\S*(?:\\s+(\\d{4}))?",
      Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
  private static final java.util.List<String> MONTHS_EN =
      java.util.List.of("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec");
  private static final java.util.List<String> MONTHS_RU =
      java.util.List.of("янв", "фев", "мар", "апр", "ма", "июн", "июл", "авг", "сен", "окт", "ноя", "дек");

  private CapTimes() {}

  /** A day the text names ("after Aug 16, 2026"), as the start of that day in {@code zone}; a day without a year is the next one. */
  private static Optional<Instant> day(String text, Instant now, ZoneId zone) {
    Matcher en = DAY_EN.matcher(text);
    if (en.find()) {
      return at(MONTHS_EN.indexOf(en.group(1).toLowerCase(Locale.ROOT)) + 1, Integer.parseInt(en.group(2)), en.group(3), now, zone);
    }
    Matcher ru = DAY_RU.matcher(text);
    if (ru.find()) {
      String month = ru.group(2).toLowerCase(Locale.ROOT);
      int m = month.startsWith("ма") ? 5 : MONTHS_RU.indexOf(month) + 1;
      return at(m, Integer.parseInt(ru.group(1)), ru.group(3), now, zone);
    }
    return Optional.empty();
  }

  private static Optional<Instant> at(int month, int dayOfMonth, String year, Instant now, ZoneId zone) {
    try {
      LocalDate today = now.atZone(zone).toLocalDate();
      LocalDate d = LocalDate.of(year == null ? today.getYear() : Integer.parseInt(year), month, dayOfMonth);
      if (year == null && d.isBefore(today)) {
        d = d.plusYears(1);
      }
      return Optional.of(d.atStartOfDay(zone).toInstant());
    } catch (java.time.DateTimeException e) {
      return Optional.empty();
    }
  }

  public static Optional<Instant> parse(String text, Instant now, ZoneId zone) {
    Optional<Instant> named = day(text, now, zone);
    if (named.isPresent()) {
      return named;
    }
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

  /**
   * The way to {@code wanted} goes through {@code tier}, which the page shows disabled: capped until
   * its tooltip's time (an estimate of an hour, said so, without one).
   */
  static SeatException capped(Effort wanted, Effort tier, String tooltip) {
    Instant now = Instant.now();
    Optional<Instant> at = tooltip == null ? Optional.empty() : parse(tooltip, now, ZoneId.systemDefault());
    String detail = "cannot set effort " + wanted.label() + ": the page shows "
        + (tier == wanted ? "that tier" : "the " + tier.label() + " tier on the way") + " disabled"
        + (tooltip == null ? " with no tooltip; resume_at is an estimate" : " (\"" + tooltip + "\")")
        + (tooltip != null && at.isEmpty() ? "; the tooltip names no time, resume_at is an estimate" : "")
        + "; nothing was sent";
    return SeatException.failed(ProviderFailure.capped(detail, at.orElse(now.plusSeconds(3600)), now), false);
  }
}

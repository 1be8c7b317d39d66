package dev.solweb.provider.seat.playwright.page;

import dev.solweb.provider.model.Effort;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The model rows of the pill's menu as data, and the rule that picks one (REAL-PAGE rows 26, 59,
 * 61, 62, 64). Pure: the rows come in as the page showed them, the choice goes out with its reason.
 *
 * <p>A row's name is its first text: {@code GPT-6.2 Sol}, {@code GPT-6.2 Sol Instant}, a bare
 * {@code 6} or {@code GPT-6}; its version is the number, its family the word after it (none for a
 * bare version), {@code Instant} a row of its own (row 62). A row whose whole text is longer than
 * its name carries a notice (row 64's retirement, October's "Available until Oct 14"): retiring.
 * "Latest" and rows with no version (o3) are no model the seat can name, and are never chosen.
 */
public final class ModelRows {

  /** One model row: where it sits among the menu's radios, its name and what the name says. */
  public record Row(int index, String name, String text, String family, String version, boolean instant,
      boolean retiring, boolean enabled, boolean checked) {

    /** A row of a named family (not a bare version). */
    public boolean hasFamily() {
      return family != null;
    }
  }

  /** What the seat is asked to run on: a family (default {@code Sol}) or one row by its name ({@code SOLWEBD_MODEL}). */
  public record Wanted(String family, String row) {
    public static final Wanted SOL = new Wanted("Sol", null);

    /** {@code SOLWEBD_MODEL}: blank is the Sol family; a value with a version number is a row; a word is a family. */
    public static Wanted parse(String setting) {
      if (setting == null || setting.isBlank()) {
        return SOL;
      }
      String s = setting.strip();
      return s.matches(".*\\d.*") ? new Wanted(null, s) : new Wanted(s, null);
    }

    @Override
    public String toString() {
      return row != null ? "the row " + row : "the newest " + family + " model";
    }
  }

  /**
   * The row chosen, or kept: {@code kept} when the page's rows name no family (October's GPT-6:
   * the checked row stays, as before), with the reason in words for the log and the report.
   */
  public record Choice(Row row, boolean kept, String why) {}

  private static final Pattern NAME = Pattern.compile("^(?:gpt[- ]?)?(\\d+(?:\\.\\d+)*)(?:\\s+(.*))?$", Pattern.CASE_INSENSITIVE);
  private static final List<String> VARIANTS = List.of("instant", "thinking", "pro");

  private ModelRows() {}

  /** A radio as the menu script reads it, as a model row; empty when its name has no version (Latest, o3). */
  public static Optional<Row> parse(int index, String first, String full, boolean enabled, boolean checked) {
    String name = first == null ? "" : first.replace('\u00a0', ' ').strip();
    Matcher m = NAME.matcher(name);
    if (!m.matches()) {
      return Optional.empty();
    }
    String family = null;
    boolean instant = false;
    if (m.group(2) != null) {
      List<String> words = new ArrayList<>(List.of(m.group(2).strip().split("\\s+")));
      String last = words.get(words.size() - 1).toLowerCase(Locale.ROOT);
      if (VARIANTS.contains(last)) {
        instant = last.equals("instant");
        words.remove(words.size() - 1);
      }
      family = words.isEmpty() ? null : String.join(" ", words);
    }
    String text = full == null ? name : full.replace('\u00a0', ' ').strip();
    boolean notice = text.length() > name.length() && !text.equals(name);
    return Optional.of(new Row(index, name, text, family, m.group(1), instant, notice, enabled, checked));
  }

  /**
   * The row to run {@code effort} on for {@code wanted}: the named row; else the newest version of
   * the family that is enabled and not retiring, its Instant row for Instant where the family has
   * one (else its thinking row). A checked row of no family at least as new as that is kept (the
   * page's own default, October's GPT-6); a page whose rows name no family keeps its checked row.
   * Empty when nothing fits: the caller refuses, naming the rows seen.
   */
  public static Optional<Choice> pick(List<Row> rows, Wanted wanted, Effort effort) {
    Optional<Row> checked = rows.stream().filter(Row::checked).findFirst();
    if (wanted.row() != null) {
      return rows.stream().filter(r -> r.name().equalsIgnoreCase(wanted.row()) && r.enabled()).findFirst()
          .map(r -> new Choice(r, false, "SOLWEBD_MODEL names the row " + r.name()));
    }
    if (rows.stream().noneMatch(Row::hasFamily)) {
      return Optional.of(new Choice(checked.orElse(null), true, rows.isEmpty()
          ? "the menu shows no model rows; the page's model is kept"
          : "no model row names a family " + names(rows) + "; the checked row is kept"));
    }
    List<Row> family = rows.stream()
        .filter(r -> wanted.family().equalsIgnoreCase(r.family()) && r.enabled() && !r.retiring()).toList();
    boolean instantRows = family.stream().anyMatch(Row::instant);
    Optional<Row> best = family.stream().filter(r -> r.instant() == (effort == Effort.INSTANT && instantRows))
        .max(Comparator.comparing(Row::version, ModelRows::compareVersions));
    if (best.isEmpty()) {
      return Optional.empty();
    }
    if (checked.isPresent() && !checked.get().hasFamily() && checked.get().enabled()
        && compareVersions(checked.get().version(), best.get().version()) >= 0) {
      return Optional.of(new Choice(checked.get(), true, "the checked row " + checked.get().name()
          + " names no family and is no older than " + best.get().name() + "; it is kept"));
    }
    return Optional.of(new Choice(best.get(), false, wanted + ": " + best.get().name()));
  }

  /** The rows' names, for a refusal or a log line. */
  public static List<String> names(List<Row> rows) {
    return rows.stream().map(Row::text).toList();
  }

  /** Dotted versions compared number by number: 6.2 &gt; 6 &gt; 5.6. */
  static int compareVersions(String a, String b) {
    String[] x = a.split("\\.");
    String[] y = b.split("\\.");
    for (int i = 0; i < Math.max(x.length, y.length); i++) {
      int p = i < x.length ? Integer.parseInt(x[i]) : 0;
      int q = i < y.length ? Integer.parseInt(y[i]) : 0;
      if (p != q) {
        return Integer.compare(p, q);
      }
    }
    return 0;
  }
}

package dev.solweb.provider.dispatch;

import dev.solweb.provider.model.Effort;
import dev.solweb.provider.platform.SecureFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.logging.Logger;

/**
 * Every Send solweb made on the account in the last {@link #KEEP} (or the longest budget window,
 * if longer): when, which effort, which model answered. Durable ({@code sends.log} under the
 * home, one line per Send, mode 0600, no text of any turn): a 7-day budget must not forget its
 * Sends when the daemon restarts, or a restart would hand the owner's allowance out again.
 * Lines older than the window are dropped when the file is loaded.
 */
public final class SendLedger {
  private static final Logger LOG = Logger.getLogger(SendLedger.class.getName());
  /** The longest window the Limits panel counts over. */
  public static final Duration KEEP = Duration.ofDays(7);
  public static final String FILE = "sends.log";

  /** One Send: when, its effort and the model that answered (null when the answer never named one). */
  public record Entry(Instant at, Effort effort, String model) {}

  private final Path file; // null: in memory only
  private final Duration keep;
  private final List<Entry> entries = new ArrayList<>();

  private SendLedger(Path file, Duration keep) {
    this.file = file;
    this.keep = keep.compareTo(KEEP) < 0 ? KEEP : keep;
  }

  /** A ledger the daemon forgets on exit (tests, a daemon without a home). */
  public static SendLedger inMemory() {
    return new SendLedger(null, KEEP);
  }

  /**
   * The ledger in {@code file}, its lines older than {@code keep} (at least {@link #KEEP}) before
   * {@code now} dropped; an unreadable line is skipped and logged, never fatal.
   */
  public static SendLedger durable(Path file, Duration keep, Instant now) throws IOException {
    SendLedger ledger = new SendLedger(file, keep);
    if (Files.exists(file)) {
      int skipped = 0;
      for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
        Entry e = parse(line);
        if (e == null) {
          skipped += line.isBlank() ? 0 : 1;
        } else if (!e.at().isBefore(now.minus(ledger.keep))) {
          ledger.entries.add(e);
        }
      }
      if (skipped > 0) {
        LOG.warning(file + ": " + skipped + " unreadable lines skipped");
      }
    }
    StringBuilder kept = new StringBuilder();
    ledger.entries.forEach(e -> kept.append(line(e)));
    SecureFile.writeAtomic(file, kept.toString());
    return ledger;
  }

  /** Records one Send; a durable ledger appends its line (a write failure is logged: the Send happened). */
  public synchronized void record(Instant at, Effort effort, String model) {
    Entry entry = new Entry(at, effort, model == null || model.isBlank() ? null : model.strip().replaceAll("\\s+", "_"));
    entries.add(entry);
    entries.removeIf(e -> e.at().isBefore(at.minus(keep)));
    if (file != null) {
      try {
        Files.writeString(file, line(entry), StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
      } catch (IOException e) {
        LOG.warning("could not record a Send in " + file + ": " + e.getMessage());
      }
    }
  }

  /**
   * The times of the Sends of {@code effort} after {@code since}, oldest first (a window is
   * half-open: a Send made exactly one window ago has left it).
   */
  public synchronized List<Instant> times(Effort effort, Instant since) {
    return entries.stream().filter(e -> e.effort() == effort && e.at().isAfter(since)).map(Entry::at).sorted().toList();
  }

  /** Sends after {@code since} by effort, then model ({@code unknown} when none was named). */
  public synchronized Map<String, Map<String, Integer>> counts(Instant since) {
    Map<String, Map<String, Integer>> out = new TreeMap<>();
    for (Entry e : entries) {
      if (e.at().isAfter(since)) {
        out.computeIfAbsent(e.effort().suffix(), k -> new TreeMap<>())
            .merge(e.model() == null ? "unknown" : e.model(), 1, Integer::sum);
      }
    }
    return out;
  }

  private static String line(Entry e) {
    return e.at() + " " + e.effort().suffix() + " " + (e.model() == null ? "-" : e.model()) + "\n";
  }

  private static Entry parse(String line) {
    String[] parts = line.strip().split(" ");
    if (parts.length != 3) {
      return null;
    }
    try {
      Effort effort = Effort.fromSuffix(parts[1]).orElse(null);
      return effort == null ? null : new Entry(Instant.parse(parts[0]), effort, "-".equals(parts[2]) ? null : parts[2]);
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}

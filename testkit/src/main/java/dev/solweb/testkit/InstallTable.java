package dev.solweb.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code bin/test}'s table of every program a test starts and the Debian package that brings it:
 * the lines between {@code programs=(} and {@code )}, two words each, {@code #} comments allowed.
 * A program is a name looked up on PATH or an absolute path. bin/test installs the packages of the
 * missing ones; this is the same table read from Java, so the two can never disagree.
 */
public final class InstallTable {
  private final Map<String, String> packages;

  private InstallTable(Map<String, String> packages) {
    this.packages = Collections.unmodifiableMap(packages);
  }

  /** The table in this checkout's {@code bin/test}. */
  public static InstallTable ofThisCheckout() {
    Path script = Repo.root().resolve("bin/test");
    try {
      return parse(Files.readAllLines(script));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + script, e);
    }
  }

  /** Parses a bin/test script; fails naming the line when the table is missing or malformed. */
  public static InstallTable parse(List<String> script) {
    Map<String, String> packages = new LinkedHashMap<>();
    int start = script.indexOf("programs=(");
    if (start < 0) {
      throw new IllegalArgumentException("bin/test has no line `programs=(`: the install table is missing");
    }
    for (int i = start + 1; i < script.size(); i++) {
      String line = script.get(i).replaceFirst("#.*", "").strip();
      if (line.equals(")")) {
        return new InstallTable(packages);
      }
      if (line.isEmpty()) {
        continue;
      }
      String[] words = line.split("\\s+");
      if (words.length != 2) {
        throw new IllegalArgumentException("bin/test line " + (i + 1) + ": expected `PROGRAM PACKAGE`, got `" + line + "`");
      }
      packages.put(words[0], words[1]);
    }
    throw new IllegalArgumentException("bin/test: the install table `programs=(` is never closed with `)`");
  }

  /** Every program, as written (a name or an absolute path), with its package, in table order. */
  public Map<String, String> programs() {
    return packages;
  }

  /**
   * The package that brings {@code program}: an exact entry, else an entry with the same file
   * name ({@code chromium} and {@code /usr/bin/chromium} are one program).
   */
  public Optional<String> packageOf(String program) {
    if (packages.containsKey(program)) {
      return Optional.of(packages.get(program));
    }
    String name = fileName(program);
    return packages.entrySet().stream().filter(e -> fileName(e.getKey()).equals(name)).map(Map.Entry::getValue).findFirst();
  }

  static String fileName(String program) {
    return program.substring(program.lastIndexOf('/') + 1);
  }
}

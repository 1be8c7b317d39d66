package dev.solweb.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Where Java sources start an external program, read from the source text: a string literal in
 * command position ({@code new ProcessBuilder("Xvfb", ...)}, {@code new ProcessBuilder(List.of("kill", ...))},
 * {@code Programs.require("node")}), an absolute {@code /usr/bin/...} or {@code /bin/...} path in a
 * literal (a command list, a wrapper script), and the pinned clients under {@code node_modules/.bin/},
 * which are node scripts. Comments are skipped. A command built at run time from a variable is not
 * seen: such code asks {@link Programs#require} for it, which is seen.
 */
final class LaunchSites {
  /** One program started at one place. */
  record Launch(String program, Path file, int line) {
    @Override
    public String toString() {
      return program + " (" + file + ":" + line + ")";
    }
  }

  private static final Pattern COMMAND = Pattern.compile(
      "(?:new\\s+ProcessBuilder\\s*\\(\\s*(?:(?:List|Arrays)\\.(?:of|asList)\\s*\\(\\s*)?|Programs\\.require\\s*\\(\\s*)\\z");
  private static final Pattern SYSTEM_PATH = Pattern.compile("(?<![\\w/])(?:/usr)?/bin/([A-Za-z][\\w.+-]*)");

  private LaunchSites() {
  }

  /** Every launch in the Java files under {@code roots}. */
  static List<Launch> in(List<Path> roots) {
    List<Launch> found = new ArrayList<>();
    for (Path root : roots) {
      if (!Files.isDirectory(root)) {
        continue;
      }
      try (Stream<Path> files = Files.walk(root)) {
        for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
          found.addAll(in(file, Files.readString(file)));
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return found;
  }

  /** Every launch in one source text. */
  static List<Launch> in(Path file, String source) {
    List<Launch> found = new ArrayList<>();
    StringBuilder code = new StringBuilder(); // the code before each literal, comments removed
    int i = 0;
    while (i < source.length()) {
      char c = source.charAt(i);
      if (source.startsWith("//", i)) {
        i = end(source, source.indexOf('\n', i));
      } else if (source.startsWith("/*", i)) {
        int close = source.indexOf("*/", i + 2);
        i = close < 0 ? source.length() : close + 2;
      } else if (source.startsWith("\"\"\"", i)) {
        int close = source.indexOf("\"\"\"", i + 3);
        int stop = close < 0 ? source.length() : close;
        literal(found, file, source, i, source.substring(i + 3, stop), code);
        i = close < 0 ? source.length() : close + 3;
      } else if (c == '"' || c == '\'') {
        int j = i + 1;
        StringBuilder value = new StringBuilder();
        while (j < source.length() && source.charAt(j) != c && source.charAt(j) != '\n') {
          if (source.charAt(j) == '\\' && j + 1 < source.length()) {
            value.append(unescape(source.charAt(++j)));
          } else {
            value.append(source.charAt(j));
          }
          j++;
        }
        if (c == '"') {
          literal(found, file, source, i, value.toString(), code);
        }
        i = j + 1;
      } else {
        code.append(c);
        i++;
      }
    }
    return found;
  }

  private static void literal(List<Launch> found, Path file, String source, int at, String value, StringBuilder code) {
    int line = lineOf(source, at);
    if (COMMAND.matcher(code.subSequence(Math.max(0, code.length() - 80), code.length())).find() && value.matches("[A-Za-z/][\\w./+-]*")) {
      found.add(new Launch(InstallTable.fileName(value), file, line));
    }
    Matcher path = SYSTEM_PATH.matcher(value);
    while (path.find()) {
      found.add(new Launch(path.group(1), file, line));
    }
    if (value.contains("node_modules/.bin/")) {
      found.add(new Launch("node", file, line));
    }
    code.append("\"\""); // the literal itself, so a later literal is not in this one's command position
  }

  private static char unescape(char escaped) {
    return switch (escaped) {
      case 'n' -> '\n';
      case 't' -> '\t';
      case '0' -> '\0';
      default -> escaped;
    };
  }

  private static int end(String source, int newline) {
    return newline < 0 ? source.length() : newline;
  }

  private static int lineOf(String source, int at) {
    int line = 1;
    for (int k = 0; k < at; k++) {
      if (source.charAt(k) == '\n') {
        line++;
      }
    }
    return line;
  }
}

package dev.solweb.provider.seat.playwright.page;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits an answer's raw markdown (as ChatGPT's copy button yields it) into fenced code blocks
 * and the prose around them, by CommonMark fence rules: a fence is 3+ backticks or tildes
 * indented at most 3 spaces; it closes on a line of the same character, at least as long, with
 * nothing after it. A backtick run inside a block shorter than its fence is content. An
 * unclosed fence runs to the end, as CommonMark renders it.
 */
public final class MarkdownFences {

  /** The split: block contents (between the fence lines) and the prose outside them. */
  public record Split(List<String> blocks, String prose) {}

  private MarkdownFences() {}

  public static Split split(String markdown) {
    List<String> blocks = new ArrayList<>();
    StringBuilder prose = new StringBuilder();
    String[] lines = markdown.replace("\r\n", "\n").split("\n", -1);
    int i = 0;
    while (i < lines.length) {
      Fence open = Fence.opening(lines[i]);
      if (open == null) {
        prose.append(lines[i]).append('\n');
        i++;
        continue;
      }
      List<String> body = new ArrayList<>();
      i++;
      while (i < lines.length && !open.closedBy(lines[i])) {
        body.add(stripIndent(lines[i], open.indent));
        i++;
      }
      i++; // the closing fence, or past the end
      blocks.add(String.join("\n", body));
    }
    return new Split(blocks, prose.toString().strip());
  }

  /** CommonMark: content lines lose up to the opening fence's indentation. */
  private static String stripIndent(String line, int indent) {
    int n = 0;
    while (n < indent && n < line.length() && line.charAt(n) == ' ') {
      n++;
    }
    return line.substring(n);
  }

  private record Fence(char ch, int length, int indent) {
    static Fence opening(String line) {
      int indent = 0;
      while (indent < line.length() && line.charAt(indent) == ' ') {
        indent++;
      }
      if (indent > 3 || indent >= line.length()) {
        return null;
      }
      char ch = line.charAt(indent);
      if (ch != '`' && ch != '~') {
        return null;
      }
      int end = indent;
      while (end < line.length() && line.charAt(end) == ch) {
        end++;
      }
      int length = end - indent;
      if (length < 3) {
        return null;
      }
      if (ch == '`' && line.indexOf('`', end) >= 0) {
        return null; // a backtick info string makes it inline code, not a fence
      }
      return new Fence(ch, length, indent);
    }

    boolean closedBy(String line) {
      int lead = 0;
      while (lead < line.length() && line.charAt(lead) == ' ') {
        lead++;
      }
      String rest = line.substring(lead).stripTrailing();
      if (lead > 3 || rest.length() < length) {
        return false;
      }
      for (int k = 0; k < rest.length(); k++) {
        if (rest.charAt(k) != ch) {
          return false;
        }
      }
      return true;
    }
  }
}

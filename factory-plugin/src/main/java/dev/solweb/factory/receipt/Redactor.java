package dev.solweb.factory.receipt;

import java.util.Collection;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Scrubs secrets from anything written to disk or printed: known secret values (the solweb bearer
 * token) wherever they occur, and the value after any {@code Authorization}/{@code Bearer}
 * marker or a header-like {@code x-api-key}/{@code cookie} field. The derived client session is
 * not a secret (seed 001: logs and UI may show it) and is left alone.
 */
public final class Redactor {

  public static final String MARK = "[REDACTED]";

  private static final Pattern HEADER_VALUE = Pattern.compile(
      "(?i)(authorization\"?\\s*[:=]\\s*\"?(?:bearer\\s+)?|bearer\\s+|x-api-key\"?\\s*[:=]\\s*\"?|cookie\"?\\s*[:=]\\s*\"?)"
          + "([^\\s\",}\\\\]+)");

  private final List<String> secrets;

  public Redactor(Collection<String> secrets) {
    // Very short values would shred ordinary text; a real bearer token is 43 characters.
    this.secrets = secrets.stream().filter(s -> s != null && s.length() >= 8).toList();
  }

  public static Redactor none() {
    return new Redactor(List.of());
  }

  public String redact(String text) {
    if (text == null) {
      return null;
    }
    String out = text;
    for (String secret : secrets) {
      out = out.replace(secret, MARK);
    }
    Matcher m = HEADER_VALUE.matcher(out);
    StringBuilder sb = new StringBuilder();
    while (m.find()) {
      String value = m.group(2);
      m.appendReplacement(sb, Matcher.quoteReplacement(m.group(1) + (value.equals(MARK) ? value : MARK)));
    }
    m.appendTail(sb);
    return sb.toString();
  }
}

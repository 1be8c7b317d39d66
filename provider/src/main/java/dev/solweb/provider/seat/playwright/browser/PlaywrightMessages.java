package dev.solweb.provider.seat.playwright.browser;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Playwright exception's message reduced to what a typed failure may say. Playwright for Java
 * wraps the driver's error as {@code Error { message='...' name='...' stack='...' }}, where the
 * stack and the call log name files of the unpacked driver ({@code /tmp/playwright-java-.../
 * package/lib/...}); a client and a receipt get the one-line message and nothing of the machine.
 */
public final class PlaywrightMessages {
  private static final Pattern WRAPPED = Pattern.compile("message='(.*?)(?:'\\s*\\n|\\n|'$)", Pattern.DOTALL);
  private static final Pattern STACK_FRAME = Pattern.compile("\\s+at\\s+\\S.*$");
  private static final Pattern LOCAL_PATH = Pattern.compile("(?:/[\\w.@+-]+){2,}/?");
  private static final int MAX = 300;

  private PlaywrightMessages() {}

  public static String clean(String message) {
    if (message == null || message.isBlank()) {
      return "no detail";
    }
    String text = message;
    Matcher wrapped = WRAPPED.matcher(text);
    if (wrapped.find()) {
      text = wrapped.group(1);
    }
    int newline = text.indexOf('\n');
    if (newline >= 0) {
      text = text.substring(0, newline);
    }
    text = STACK_FRAME.matcher(text).replaceAll("");
    text = LOCAL_PATH.matcher(text).replaceAll("<path>");
    text = text.replaceAll("\\s+", " ").strip();
    if (text.isEmpty()) {
      return "no detail";
    }
    return text.length() > MAX ? text.substring(0, MAX) + "…" : text;
  }
}

package dev.solweb.provider.daemon;

import dev.solweb.provider.seat.playwright.PlaywrightOptions;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The Playwright seat's options, declared once for every command that opens the page or starts a
 * daemon that does ({@code solwebd}, {@code solwebctl login|enroll|ensure|doctor|capture|conversations
 * delete}, {@code ask-gpt}): a picocli mixin, nested in {@link SeatMixin} where the seat kind can
 * be chosen. Unset options stay null, so a launcher passes on only what was given ({@link #args})
 * and each verb applies its own default where it opens the page ({@link #options}).
 */
public final class BrowserMixin {
  public static final Path DEFAULT_CHROMIUM = PlaywrightOptions.DEFAULT_CHROMIUM;

  @Option(names = "--chat-url", paramLabel = "URL",
      description = "Chat page the seat opens (default " + PlaywrightOptions.REAL_CHAT_URL
          + "; doctor and capture through a running daemon: its current page).")
  String chatUrl;

  @Option(names = "--headless", description = "Run Chromium headless (tests; the real site challenges headless).")
  boolean headless;

  @Option(names = "--chromium", paramLabel = "PATH", description = "Chromium executable (default /usr/bin/chromium).")
  Path chromium;

  @Option(names = "--profile", paramLabel = "DIR",
      description = "Chromium profile of the seat (default $SOLWEBD_PROFILE, else <home>/profile).")
  Path profile;

  /** The given {@code --chat-url}, or null. */
  public String chatUrl() {
    return chatUrl;
  }

  public boolean headless() {
    return headless;
  }

  /** The given {@code --chromium}, or null. */
  public Path chromium() {
    return chromium;
  }

  /** {@code --chromium}, else /usr/bin/chromium. */
  public Path chromiumOrDefault() {
    return chromium != null ? chromium : DEFAULT_CHROMIUM;
  }

  /** {@code --profile} made absolute, else {@code fallback}. */
  public Path profileOr(Path fallback) {
    return profile != null ? profile.toAbsolutePath().normalize() : fallback;
  }

  /**
   * The options the page opens with, defaults filled in.
   *
   * @throws IllegalArgumentException for a chat URL that is not an http(s) URL
   */
  public PlaywrightOptions options(Path home, Path defaultProfile) {
    return new PlaywrightOptions(chatUrl == null ? null : URI.create(chatUrl), headless, chromiumOrDefault(),
        profileOr(defaultProfile), home);
  }

  /** The given options as a daemon's arguments (a launcher passes on only what was given). */
  public List<String> args() {
    return args(chatUrl, headless, chromium == null ? null : chromium.toString(), profile);
  }

  /** These options as a daemon's arguments; null ones are left out. */
  public static List<String> args(String chatUrl, boolean headless, String chromium, Path profile) {
    List<String> args = new ArrayList<>();
    if (chatUrl != null) {
      args.add("--chat-url");
      args.add(chatUrl);
    }
    if (headless) {
      args.add("--headless");
    }
    if (chromium != null) {
      args.add("--chromium");
      args.add(chromium);
    }
    if (profile != null) {
      args.add("--profile");
      args.add(profile.toAbsolutePath().normalize().toString());
    }
    return args;
  }
}

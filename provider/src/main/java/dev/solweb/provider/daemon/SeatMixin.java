package dev.solweb.provider.daemon;

import dev.solweb.provider.seat.playwright.PlaywrightOptions;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The seat options, once, for every command that opens a seat or launches a daemon that does
 * ({@code solwebd}, {@code solwebctl enroll|ensure}, {@code ask-gpt}): a picocli mixin. Unset
 * options stay null so a launcher passes on only what was given; {@link #options} fills in the
 * defaults where a seat is opened.
 */
public final class SeatMixin {
  public static final String DEFAULT_SEAT = "playwright";
  public static final Path DEFAULT_CHROMIUM = Path.of("/usr/bin/chromium");

  @Option(names = "--seat", paramLabel = "KIND",
      description = "playwright (the real page, the default) or scripted:<file|name> (tests and demos).")
  String seat;

  @Option(names = "--chat-url", paramLabel = "URL",
      description = "Chat page the playwright seat opens (default " + PlaywrightOptions.REAL_CHAT_URL + ").")
  String chatUrl;

  @Option(names = "--headless", description = "Run Chromium headless (tests; the real site challenges headless).")
  boolean headless;

  @Option(names = "--chromium", paramLabel = "PATH", description = "Chromium executable (default /usr/bin/chromium).")
  Path chromium;

  @Option(names = "--profile", paramLabel = "DIR",
      description = "Chromium profile of the seat (default $SOLWEBD_PROFILE, else <home>/profile).")
  Path profile;

  /** {@code --seat}, else {@code fallback}. */
  public String seatOr(String fallback) {
    return seat != null ? seat : fallback;
  }

  public String seat() {
    return seatOr(DEFAULT_SEAT);
  }

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

  /** {@code --profile} made absolute, else {@code fallback}. */
  public Path profileOr(Path fallback) {
    return profile != null ? profile.toAbsolutePath().normalize() : fallback;
  }

  /** The options a seat opens with, defaults filled in. */
  public SeatOptions options(Path home, Path defaultProfile) {
    return new SeatOptions(chatUrl != null ? chatUrl : PlaywrightOptions.REAL_CHAT_URL, headless,
        chromium != null ? chromium : DEFAULT_CHROMIUM, profileOr(defaultProfile), home);
  }
}

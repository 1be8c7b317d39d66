package dev.solweb.provider.daemon;

import dev.solweb.provider.seat.playwright.PlaywrightOptions;
import java.nio.file.Path;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The seat options of every command that chooses a seat kind ({@code solwebd},
 * {@code solwebctl enroll|ensure|conversations delete}, {@code ask-gpt}): {@code --seat} and the
 * browser's options ({@link BrowserMixin}), a picocli mixin. There is no fallback from one kind to
 * another: {@code --seat} unset is the real page.
 */
public final class SeatMixin {
  public static final String DEFAULT_SEAT = "playwright";

  @Option(names = "--seat", paramLabel = "KIND",
      description = "playwright (the real page, the default) or scripted:<file|name> (tests and demos).")
  String seat;

  @Mixin BrowserMixin browser = new BrowserMixin();

  /** {@code --seat}, else {@code fallback}. */
  public String seatOr(String fallback) {
    return seat != null ? seat : fallback;
  }

  public String seat() {
    return seatOr(DEFAULT_SEAT);
  }

  /** The browser's options. */
  public BrowserMixin browser() {
    return browser;
  }

  /** {@code --profile} made absolute, else {@code fallback}. */
  public Path profileOr(Path fallback) {
    return browser.profileOr(fallback);
  }

  /** The options a seat opens with, defaults filled in. */
  public PlaywrightOptions options(Path home, Path defaultProfile) {
    return browser.options(home, defaultProfile);
  }
}

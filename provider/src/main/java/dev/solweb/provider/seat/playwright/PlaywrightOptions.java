package dev.solweb.provider.seat.playwright;

import com.microsoft.playwright.options.ViewportSize;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * How the Playwright seat reaches its page.
 *
 * @param chatUrl the ChatGPT home page; tests point it at fakesol on loopback
 * @param headless headless Chromium (tests); the real site challenges headless, so the daemon
 *     default is headed (under Xvfb on a headless workstation)
 * @param chromiumPath the Chromium executable; Playwright never downloads a browser
 * @param profileDir the persistent profile of seat 0; seat {@code i > 0} uses {@code <profileDir>-i}
 *     because Chromium allows one process per profile
 * @param home the daemon home, where {@code profile.lock} lives
 * @param display the X display a headed Chromium opens on ({@code :7}); null: the process's own
 *     ({@code solwebctl login --web} starts a virtual one for its window and its enrollment)
 * @param sharedBrowser the DevTools endpoint ({@code http://127.0.0.1:PORT}) of a Chromium already
 *     running, in which each seat opens a fresh context of its own instead of launching Chromium
 *     on its profile; null (the daemon, always): launch. Seat tests share one Chromium per class
 *     this way (a launch costs about 2.7 CPU-s, measured).
 *     Nothing of the profile is then used: its cookies, a crash of "its" Chromium, its orphans.
 * @param model the model the seat runs on, as {@code SOLWEBD_MODEL} says it (a family such as
 *     {@code Astra}, or one row such as {@code GPT-6.2 Sol}); null or blank: the newest Sol model
 *     the picker offers (REAL-PAGE rows 61, 62). Read once by the daemon, like its other settings.
 */
public record PlaywrightOptions(URI chatUrl, boolean headless, Path chromiumPath, Path profileDir, Path home,
    String display, URI sharedBrowser, String model) {

  /** The real page: the only place in the code base that names it. Tests point seats at fakesol. */
  public static final String REAL_CHAT_URL = "https://chatgpt.com/";
  public static final URI DEFAULT_CHAT_URL = URI.create(REAL_CHAT_URL);
  /** The seat's page size, also a watched login window's: a picture's coordinates are then the page's. */
  public static final int PAGE_WIDTH = 1280;
  public static final int PAGE_HEIGHT = 900;

  /** A fresh {@link ViewportSize} of the seat's page size (Playwright's is mutable, so never shared). */
  public static ViewportSize pageViewport() {
    return new ViewportSize(PAGE_WIDTH, PAGE_HEIGHT);
  }
  public static final Path DEFAULT_CHROMIUM = Path.of("/usr/bin/chromium");

  public PlaywrightOptions {
    Objects.requireNonNull(home, "home");
    home = home.toAbsolutePath().normalize();
    chatUrl = chatUrl == null ? DEFAULT_CHAT_URL : chatUrl;
    chromiumPath = chromiumPath == null ? DEFAULT_CHROMIUM : chromiumPath;
    profileDir = (profileDir == null ? home.resolve("profile") : profileDir).toAbsolutePath().normalize();
    model = model == null || model.isBlank() ? null : model.strip();
    String scheme = chatUrl.getScheme();
    if (!"https".equals(scheme) && !"http".equals(scheme)) {
      throw new IllegalArgumentException("chat URL must be http(s), got: " + chatUrl);
    }
  }

  public PlaywrightOptions(
      URI chatUrl, boolean headless, Path chromiumPath, Path profileDir, Path home, String display, URI sharedBrowser) {
    this(chatUrl, headless, chromiumPath, profileDir, home, display, sharedBrowser, null);
  }

  public PlaywrightOptions(URI chatUrl, boolean headless, Path chromiumPath, Path profileDir, Path home, String display) {
    this(chatUrl, headless, chromiumPath, profileDir, home, display, null, null);
  }

  public PlaywrightOptions(URI chatUrl, boolean headless, Path chromiumPath, Path profileDir, Path home) {
    this(chatUrl, headless, chromiumPath, profileDir, home, null, null, null);
  }

  /** Defaults for a daemon home, with {@code SOLWEBD_PROFILE} from {@code env} if set. */
  public static PlaywrightOptions forHome(Path home, Map<String, String> env) {
    String profile = env.get("SOLWEBD_PROFILE");
    return new PlaywrightOptions(
        null, false, null, profile == null || profile.isBlank() ? null : Path.of(profile), home);
  }

  public PlaywrightOptions withChatUrl(URI url) {
    return new PlaywrightOptions(url, headless, chromiumPath, profileDir, home, display, sharedBrowser, model);
  }

  public PlaywrightOptions withHeadless(boolean value) {
    return new PlaywrightOptions(chatUrl, value, chromiumPath, profileDir, home, display, sharedBrowser, model);
  }

  public PlaywrightOptions withChromium(Path path) {
    return new PlaywrightOptions(chatUrl, headless, path, profileDir, home, display, sharedBrowser, model);
  }

  public PlaywrightOptions withProfileDir(Path dir) {
    return new PlaywrightOptions(chatUrl, headless, chromiumPath, dir, home, display, sharedBrowser, model);
  }

  public PlaywrightOptions withDisplay(String value) {
    return new PlaywrightOptions(chatUrl, headless, chromiumPath, profileDir, home, value, sharedBrowser, model);
  }

  public PlaywrightOptions withSharedBrowser(URI endpoint) {
    return new PlaywrightOptions(chatUrl, headless, chromiumPath, profileDir, home, display, endpoint, model);
  }

  /** The same options running on {@code setting} ({@code SOLWEBD_MODEL}); null or blank: the newest Sol. */
  public PlaywrightOptions withModel(String setting) {
    return new PlaywrightOptions(chatUrl, headless, chromiumPath, profileDir, home, display, sharedBrowser, setting);
  }

  /** The profile of one seat: seat 0 owns {@code profileDir}, the others get siblings. */
  public Path profileOf(int seatIndex) {
    return seatIndex == 0 ? profileDir : Path.of(profileDir + "-" + seatIndex);
  }
}

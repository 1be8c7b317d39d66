package dev.solweb.provider.seat.playwright;

import com.microsoft.playwright.Page;
import com.microsoft.playwright.PlaywrightException;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.SeatScreen;
import dev.solweb.provider.seat.playwright.browser.Chromium;
import dev.solweb.provider.seat.playwright.browser.PlaywrightMessages;
import dev.solweb.provider.seat.playwright.page.ChatGptPage;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;

/**
 * The seat's profile in a visible Chromium, for a person to log in ({@code solwebctl login}).
 * It is launched exactly as the seat launches it (same Playwright, same arguments, so the cookies
 * it stores are the ones the seat can read), opens the chat page once, and from then on only
 * watches: it never navigates, so a person on the sign-in site is never pulled back. Logged in
 * means what the seat's probe means: a page on the chat origin without login wall or challenge
 * whose session endpoint names a user. One thread uses it, as Playwright requires.
 */
public final class LoginWindow implements AutoCloseable {

  /** What the window shows now; {@code account} is set once the page is logged in. */
  public record Look(String account, String shows, boolean closed) {
    static Look of(String shows) {
      return new Look(null, shows, false);
    }
  }

  private final URI chatUrl;
  private final Chromium chromium;
  private final PageScreen screen; // null unless the window is watched from a browser (login --web)
  private volatile boolean closedByPerson;
  private boolean closed;

  private LoginWindow(URI chatUrl, Chromium chromium, PageScreen screen) {
    this.chatUrl = chatUrl;
    this.chromium = chromium;
    this.screen = screen;
    chromium.context().onClose(c -> closedByPerson = true);
  }

  /**
   * Opens the profile headed at the chat page. The caller holds the profile lock.
   *
   * @throws SeatException BROKEN when Chromium cannot start (the cause carries Playwright's message)
   */
  public static LoginWindow open(PlaywrightOptions options) throws SeatException {
    return open(options, false);
  }

  /**
   * As {@link #open(PlaywrightOptions)}; {@code watched} also gives the window a {@link #screen()}
   * (its picture, screencast and input, for {@code solwebctl login --web}) and the seat's page
   * size, so a picture's coordinates are the page's.
   */
  public static LoginWindow open(PlaywrightOptions options, boolean watched) throws SeatException {
    // Launched exactly as the seat launches it; no viewport unless watched: the page follows the window.
    Chromium chromium = Chromium.launch(new Chromium.Launch(options.chromiumPath(), options.profileDir(), false,
        watched ? PlaywrightOptions.pageViewport() : null, options.display()));
    try {
      Page page = chromium.firstPage();
      LoginWindow window = new LoginWindow(options.chatUrl(), chromium, watched ? new PageScreen(page, new SeatErrands()) : null);
      page.navigate(options.chatUrl().toString());
      return window;
    } catch (PlaywrightException e) {
      chromium.close();
      throw SeatException.broken("could not start Chromium " + options.chromiumPath() + " on profile "
          + options.profileDir() + ": " + PlaywrightMessages.clean(e.getMessage()), false, e);
    }
  }

  /** One look at every tab, without touching any of them. */
  public Look look() {
    if (closedByPerson || closed) {
      return new Look(null, "the window was closed", true);
    }
    String elsewhere = null;
    try {
      for (Page page : chromium.context().pages()) {
        // Asked of the page itself: page.url() only changes while Playwright dispatches events, and
        // a window that is only watched makes no other call that would dispatch them.
        URI at = URI.create((String) page.evaluate("() => location.href"));
        if (!ChatGptPage.sameOrigin(at, chatUrl)) {
          elsewhere = elsewhere != null ? elsewhere : at.getHost() == null ? page.url() : at.getHost();
          continue;
        }
        ChatGptPage chat = new ChatGptPage(page, chatUrl);
        ChatGptPage.State s = chat.state(Set.of());
        if (s.challenge()) {
          return Look.of("a Cloudflare check (\"" + s.title() + "\"): pass it in the window");
        }
        if (s.loginWall()) {
          return Look.of("the login wall: click \"Log in\" in the window");
        }
        ChatGptPage.Session session = chat.session();
        if (session.known() && session.email() != null) {
          return new Look(session.email(), "logged in as " + session.email(), false);
        }
        return Look.of(session.known() ? "a page with no logged-in user: log in from it" : "the chat page, still loading");
      }
    } catch (PlaywrightException | IllegalArgumentException e) {
      return closedByPerson ? new Look(null, "the window was closed", true) : Look.of("a page that is loading");
    }
    if (chromium.context().pages().isEmpty()) {
      return new Look(null, "the window was closed", true);
    }
    return Look.of("the sign-in page (" + elsewhere + ")");
  }

  /** The window's picture, screencast and hands; empty unless it was opened watched. Any thread. */
  public Optional<SeatScreen> screen() {
    return Optional.ofNullable(screen);
  }

  /**
   * Waits {@code time} on the window's thread, doing meanwhile what the screen's users posted
   * (pictures, frames, input); a plain sleep for a window nobody watches.
   */
  public void idle(Duration time) throws InterruptedException {
    if (screen == null) {
      Thread.sleep(time.toMillis());
    } else {
      screen.idleFor(time);
    }
  }

  /** Closes Chromium the way a person quitting it would (the profile is written out), then the driver. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    chromium.close(); // already gone when the person closed it, or Ctrl-C reached Chromium first
  }
}

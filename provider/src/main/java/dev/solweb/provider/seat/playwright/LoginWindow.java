package dev.solweb.provider.seat.playwright;

import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.PlaywrightException;
import dev.solweb.provider.seat.SeatException;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
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

  private final Path profile;
  private final URI chatUrl;
  private final Playwright playwright;
  private final BrowserContext context;
  private volatile boolean closedByPerson;
  private boolean closed;

  private LoginWindow(Path profile, URI chatUrl, Playwright playwright, BrowserContext context) {
    this.profile = profile;
    this.chatUrl = chatUrl;
    this.playwright = playwright;
    this.context = context;
    context.onClose(c -> closedByPerson = true);
  }

  /**
   * Opens the profile headed at the chat page. The caller holds the profile lock.
   *
   * @throws SeatException BROKEN when Chromium cannot start (the cause carries Playwright's message)
   */
  public static LoginWindow open(PlaywrightOptions options) throws SeatException {
    Path profile = options.profileDir();
    OrphanReaper.reap(profile); // the lock is ours: any Chromium still on the profile belongs to nobody
    DriverCache.use(System.getenv());
    Playwright pw = null;
    try {
      pw = Playwright.create(new Playwright.CreateOptions().setEnv(Map.of("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")));
      BrowserContext ctx = pw.chromium().launchPersistentContext(profile,
          new BrowserType.LaunchPersistentContextOptions()
              .setExecutablePath(options.chromiumPath())
              .setHeadless(false)
              .setArgs(PlaywrightSeat.CHROMIUM_ARGS)
              .setViewportSize((com.microsoft.playwright.options.ViewportSize) null)); // the page follows the window
      Page page = ctx.pages().isEmpty() ? ctx.newPage() : ctx.pages().get(0);
      LoginWindow window = new LoginWindow(profile, options.chatUrl(), pw, ctx);
      page.navigate(options.chatUrl().toString());
      return window;
    } catch (PlaywrightException e) {
      if (pw != null) {
        try {
          pw.close();
        } catch (RuntimeException ignored) {
          // The driver went with the browser.
        }
      }
      OrphanReaper.reap(profile);
      throw SeatException.broken("could not start Chromium " + options.chromiumPath() + " on profile " + profile
          + ": " + e.getMessage(), false, e);
    }
  }

  /** One look at every tab, without touching any of them. */
  public Look look() {
    if (closedByPerson || closed) {
      return new Look(null, "the window was closed", true);
    }
    String elsewhere = null;
    try {
      for (Page page : context.pages()) {
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
    if (context.pages().isEmpty()) {
      return new Look(null, "the window was closed", true);
    }
    return Look.of("the sign-in page (" + elsewhere + ")");
  }

  /** Closes Chromium the way a person quitting it would (the profile is written out), then the driver. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      context.close();
    } catch (PlaywrightException ignored) {
      // Already gone (the person closed it, or Ctrl-C reached Chromium first).
    }
    try {
      playwright.close();
    } catch (RuntimeException ignored) {
      // The driver went with the browser.
    }
    OrphanReaper.reap(profile);
  }
}

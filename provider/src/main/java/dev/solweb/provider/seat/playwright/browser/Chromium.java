package dev.solweb.provider.seat.playwright.browser;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.PlaywrightException;
import com.microsoft.playwright.options.ViewportSize;
import dev.solweb.provider.seat.SeatException;
import java.net.URI;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The ONE way solweb starts a browser: Playwright's driver (unpacked once, {@link DriverCache})
 * and Debian's Chromium on a persistent profile, with the same arguments for the seat and for
 * the login window, so the cookies a person leaves in the login window are the ones the seat
 * reads. Whoever launches holds the {@link ProfileLock}; orphans of a killed predecessor are
 * reaped before the launch and whatever is left after {@link #close()}. Seat tests may instead
 * {@link #attach} to one Chromium they share, a context each.
 */
public final class Chromium implements AutoCloseable {

  /** Measured on this machine kind (../shared/PLAYWRIGHT.md): no sandbox as root, no GPU, no background calls. */
  public static final List<String> ARGS = List.of(
      "--no-sandbox", "--disable-gpu", "--disable-background-networking",
      "--disable-component-update", "--disable-sync", "--no-first-run");

  /** What a Playwright error says when the browser, its tab or the driver is gone. */
  private static final Pattern GONE = Pattern.compile(
      "closed|crash|disconnected|Target.*gone|connection.*(lost|reset)|not connected|Browser has been",
      Pattern.CASE_INSENSITIVE);

  /**
   * How to launch.
   *
   * @param viewport the page size; null lets the page follow a window a person resizes
   * @param display the X display of a headed window; null: the process's own
   */
  public record Launch(Path executable, Path profile, boolean headless, ViewportSize viewport, String display) {
    public Launch(Path executable, Path profile, boolean headless, ViewportSize viewport) {
      this(executable, profile, headless, viewport, null);
    }
  }

  private final Path profile; // null: attached to a Chromium that another owns
  private final Playwright playwright;
  private final BrowserContext context;
  private boolean closed;

  private Chromium(Path profile, Playwright playwright, BrowserContext context) {
    this.profile = profile;
    this.playwright = playwright;
    this.context = context;
  }

  /**
   * Starts Playwright and Chromium on {@code launch.profile()}. The caller holds the profile lock.
   *
   * @throws SeatException BROKEN when Playwright or Chromium cannot start (nothing was sent); the
   *     cause carries Playwright's whole message
   */
  public static Chromium launch(Launch launch) throws SeatException {
    OrphanReaper.reap(launch.profile()); // the lock is ours: any Chromium still on the profile belongs to nobody
    DriverCache.use(System.getenv());
    Playwright pw = null;
    try {
      pw = Playwright.create(new Playwright.CreateOptions().setEnv(Map.of("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")));
      BrowserType.LaunchPersistentContextOptions how = new BrowserType.LaunchPersistentContextOptions()
          .setExecutablePath(launch.executable())
          .setHeadless(launch.headless())
          .setArgs(ARGS)
          .setViewportSize(launch.viewport());
      if (launch.display() != null) {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.put("DISPLAY", launch.display());
        env.remove("WAYLAND_DISPLAY");
        how.setEnv(env);
      }
      BrowserContext context = pw.chromium().launchPersistentContext(launch.profile(), how);
      return new Chromium(launch.profile(), pw, context);
    } catch (PlaywrightException e) {
      if (pw != null) {
        closeQuietly(pw);
      }
      OrphanReaper.reap(launch.profile());
      throw SeatException.broken("could not start Chromium " + launch.executable() + " on profile "
          + launch.profile() + ": " + PlaywrightMessages.clean(e.getMessage()), false, e);
    }
  }

  /**
   * A fresh context, as isolated as a new profile, in the Chromium listening at {@code endpoint}
   * (its DevTools address): what seat tests use to share one Chromium (see
   * {@code PlaywrightOptions.sharedBrowser}). {@link #close()} closes the context and leaves that
   * Chromium running for its owner.
   *
   * @throws SeatException BROKEN when the driver cannot start or the endpoint does not answer
   */
  public static Chromium attach(URI endpoint, ViewportSize viewport) throws SeatException {
    DriverCache.use(System.getenv());
    Playwright pw = null;
    try {
      pw = Playwright.create(new Playwright.CreateOptions().setEnv(Map.of("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")));
      Browser browser = pw.chromium().connectOverCDP(endpoint.toString());
      return new Chromium(null, pw, browser.newContext(new Browser.NewContextOptions().setViewportSize(viewport)));
    } catch (PlaywrightException e) {
      if (pw != null) {
        closeQuietly(pw);
      }
      throw SeatException.broken("could not open a context in the Chromium at " + endpoint + ": "
          + PlaywrightMessages.clean(e.getMessage()), false, e);
    }
  }

  public BrowserContext context() {
    return context;
  }

  /** The tab Chromium opened with the profile, or a new one. */
  public Page firstPage() {
    return context.pages().isEmpty() ? context.newPage() : context.pages().get(0);
  }

  /** Whether a Playwright error means the browser, the tab or the driver is gone (not a page fault). */
  public static boolean gone(PlaywrightException e) {
    return e.getMessage() != null && GONE.matcher(e.getMessage()).find();
  }

  /** Closes Chromium as a person quitting it would (the profile is written out), then the driver; reaps what is left. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      context.close();
    } catch (PlaywrightException ignored) {
      // A dead browser has nothing left to close.
    }
    closeQuietly(playwright); // an attached Chromium only loses this connection
    if (profile != null) {
      OrphanReaper.reap(profile);
    }
  }

  private static void closeQuietly(Playwright pw) {
    try {
      pw.close();
    } catch (RuntimeException ignored) {
      // The driver may already be gone with the browser.
    }
  }
}

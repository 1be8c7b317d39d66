package dev.solweb.killgate;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Playwright;
import dev.solweb.provider.seat.playwright.PlaywrightOptions;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The browser side of fakesol's page tests (no seat): one headless Chromium a test class shares,
 * and whatever a test opened in it, fakesol servers and contexts, closed after that test, newest
 * first, so a failed assertion never leaves a server or a context behind for the next test.
 * Registered as {@code @RegisterExtension static final FakeSolPages PAGES = new FakeSolPages();}.
 */
final class FakeSolPages implements BeforeAllCallback, AfterAllCallback, AfterEachCallback {

  private final Deque<AutoCloseable> opened = new ArrayDeque<>();
  private Playwright playwright;
  private Browser browser;

  @Override
  public void beforeAll(ExtensionContext context) {
    playwright = Playwright.create(new Playwright.CreateOptions().setEnv(Map.of("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")));
    browser = playwright.chromium().launch(new BrowserType.LaunchOptions().setHeadless(true)
        .setExecutablePath(PlaywrightOptions.DEFAULT_CHROMIUM).setArgs(List.of("--no-sandbox", "--disable-gpu")));
  }

  @Override
  public void afterEach(ExtensionContext context) throws Exception {
    while (!opened.isEmpty()) {
      opened.pop().close();
    }
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (playwright != null) {
      playwright.close();
    }
  }

  Browser browser() {
    return browser;
  }

  /** {@code resource}, closed after the test that opened it. */
  <T extends AutoCloseable> T closeAfter(T resource) {
    opened.push(resource);
    return resource;
  }

  /** A fresh context the size of a laptop's window (1280 x 900), closed after the test. */
  BrowserContext newContext() {
    return closeAfter(browser.newContext(new Browser.NewContextOptions().setViewportSize(1280, 900)));
  }
}

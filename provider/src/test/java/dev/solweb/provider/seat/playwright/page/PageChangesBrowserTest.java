package dev.solweb.provider.seat.playwright.page;

import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import dev.solweb.provider.seat.playwright.PlaywrightOptions;
import dev.solweb.provider.seat.playwright.browser.Chromium;
import dev.solweb.provider.seat.playwright.browser.DriverCache;
import dev.solweb.testkit.Programs;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link PageChanges} in headless Chromium: what ends the seat's wait for the page. Each wait that
 * must end on a change is given far more time than the change needs, and the test checks why it
 * ended (another count), never how long it took.
 */
class PageChangesBrowserTest {

  /** Far longer than any change below takes: a wait that ends by its time instead fails on its count. */
  private static final Duration LONG = Duration.ofSeconds(30);
  private static final String PAGE = "data:text/html,<main><p id=answer>Hel</p><button id=send disabled>Send</button></main>";

  static Playwright playwright;
  static Browser browser;
  BrowserContext context;
  Page page;

  @BeforeAll
  static void start() {
    Programs.require(PlaywrightOptions.DEFAULT_CHROMIUM.toString());
    DriverCache.use(System.getenv());
    playwright = Playwright.create(new Playwright.CreateOptions().setEnv(Map.of("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")));
    browser = playwright.chromium().launch(new BrowserType.LaunchOptions()
        .setExecutablePath(PlaywrightOptions.DEFAULT_CHROMIUM).setHeadless(true).setArgs(Chromium.ARGS));
  }

  @AfterAll
  static void stop() {
    if (browser != null) {
      browser.close();
    }
    if (playwright != null) {
      playwright.close();
    }
  }

  @BeforeEach
  void openPage() {
    context = browser.newContext();
    context.addInitScript(PageChanges.INIT_SCRIPT);
    page = context.newPage();
    page.navigate(PAGE);
  }

  @AfterEach
  void closePage() {
    context.close();
  }

  @Test
  void answerTextWrittenWhileTheSeatWaitsEndsTheWaitWithAnotherCount() {
    long since = PageChanges.count(page);
    page.evaluate("() => setTimeout(() => { document.getElementById('answer').textContent = 'Hello'; }, 50)");
    PageChanges.Wake wake = PageChanges.await(page, since, LONG);
    assertThat(wake.changedSince(since)).isTrue();
    assertThat(page.textContent("#answer")).isEqualTo("Hello");
  }

  @Test
  void anAttributeChangeEndsTheWaitToo() {
    long since = PageChanges.count(page);
    page.evaluate("() => setTimeout(() => document.getElementById('send').removeAttribute('disabled'), 50)");
    assertThat(PageChanges.await(page, since, LONG).changedSince(since)).as("Send enabled").isTrue();
  }

  @Test
  void aStillPageKeepsItsCountAndNamesNoNews() {
    long since = PageChanges.count(page);
    PageChanges.Wake wake = PageChanges.await(page, since, Duration.ofMillis(150));
    assertThat(wake.count()).isEqualTo(since);
    assertThat(wake.changedSince(since)).isFalse();
    assertThat(wake.news()).isFalse();
  }

  @Test
  void aChangeBeforeTheWaitEndsItAtOnce() {
    long since = PageChanges.count(page);
    page.evaluate("() => { document.getElementById('answer').textContent = 'Hello'; }");
    assertThat(PageChanges.await(page, since, LONG).changedSince(since)).isTrue();
  }

  @Test
  void anotherDocumentReadsAsAChange() {
    long since = PageChanges.count(page);
    page.navigate(PAGE.replace("Hel", "Bye"));
    assertThat(PageChanges.await(page, since, LONG).changedSince(since)).isTrue();
  }

  @Test
  void aDocumentWithoutTheObserverAlwaysReadsAsChanged() {
    BrowserContext bare = browser.newContext();
    try {
      Page plain = bare.newPage();
      plain.navigate(PAGE);
      assertThat(PageChanges.count(plain)).isEqualTo(PageChanges.UNKNOWN);
      assertThat(PageChanges.await(plain, PageChanges.UNKNOWN, Duration.ofMillis(20)).changedSince(PageChanges.UNKNOWN))
          .as("no count to compare: the caller reads the page").isTrue();
    } finally {
      bare.close();
    }
  }
}

package dev.solweb.killgate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import dev.solweb.killgate.FakesolDaemons.Running;
import dev.solweb.killgate.fakesol.FakeSol;
import dev.solweb.provider.scenario.Scenario;
import dev.solweb.provider.seat.playwright.PlaywrightOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a new owner meets before logging in: solwebd on a fakesol page that shows the login wall,
 * its operator page in a real headless Chromium. The banner says the cause once, in the daemon's
 * words (it read "logged out: logged out: ..." when the page put the state in front of a detail
 * that already named it), and the header shows no median of turns that never ran. (solwebctl
 * takes the same line: SolwebdDiagnosticsTest, on an enrolled home.) Screenshot:
 * target/operator-screens/10-logged-out.png.
 */
@Timeout(180)
class OperatorPageLoggedOutTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path home;

  @Test
  void theBannerNamesTheCauseOnceAndTheHeaderHasNoMedianYet() throws Exception {
    Path shots = Files.createDirectories(Path.of("target", "operator-screens"));
    try (FakeSol sol = FakeSol.start(Scenario.parse("{\"account\": \"owner@example.invalid\", \"state\": \"logged_out\","
            + " \"default\": [{\"prose\": \"ok\"}]}"), 0);
        FakesolDaemons daemons = new FakesolDaemons(home, sol.url());
        Playwright playwright = Playwright.create(new Playwright.CreateOptions()
            .setEnv(Map.of("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")))) {
      Running daemon = daemons.startIn("logged_out", Map.of());
      JsonNode health = JSON.readTree(daemons.get(daemon, "/healthz").body());
      String detail = health.path("detail").asText();
      assertThat(detail).startsWith("logged out: the profile ");
      assertThat(health.path("cause").asText()).isEqualTo(detail);

      FakesolDaemons.CtlRun open = daemons.ctl("open", "--print");
      assertThat(open.code()).as(open.out() + open.err()).isZero();
      Browser browser = playwright.chromium().launch(new BrowserType.LaunchOptions().setHeadless(true)
          .setExecutablePath(PlaywrightOptions.DEFAULT_CHROMIUM).setArgs(List.of("--no-sandbox", "--disable-gpu")));
      Page page = browser.newContext(new Browser.NewContextOptions().setViewportSize(1280, 900)).newPage();
      List<String> errors = new ArrayList<>();
      page.onConsoleMessage(message -> {
        if (message.type().equals("error")) {
          errors.add(message.text());
        }
      });
      page.navigate(open.out().strip());
      page.locator("#daemon-state[data-state=\"logged_out\"]").waitFor(new Locator.WaitForOptions().setTimeout(30_000));
      Locator banner = page.locator("#cause");
      banner.waitFor(new Locator.WaitForOptions().setTimeout(30_000));
      page.screenshot(new Page.ScreenshotOptions().setPath(shots.resolve("10-logged-out.png")).setFullPage(true));

      assertThat(banner.textContent()).isEqualTo(detail).doesNotContain("logged out: logged out");
      assertThat(page.locator("#daemon-meta").textContent()).endsWith("· no turns yet").doesNotContain("p50");
      assertThat(errors).isEmpty();
    }
  }
}

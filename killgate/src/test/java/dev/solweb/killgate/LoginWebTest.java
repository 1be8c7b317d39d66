package dev.solweb.killgate;

import static dev.solweb.killgate.SeatPictures.box;
import static dev.solweb.killgate.SeatPictures.clickOnPicture;
import static dev.solweb.killgate.SeatPictures.difference;
import static dev.solweb.killgate.SeatPictures.png;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.microsoft.playwright.APIResponse;
import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.options.BoundingBox;
import dev.solweb.killgate.fakesol.FakeSol;
import dev.solweb.provider.scenario.Scenario;
import dev.solweb.provider.seat.playwright.PlaywrightOptions;
import dev.solweb.provider.seat.playwright.browser.OrphanReaper;
import dev.solweb.testkit.Programs;
import java.awt.image.BufferedImage;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code solwebctl login --web} with no display: it starts its own virtual display, prints a
 * one-time URL, and the login done through that page (the live view, relayed clicks and keys) is
 * enrolled; the URL works once, a foreign Host is refused, and the page is gone with the login.
 */
class LoginWebTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PERSON = "person@example.invalid";
  private static final Pattern URL = Pattern.compile("open (http://127\\.0\\.0\\.1:(\\d+)/ui/login\\?code=[A-Za-z0-9_-]+) in a browser");
  private static final Path SHOTS = Path.of("target", "operator-screens");

  @TempDir Path dir;
  private FakeSol sol;
  private Process login;
  private Path profile;

  @AfterEach
  void tearDown() throws Exception {
    if (login != null) {
      login.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    if (profile != null) {
      OrphanReaper.reap(profile);
    }
    if (sol != null) {
      sol.close();
    }
  }

  @Test
  void withNoDisplayItPrintsAOneTimeUrlAndTheLoginDoneThroughItIsEnrolled() throws Exception {
    Programs.require("Xvfb");
    Programs.require(PlaywrightOptions.DEFAULT_CHROMIUM.toString());
    Files.createDirectories(SHOTS);
    sol = FakeSol.start(Scenario.parse("{\"account\": \"owner@example.invalid\", \"state\": \"logged_out\","
        + " \"default\": [{\"prose\": \"ok\"}]}"), 0);
    Path home = dir.resolve("home");
    profile = home.resolve("profile");
    login = HeadedRig.java(Map.of("HOME", dir.toString(), "SOLWEBD_HOME", home.toString()),
        "dev.solweb.provider.ctl.Solwebctl", List.of("login", "--web", "--chat-url", sol.url().toString(), "--timeout", "90"))
        .start();
    HeadedRig.Output out = new HeadedRig.Output(login);
    Matcher url = URL.matcher(out.await("in a browser on this machine", Duration.ofSeconds(60)));
    assertThat(url.find()).isTrue();
    URI oneTime = URI.create(url.group(1));
    int port = Integer.parseInt(url.group(2));
    assertThat(out.text()).contains("the window opens on a virtual display of its own (Xvfb :");

    try (Playwright playwright = Playwright.create(new Playwright.CreateOptions().setEnv(Map.of("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")));
        Browser browser = playwright.chromium().launch(new BrowserType.LaunchOptions().setHeadless(true)
            .setExecutablePath(PlaywrightOptions.DEFAULT_CHROMIUM).setArgs(List.of("--no-sandbox", "--disable-gpu")))) {
      BrowserContext twin = browser.newContext(new Browser.NewContextOptions().setViewportSize(PlaywrightOptions.pageViewport()));
      Page wall = twin.newPage();
      wall.navigate(sol.url().toString());
      BoundingBox logIn = box(wall, "[data-testid=login-button]");
      Page signIn = twin.newPage();
      signIn.navigate("http://localhost:" + sol.url().getPort() + "/auth/login");
      BoundingBox email = box(signIn, "#email-input");
      BoundingBox go = box(signIn, "#continue-button");

      BrowserContext person = browser.newContext(new Browser.NewContextOptions().setViewportSize(1400, 1000));
      Page page = person.newPage();
      page.navigate(oneTime.toString());
      assertThat(page.url()).as("the code is traded for a cookie").isEqualTo("http://127.0.0.1:" + port + "/");
      Locator view = page.locator(".seat-live");
      page.waitForCondition(() -> view.getAttribute("data-frames") != null);
      assertThat(view.getAttribute("data-source")).isEqualTo("live");
      assertThat(view.getAttribute("data-state")).as("the person at the page controls the window").isEqualTo("controlled");
      BufferedImage before = picture(person, port);
      page.screenshot(new Page.ScreenshotOptions().setPath(SHOTS.resolve("login-web-wall.png")));

      // The one-time URL works once; a foreign Host is refused; no cookie, no picture.
      BrowserContext other = browser.newContext();
      APIResponse reused = other.request().get(oneTime.toString());
      assertThat(reused.status()).isEqualTo(401);
      assertThat(reused.text()).contains("code_reused").contains("run solwebctl login --web again");
      assertThat(other.request().get("http://127.0.0.1:" + port + "/ui/api/seats/0/screen.png").status()).isEqualTo(401);
      assertThat(statusLine(port, "evil.example")).contains(" 421 ");
      other.close();

      Locator canvas = view.locator("canvas");
      clickOnPicture(page, canvas, logIn);
      page.waitForCondition(() -> "0".equals(view.getAttribute("data-inflight")));
      try {
        awaitChange(person, port, before, "the sign-in page after the relayed click on Log in");
      } catch (AssertionError e) {
        Files.write(SHOTS.resolve("login-web-unexpected.png"), person.request().get("http://127.0.0.1:" + port + "/ui/api/seats/0/screen.png").body());
        page.screenshot(new Page.ScreenshotOptions().setPath(SHOTS.resolve("login-web-unexpected-page.png")));
        throw new AssertionError(e.getMessage() + "; solwebctl printed:\n" + out.text() + "\nnote: " + view.locator(".seat-live-note").textContent());
      }
      clickOnPicture(page, canvas, email);
      page.keyboard().type(PERSON);
      page.waitForCondition(() -> "0".equals(view.getAttribute("data-inflight")));
      page.screenshot(new Page.ScreenshotOptions().setPath(SHOTS.resolve("login-web-sign-in.png")));
      clickOnPicture(page, canvas, go);

      out.await("logged in as " + PERSON, Duration.ofSeconds(60));
    }
    assertThat(login.waitFor(120, TimeUnit.SECONDS)).as("solwebctl login exited: %s", out.text()).isTrue();
    assertThat(login.exitValue()).as(out.text()).isZero();
    assertThat(out.text()).contains("enrolled " + PERSON + " " + profile.toRealPath() + "; next: solwebctl ensure");
    assertThat(JSON.readTree(Files.readString(home.resolve("identity.json"))).path("expected_account").asText()).isEqualTo(PERSON);
    assertThat(OrphanReaper.find(profile)).as("no Chromium left on the profile").isEmpty();
    try (Socket gone = new Socket()) {
      gone.connect(new java.net.InetSocketAddress("127.0.0.1", port), 2000);
      throw new AssertionError("the login view still listens after the login");
    } catch (java.net.ConnectException expected) {
      // the view ended with the login
    }
  }

  private static BufferedImage picture(BrowserContext person, int port) throws Exception {
    APIResponse shot = person.request().get("http://127.0.0.1:" + port + "/ui/api/seats/0/screen.png");
    assertThat(shot.status()).isEqualTo(200);
    return png(shot.body());
  }

  /** Waits until the window's picture is clearly not {@code before} any more (more than a caret's blink). */
  private static void awaitChange(BrowserContext person, int port, BufferedImage before, String what) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (System.nanoTime() < deadline) {
      if (difference(picture(person, port), before) > 0.003) {
        return;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("the window never showed " + what);
  }

  /** The status line of a plain GET / with {@code host} as its Host header. */
  private static String statusLine(int port, String host) throws Exception {
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.setSoTimeout(5000);
      OutputStream out = socket.getOutputStream();
      out.write(("GET / HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      StringBuilder line = new StringBuilder();
      for (int c; (c = in.read()) != -1 && c != '\n'; ) {
        line.append((char) c);
      }
      return line.toString();
    }
  }
}

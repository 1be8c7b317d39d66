package dev.solweb.provider.seat.playwright.page;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.solweb.provider.seat.playwright.PlaywrightOptions;
import dev.solweb.provider.seat.playwright.browser.Chromium;
import dev.solweb.testkit.Programs;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Pages to read in headless Chromium, served on loopback with {@code /api/auth/session}: the
 * REAL captures of ../shared/realdom/ ({@code /capture/<path>}, never copied into the repo) and
 * this project's hand-written late-2026 pages ({@code /late/<file>}, test resources). Each is an
 * outerHTML fragment, served in a document shell unchanged; every request that is not to a
 * loopback address is aborted, so nothing leaves the machine. A JUnit extension: one server and one
 * Chromium per test class ({@code @RegisterExtension static final CapturedPages pages = new CapturedPages();}).
 */
final class CapturedPages implements BeforeAllCallback, AfterAllCallback {

  static final Path REALDOM = locate();

  private HttpServer server;
  private Playwright playwright;
  private Browser browser;

  /** ../shared/realdom from the repo root (the worktree's parent holds shared/), else /work/shared/realdom. */
  private static Path locate() {
    Path repo = Path.of("").toAbsolutePath();
    for (Path p = repo; p != null; p = p.getParent()) {
      Path candidate = p.resolveSibling("shared").resolve("realdom");
      if (Files.isDirectory(candidate)) {
        return candidate;
      }
    }
    return Path.of("/work/shared/realdom");
  }

  @Override
  public void beforeAll(ExtensionContext context) throws IOException {
    Programs.require(PlaywrightOptions.DEFAULT_CHROMIUM.toString());
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/api/auth/session", ex ->
        send(ex, 200, "application/json", "{\"user\": {\"email\": \"capture@solweb.invalid\"}}"));
    server.createContext("/capture/", ex -> {
      Path file = REALDOM.resolve(ex.getRequestURI().getPath().substring("/capture/".length())).normalize();
      if (!file.startsWith(REALDOM) || !Files.isRegularFile(file)) {
        send(ex, 404, "text/plain", "");
        return;
      }
      send(ex, 200, "text/html; charset=utf-8", shell(Files.readString(file)));
    });
    server.createContext("/late/", ex -> {
      String name = ex.getRequestURI().getPath().substring("/late/".length());
      try (InputStream in = name.matches("[a-z0-9.-]+\\.html") ? CapturedPages.class.getResourceAsStream("/late2026/" + name) : null) {
        if (in == null) {
          send(ex, 404, "text/plain", "");
          return;
        }
        send(ex, 200, "text/html; charset=utf-8", shell(new String(in.readAllBytes(), StandardCharsets.UTF_8)));
      }
    });
    server.start();
    playwright = Playwright.create(new Playwright.CreateOptions().setEnv(Map.of("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")));
    browser = playwright.chromium().launch(new BrowserType.LaunchOptions().setHeadless(true)
        .setExecutablePath(PlaywrightOptions.DEFAULT_CHROMIUM).setArgs(Chromium.ARGS));
  }

  private static String shell(String fragment) {
    return "<!doctype html><html><head><meta charset=\"utf-8\"><title>ChatGPT</title></head><body>" + fragment + "</body></html>";
  }

  private static void send(HttpExchange ex, int status, String type, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().add("content-type", type);
    ex.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
    if (bytes.length > 0) {
      ex.getResponseBody().write(bytes);
    }
    ex.close();
  }

  URI base() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
  }

  /** A new tab on {@code path} ({@code capture/<realdom path>} or {@code late/<file>}). */
  Page open(String path) {
    Page page = browser.newPage();
    page.route("**/*", route -> {
      String host = URI.create(route.request().url()).getHost();
      if ("127.0.0.1".equals(host) || "localhost".equals(host)) {
        route.resume();
      } else {
        route.abort();
      }
    });
    page.navigate(base() + path);
    return page;
  }

  ChatGptPage chat(String path) {
    return new ChatGptPage(open(path), base());
  }

  @Override
  public void afterAll(ExtensionContext context) {
    playwright.close();
    server.stop(0);
  }
}

package dev.solweb.killgate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.microsoft.playwright.APIResponse;
import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.Response;
import com.microsoft.playwright.Route;
import com.microsoft.playwright.options.WaitForSelectorState;
import dev.solweb.killgate.FakesolDaemons.Running;
import dev.solweb.killgate.fakesol.ChatHistory;
import dev.solweb.killgate.fakesol.FakeSol;
import dev.solweb.provider.scenario.Scenario;
import dev.solweb.provider.seat.playwright.PlaywrightOptions;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * solwebd's operator page in a real headless Chromium, against a real {@code solwebd --seat
 * playwright} on fakesol: one daemon and one browser for the class (CI time). Signed in by the
 * URL {@code solwebctl open --print} prints; the seat is seen ready, a turn's progress is watched
 * while a chat request runs (fakesol thinks, then streams), the turn lands in the last turns, a
 * conversation is deleted through the confirmation, doctor runs, and a reused code is refused.
 * Screenshots go to target/operator-screens/.
 */
@Timeout(240)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class OperatorPageTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path SHOTS = Path.of("target", "operator-screens");
  private static final String ACCOUNT = "owner@example.invalid";
  private static final String PROMPT = "operator page: create hello.txt";
  private static final String CLIENT_SESSION = "v1.OOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOO";
  private static final String SCENARIO = """
      {"account": "owner@example.invalid",
       "conversations": [{"match": "unusual", "replies": [{"fault": "unusual_activity"}]}],
       "default": [
        {"blocks": ["{\\"tool\\": \\"final\\", \\"text\\": \\"done: the operator watched\\"}"],
         "thinking_ms": 3000, "stream_ms": 3000}
      ]}
      """;
  private static final int WAIT_MS = 30_000;

  @TempDir static Path home;
  private static FakeSol sol;
  private static FakesolDaemons daemons;
  private static Running daemon;
  private static Playwright playwright;
  private static Browser browser;
  /** The first sign-in URL, spent by the first test; the last test spends it again. */
  private static String firstLogin;

  private BrowserContext context;
  private Page page;
  private final List<String> consoleErrors = new ArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    Files.createDirectories(SHOTS);
    sol = FakeSol.start(Scenario.parse(SCENARIO), 0);
    daemons = new FakesolDaemons(home, sol.url());
    // The operator's page as a browser seat's owner sees it: the default Send gap (FakesolDaemons sets none).
    daemon = daemons.start(ACCOUNT, Map.of("SOLWEBD_SEND_GAP_MS", "2000"));
    playwright = Playwright.create(new Playwright.CreateOptions().setEnv(Map.of("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")));
    browser = playwright.chromium().launch(new BrowserType.LaunchOptions().setHeadless(true)
        .setExecutablePath(PlaywrightOptions.DEFAULT_CHROMIUM).setArgs(List.of("--no-sandbox", "--disable-gpu")));
  }

  @AfterAll
  static void stop() throws Exception {
    if (playwright != null) {
      playwright.close();
    }
    if (daemons != null) {
      daemons.close();
    }
    if (sol != null) {
      sol.close();
    }
  }

  @BeforeEach
  void newContext() {
    context = browser.newContext(new Browser.NewContextOptions().setViewportSize(1280, 900));
    page = context.newPage();
    page.onConsoleMessage(message -> {
      if (message.type().equals("error")) {
        consoleErrors.add(message.text());
      }
    });
  }

  @AfterEach
  void closeContext() {
    context.close();
  }

  private static String signInUrl() {
    FakesolDaemons.CtlRun open = daemons.ctl("open", "--print");
    assertThat(open.code()).as(open.out() + open.err()).isZero();
    String url = open.out().strip();
    assertThat(url).matches("http://127\\.0\\.0\\.1:" + daemon.base().getPort() + "/ui/login\\?code=[A-Za-z0-9_-]{43}");
    return url;
  }

  private void shot(String name) {
    page.screenshot(new Page.ScreenshotOptions().setPath(SHOTS.resolve(name + ".png")).setFullPage(true));
  }

  private Locator waitFor(String selector) {
    Locator found = page.locator(selector).first();
    found.waitFor(new Locator.WaitForOptions().setTimeout(WAIT_MS));
    return found;
  }

  private static ObjectNode chatRequest() {
    return chatRequest(PROMPT);
  }

  private static ObjectNode chatRequest(String prompt) {
    ObjectNode body = JSON.createObjectNode().put("model", "sol-web-high");
    ArrayNode messages = body.putArray("messages");
    messages.addObject().put("role", "system").put("content", "You are terse.");
    messages.addObject().put("role", "user").put("content", prompt);
    ObjectNode fn = body.putArray("tools").addObject().put("type", "function").putObject("function");
    fn.put("name", "write").put("description", "write a file").putObject("parameters").put("type", "object");
    return body;
  }

  @Test
  @Order(1)
  void signedInByTheOpenUrlThePageShowsTheSeatReadyThenWatchesATurnThinkAndWrite() throws Exception {
    firstLogin = signInUrl();
    Response landed = page.navigate(firstLogin);
    assertThat(landed.url()).isEqualTo(daemon.base() + "/");
    assertThat(landed.status()).isEqualTo(200);
    assertThat(landed.headers().get("content-security-policy")).contains("script-src 'self'", "frame-ancestors 'none'");
    assertThat(context.cookies()).singleElement().satisfies(cookie -> {
      assertThat(cookie.httpOnly).isTrue();
      assertThat(cookie.sameSite.name()).isEqualTo("STRICT");
      assertThat(cookie.path).isEqualTo("/");
    });
    assertThat(page.evaluate("document.cookie")).as("HttpOnly: no script sees it").isEqualTo("");

    waitFor("#daemon-state[data-state=\"ready\"]");
    assertThat(page.locator("#account").textContent()).isEqualTo(ACCOUNT);
    Locator seat = waitFor("[data-seat-card=\"0\"]");
    assertThat(seat.locator(".badge").textContent()).isEqualTo("ready");
    assertThat(seat.locator(".seat-live[data-seat=\"0\"]").count()).as("the control helper's slot").isEqualTo(1);
    shot("01-signed-in-seat-ready");
    assertThat(page.locator("#daemon-meta").textContent()).as("no median before a turn has finished")
        .endsWith("· no turns yet").doesNotContain("p50");

    CompletableFuture<HttpResponse<String>> chat = CompletableFuture.supplyAsync(() -> {
      try {
        return daemons.post(daemon, CLIENT_SESSION, chatRequest());
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    Locator stage = seat.locator(".turn .stage");
    waitFor("[data-seat-card=\"0\"] .turn[data-state=\"thinking\"]");
    assertThat(seat.locator(".badge").textContent()).isEqualTo("in a turn");
    assertThat(seat.locator(".turn .numbers").textContent()).contains("thinking", "elapsed");
    shot("02-turn-thinking");
    waitFor("[data-seat-card=\"0\"] .turn[data-state=\"writing\"]");
    assertThat(stage.textContent()).isEqualTo("writing");
    assertThat(seat.locator(".turn .numbers").textContent()).containsPattern("writing [0-9,]+ chars");
    shot("03-turn-writing");

    HttpResponse<String> answered = chat.get(90, TimeUnit.SECONDS);
    assertThat(answered.statusCode()).as(answered.body()).isEqualTo(200);
    Locator last = waitFor("#last-turns tbody tr");
    assertThat(last.textContent()).contains("answered", "high");
    page.waitForFunction("() => document.getElementById('daemon-meta').textContent.includes('turn p50')", null,
        new Page.WaitForFunctionOptions().setTimeout(WAIT_MS));
    assertThat(page.locator("#daemon-meta").textContent()).containsPattern("· turn p50 [0-9]+\\.[0-9] s$");
    page.locator("[data-seat-card=\"0\"] .turn").waitFor(new Locator.WaitForOptions()
        .setState(WaitForSelectorState.HIDDEN).setTimeout(WAIT_MS));
    assertThat(page.content()).as("no prompt or answer text, no token")
        .doesNotContain(PROMPT).doesNotContain("the operator watched").doesNotContain(daemon.token());
    shot("04-last-turns");

    // A client that rewrites its history (a message in place of the answer the page gave) replays it
    // into a fresh conversation, and the turn list says why (issue 38).
    ObjectNode rewritten = chatRequest();
    ((ArrayNode) rewritten.get("messages")).addObject().put("role", "user").put("content", "a message in place of the answer");
    HttpResponse<String> replayed = daemons.post(daemon, CLIENT_SESSION, rewritten);
    assertThat(replayed.statusCode()).as(replayed.body()).isEqualTo(200);
    page.waitForFunction("() => document.querySelector('#last-turns tbody tr')?.textContent.includes('replayed: rewritten')",
        null, new Page.WaitForFunctionOptions().setTimeout(WAIT_MS));
    assertThat(page.locator("#last-turns tbody tr").count()).isEqualTo(2);
    assertThat(page.locator("#last-turns tbody tr").nth(1).textContent()).doesNotContain("replayed");
    shot("04b-last-turns-replayed");
    assertThat(consoleErrors).as("no CSP violation, no script error").isEmpty();
  }

  @Test
  @Order(2)
  void doctorRunsAndAConversationIsDeletedOnlyThroughTheConfirmation() throws Exception {
    page.navigate(signInUrl());
    // Doctor first: it reads the seat's current page, the conversation this test then deletes.
    page.locator("#doctor-run").click();
    Locator summary = page.locator("#doctor-summary").filter(new Locator.FilterOptions().setHasText("checks"));
    summary.waitFor(new Locator.WaitForOptions().setTimeout(60_000));
    assertThat(summary.textContent()).contains("state ready", "dom_variant");
    assertThat(page.locator("#doctor-checks li").count()).isGreaterThan(3);
    assertThat(page.locator("#doctor-checks").textContent()).contains("signed");
    assertThat(page.locator("#log").textContent()).isNotBlank();
    shot("05-doctor");

    Locator row = waitFor("#conversations tbody tr[data-conversation]");
    String id = row.getAttribute("data-conversation");
    assertThat(sol.sends()).extracting(s -> s.conversationId()).contains(id);

    row.locator("button[data-delete]").click();
    Locator dialog = waitFor("#confirm-delete[open]");
    assertThat(dialog.textContent()).contains("Delete this conversation?", id);
    shot("06-delete-confirmation");
    dialog.locator("button[value=\"cancel\"]").click();
    assertThat(page.locator("#confirm-delete[open]").count()).isZero();
    assertThat(sol.history().deletes()).as("cancel deletes nothing").isEmpty();

    row.locator("button[data-delete]").click();
    waitFor("#confirm-delete[open]").locator("#confirm-yes").click();
    page.locator("#conv-result").filter(new Locator.FilterOptions().setHasText("deleted"))
        .waitFor(new Locator.WaitForOptions().setTimeout(60_000));
    page.locator("#conversations tbody tr[data-conversation=\"" + id + "\"]").waitFor(
        new Locator.WaitForOptions().setState(WaitForSelectorState.DETACHED).setTimeout(WAIT_MS));
    assertThat(sol.history().deletes()).extracting(ChatHistory.Delete::conversationId).containsExactly(id);
    JsonNode listed = JSON.readTree(daemons.get(daemon, "/v1/conversations").body());
    assertThat(listed.path("data").get(0).path("status").asText()).isEqualTo("deleted");
    shot("07-deleted");

    assertThat(consoleErrors).isEmpty();
  }

  /**
   * The control helper's slot: with a seat-live module in the jar ({@code seat_live: true}), the
   * page imports {@code /ui/seat-live.js} and calls {@code mountSeatLive(element, seatIndex, api)}
   * once per seat card, with the card's own slot, and the slot survives every later poll. The
   * module and the flag are supplied here through Playwright's routing, so the test holds with or
   * without the real module in the jar.
   */
  @Test
  @Order(3)
  void aSeatLiveModuleIsMountedOncePerSeatCardInItsSlot() {
    page.route("**/ui/api/state", route -> {
      APIResponse real = route.fetch();
      try {
        ObjectNode state = (ObjectNode) JSON.readTree(real.text());
        state.put("seat_live", true);
        route.fulfill(new Route.FulfillOptions().setResponse(real).setBody(state.toString()));
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    page.route("**/ui/seat-live.js", route -> route.fulfill(new Route.FulfillOptions()
        .setStatus(200).setContentType("text/javascript").setBody(String.join("\n",
            "export function mountSeatLive(element, seatIndex, api) {",
            "  element.dataset.mounts = String(Number(element.dataset.mounts ?? 0) + 1);",
            "  element.textContent = `live view of seat ${seatIndex}`;",
            "  api.get('/ui/api/state').then((s) => { element.dataset.seen = s.health.state; });",
            "}"))));
    page.navigate(signInUrl());
    Locator slot = waitFor(".seat-live[data-seat=\"0\"][data-seen=\"ready\"]");
    String updated = page.locator("#updated").textContent();
    page.waitForFunction("(before) => document.getElementById('updated').textContent !== before", updated,
        new Page.WaitForFunctionOptions().setTimeout(WAIT_MS));
    assertThat(slot.textContent()).isEqualTo("live view of seat 0");
    assertThat(slot.getAttribute("data-mounts")).as("mounted once, kept across polls").isEqualTo("1");
    assertThat(page.locator("[data-seat-card=\"0\"] .seat-live").count()).isEqualTo(1);
    shot("08-seat-live-slot");
    assertThat(consoleErrors).isEmpty();
  }

  @Test
  @Order(4)
  void aReusedCodeIsRefusedAndABrowserWithoutASessionIsToldHowToSignIn() {
    assertThat(firstLogin).as("the first test spent it").isNotNull();
    Response refused = page.navigate(firstLogin);
    System.out.println("FIGURE reused code in the browser: " + refused.status() + " " + page.locator("body").textContent());
    assertThat(refused.status()).isEqualTo(401);
    assertThat(page.locator("h1").textContent()).isEqualTo("Sign-in refused");
    assertThat(page.locator("body").textContent()).contains("already used", "solwebctl open");
    assertThat(context.cookies()).as("nothing set").isEmpty();
    shot("09-reused-code-refused");

    Response signedOut = page.navigate(daemon.base() + "/");
    assertThat(signedOut.status()).isEqualTo(401);
    assertThat(page.locator("body").textContent()).contains("Not signed in", "solwebctl open");
    assertThat(page.content()).doesNotContain(daemon.token());
  }

  /**
   * After the first test's turn the Limits panel shows what fakesol's page said is left (its
   * counters, REAL-PAGE row 50), the Send solweb made for that effort and model, and the plan's
   * allowance marked as published, not measured. Last, so it adds no time before the reused-code
   * test, whose first code must not expire meanwhile.
   */
  @Test
  @Order(5)
  void theLimitsPanelShowsWhatThePageSaidIsLeftBesideTheSendsAndThePublishedAllowance() throws Exception {
    page.navigate(signInUrl());
    Locator left = waitFor("#limits-left tbody tr");
    assertThat(page.locator("#limits-plan").textContent()).isEqualTo("plan plus");
    // Two Sends so far: the first test's turn and its replay into a fresh conversation.
    assertThat(page.locator("#limits-left tbody").textContent()).contains("deep_research", "25", "file_upload",
        "gpt-5-thinking", "48");
    assertThat(left.isVisible()).isTrue();
    assertThat(page.locator("#limits-sends tbody").textContent()).contains("high", "gpt-5-thinking");
    assertThat(page.locator("#limits-published tbody").textContent()).contains("main model", "160", "3h");
    assertThat(page.locator("#limits").textContent()).contains("published, not measured", "REAL-PAGE row 54",
        "at least 2.0 s apart");
    JsonNode limits = JSON.readTree(daemons.get(daemon, "/healthz").body()).path("limits");
    assertThat(limits.path("limits_progress").get(0).path("feature_name").asText()).isEqualTo("deep_research");
    // docs/img/operator-limits.png is this picture, copied by hand after a look.
    page.locator("#limits").screenshot(new Locator.ScreenshotOptions().setPath(SHOTS.resolve("06-limits.png")));
    assertThat(consoleErrors).as("no CSP violation, no script error").isEmpty();
  }

  /**
   * Issue 32, REAL-PAGE row 53: "unusual activity" after a Send stops the whole account; the next
   * turn is refused before it reaches the page, without a retry time; the page says so and a
   * person resumes the account with one button, after which the next turn goes.
   */
  @Test
  @Order(6)
  void unusualActivityStopsTheAccountUntilAPersonResumesItOnThePage() throws Exception {
    page.navigate(signInUrl());
    waitFor("#daemon-state[data-state=\"ready\"]");
    assertThat(page.locator("#account-pause").isHidden()).isTrue();

    HttpResponse<String> unusual = daemons.post(daemon, "v1.UUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUUU",
        chatRequest("operator page: unusual activity"));
    assertThat(unusual.statusCode()).as(unusual.body()).isEqualTo(503);
    int sends = sol.sends().size();
    HttpResponse<String> refused = daemons.post(daemon, "v1.VVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVV",
        chatRequest("operator page: while stopped"));
    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(503);
    assertThat(refused.body()).contains("the account is stopped", "operator page");
    assertThat(refused.headers().firstValue("retry-after")).as("never retried: only a person ends it").isEmpty();
    assertThat(sol.sends()).as("refused before the page").hasSize(sends);
    JsonNode pause = JSON.readTree(daemons.get(daemon, "/healthz").body()).path("account_pause");
    assertThat(pause.path("cause").asText()).isEqualTo("unusual_activity");
    assertThat(pause.path("holds").asBoolean()).isTrue();
    assertThat(pause.path("until").isNull()).isTrue();

    Locator banner = waitFor("#account-pause");
    assertThat(banner.textContent()).contains("unusual activity", "stopped until you resume it", "Unusual activity has been");
    waitFor("#daemon-state[data-state=\"paused\"]");
    assertThat(page.locator("#cause").isHidden()).as("the account's own banner says it, once").isTrue();
    shot("07-account-stopped");
    page.locator("#account-resume").click();
    banner.waitFor(new Locator.WaitForOptions().setState(WaitForSelectorState.HIDDEN).setTimeout(WAIT_MS));
    waitFor("#daemon-state[data-state=\"ready\"]");
    shot("08-account-resumed");
    assertThat(JSON.readTree(daemons.get(daemon, "/healthz").body()).path("account_pause").path("holds").asBoolean()).isFalse();

    HttpResponse<String> after = daemons.post(daemon, "v1.WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW", chatRequest());
    assertThat(after.statusCode()).as(after.body()).isEqualTo(200);
    assertThat(consoleErrors).as("no CSP violation, no script error").isEmpty();
  }
}

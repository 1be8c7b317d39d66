package dev.solweb.provider.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.solweb.provider.TestClock;
import dev.solweb.provider.scenario.Scenario;
import dev.solweb.provider.scenario.ScenarioPlayer;
import dev.solweb.provider.seat.TurnProgress.Stage;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The operator page's access, over real HTTP with Vert.x Web Client against a real daemon on a
 * clock the test moves: one-time codes (once, then refused; dead after 60 s), the session cookie
 * (its attributes, where it opens and where not, its idle and absolute end), the bearer token on
 * every route with no Origin, the Host guard on every route, the Origin guard on state changes,
 * the page's headers, and no token in anything the page is made of.
 */
class OperatorAccessTest {
  private static final Pattern LOGIN_URL = Pattern.compile("http://127\\.0\\.0\\.1:(\\d+)/ui/login\\?code=([A-Za-z0-9_-]{43})");
  private static final String CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:;"
      + " connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";
  private static final String PROMPT = "the secret operator prompt";

  private final TestClock clock = new TestClock();
  private final ProgressGate gate = new ProgressGate();
  private TestDaemon daemon;
  private WebClient client;

  @BeforeEach
  void start() throws Exception {
    daemon = new TestDaemon(new ScenarioPlayer(Scenario.parse("{\"account\": \"owner@example.invalid\","
        + " \"default\": [{\"prose\": \"answer one\", \"thinking_ms\": 1}]}")),
        TestDaemon.Options.defaults().seatWrapper(gate::wrap), clock);
    client = WebClient.create(daemon.vertx, new WebClientOptions().setFollowRedirects(false));
  }

  @AfterEach
  void stop() {
    client.close();
    daemon.close();
  }

  // --- plumbing: blocking calls, so each test reads top to bottom ---

  private HttpRequest<Buffer> request(HttpMethod method, String path) {
    return client.request(method, daemon.port, "127.0.0.1", path);
  }

  private static HttpResponse<Buffer> send(HttpRequest<Buffer> request) throws Exception {
    return request.send().toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
  }

  private static HttpResponse<Buffer> send(HttpRequest<Buffer> request, String body) throws Exception {
    return request.sendBuffer(Buffer.buffer(body)).toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
  }

  private HttpResponse<Buffer> withToken(HttpMethod method, String path) throws Exception {
    return send(request(method, path).bearerTokenAuthentication(TestDaemon.TOKEN));
  }

  private HttpResponse<Buffer> withCookie(HttpMethod method, String path, String cookie) throws Exception {
    return send(request(method, path).putHeader("Cookie", cookie));
  }

  private static JsonNode json(HttpResponse<Buffer> response) throws Exception {
    return TestDaemon.json(response.bodyAsString());
  }

  /** A fresh code's URL, minted with the token as solwebctl open does. */
  private String mint() throws Exception {
    HttpResponse<Buffer> minted = withToken(HttpMethod.POST, "/ui/api/codes");
    assertThat(minted.statusCode()).as(minted.bodyAsString()).isEqualTo(200);
    String url = json(minted).path("url").asText();
    Matcher m = LOGIN_URL.matcher(url);
    assertThat(m.matches()).as(url).isTrue();
    assertThat(Integer.parseInt(m.group(1))).isEqualTo(daemon.port);
    return url.substring(url.indexOf("/ui/login"));
  }

  /** Spends a code and returns the {@code name=value} of the cookie it set. */
  private String signIn() throws Exception {
    HttpResponse<Buffer> login = send(request(HttpMethod.GET, mint()));
    assertThat(login.statusCode()).as(login.bodyAsString()).isEqualTo(303);
    return login.cookies().get(0).split(";")[0];
  }

  // --- codes and the cookie ---

  @Test
  void aCodeSignsInOnceWithAStrictHttpOnlyCookieAndAReusedCodeIsRefusedSettingNothing() throws Exception {
    String login = mint();

    HttpResponse<Buffer> first = send(request(HttpMethod.GET, login));
    assertThat(first.statusCode()).isEqualTo(303);
    assertThat(first.getHeader("Location")).isEqualTo("/");
    assertThat(first.cookies()).hasSize(1);
    String cookie = first.cookies().get(0);
    // Attribute names are case-insensitive (RFC 6265; Netty writes HTTPOnly): compare them lower-cased.
    List<String> attributes = List.of(cookie.split(";\\s*"));
    List<String> lowered = attributes.stream().map(a -> a.toLowerCase(java.util.Locale.ROOT)).toList();
    assertThat(attributes.get(0)).matches("solwebd_session_" + daemon.port + "=[A-Za-z0-9_-]{43}");
    assertThat(lowered).contains("path=/", "httponly", "samesite=strict", "max-age=43200")
        .doesNotContain("secure").noneMatch(a -> a.startsWith("domain"));
    assertThat(attributes.get(0)).doesNotContain(login.substring(login.indexOf('=') + 1));

    HttpResponse<Buffer> page = withCookie(HttpMethod.GET, "/", attributes.get(0));
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.bodyAsString()).contains("<script type=\"module\" src=\"/ui/operator.js\">");

    HttpResponse<Buffer> again = send(request(HttpMethod.GET, login));
    HttpResponse<Buffer> againInBrowser = send(request(HttpMethod.GET, login).putHeader("Accept", "text/html"));
    System.out.println("FIGURE reused code: " + again.statusCode() + " " + again.bodyAsString());
    assertThat(again.statusCode()).isEqualTo(401);
    assertThat(json(again).path("error").path("type").asText()).isEqualTo("code_reused");
    assertThat(again.cookies()).as("nothing set").isEmpty();
    assertThat(againInBrowser.statusCode()).isEqualTo(401);
    assertThat(againInBrowser.getHeader("Content-Type")).startsWith("text/html");
    assertThat(againInBrowser.bodyAsString()).contains("already used", "solwebctl open");
    assertThat(againInBrowser.cookies()).isEmpty();
    assertThat(againInBrowser.getHeader("Content-Security-Policy")).isEqualTo(CSP);

    HttpResponse<Buffer> unknown = send(request(HttpMethod.GET, "/ui/login?code=" + "A".repeat(43)));
    HttpResponse<Buffer> missing = send(request(HttpMethod.GET, "/ui/login"));
    assertThat(json(unknown).path("error").path("type").asText()).isEqualTo("code_unknown");
    assertThat(json(missing).path("error").path("type").asText()).isEqualTo("code_missing");
    assertThat(List.of(unknown.statusCode(), missing.statusCode())).containsOnly(401);
  }

  @Test
  void aCodeLastsSixtySecondsOnTheDaemonsClock() throws Exception {
    String early = mint();
    String late = mint();
    clock.advance(Duration.ofSeconds(59));
    assertThat(send(request(HttpMethod.GET, early)).statusCode()).isEqualTo(303);

    clock.advance(Duration.ofSeconds(1));
    HttpResponse<Buffer> expired = send(request(HttpMethod.GET, late));
    assertThat(expired.statusCode()).isEqualTo(401);
    assertThat(json(expired).path("error").path("type").asText()).isEqualTo("code_expired");
    assertThat(json(expired).path("error").path("message").asText()).contains("60 s");
    assertThat(expired.cookies()).isEmpty();
  }

  @Test
  void aSessionEndsAfterThirtyMinutesIdleAndTwelveHoursInAll() throws Exception {
    String idle = signIn();
    clock.advance(Duration.ofMinutes(29));
    assertThat(withCookie(HttpMethod.GET, "/ui/api/state", idle).statusCode()).as("a use keeps it").isEqualTo(200);
    clock.advance(Duration.ofMinutes(29));
    assertThat(withCookie(HttpMethod.GET, "/ui/api/state", idle).statusCode()).isEqualTo(200);
    clock.advance(Duration.ofMinutes(30));
    assertThat(withCookie(HttpMethod.GET, "/ui/api/state", idle).statusCode()).as("30 min idle").isEqualTo(401);
    HttpResponse<Buffer> page = withCookie(HttpMethod.GET, "/", idle);
    assertThat(page.statusCode()).isEqualTo(401);
    assertThat(page.bodyAsString()).contains("session has ended", "solwebctl open");

    String busy = signIn();
    for (int minutes = 20; minutes < 12 * 60; minutes += 20) {
      clock.advance(Duration.ofMinutes(20));
      assertThat(withCookie(HttpMethod.GET, "/ui/api/state", busy).statusCode()).as("after %d min", minutes).isEqualTo(200);
    }
    clock.advance(Duration.ofMinutes(20));
    assertThat(withCookie(HttpMethod.GET, "/ui/api/state", busy).statusCode()).as("12 h after sign-in").isEqualTo(401);
  }

  @Test
  void theCookieOpensTheOperatorRoutesOnlyAndCannotMintACode() throws Exception {
    String cookie = signIn();
    for (String path : List.of("/", "/ui/operator.js", "/ui/operator.css", "/ui/api/state", "/ui/api/conversations",
        "/ui/api/log")) {
      assertThat(withCookie(HttpMethod.GET, path, cookie).statusCode()).as(path).isEqualTo(200);
    }
    for (String path : List.of("/healthz", "/v1/models", "/v1/conversations")) {
      HttpResponse<Buffer> refused = withCookie(HttpMethod.GET, path, cookie);
      assertThat(refused.statusCode()).as(path).isEqualTo(401);
      assertThat(json(refused).path("error").path("type").asText()).isEqualTo("unauthorized");
    }
    assertThat(withCookie(HttpMethod.POST, "/ui/api/codes", cookie).statusCode()).isEqualTo(401);
    assertThat(withCookie(HttpMethod.POST, "/shutdown", cookie).statusCode()).isEqualTo(401);
    assertThat(withCookie(HttpMethod.GET, "/ui/api/state", "solwebd_session_" + daemon.port + "=" + "B".repeat(43))
        .statusCode()).as("a made-up session").isEqualTo(401);
    assertThat(withToken(HttpMethod.GET, "/healthz").statusCode()).as("the daemon is fine").isEqualTo(200);
  }

  @Test
  void thePageWithoutASessionSaysHowToSignInAndTheApiAsksForTheToken() throws Exception {
    HttpResponse<Buffer> page = send(request(HttpMethod.GET, "/"));
    assertThat(page.statusCode()).isEqualTo(401);
    assertThat(page.getHeader("Content-Type")).startsWith("text/html");
    assertThat(page.bodyAsString()).contains("Not signed in", "solwebctl open").doesNotContain("<script");
    HttpResponse<Buffer> api = send(request(HttpMethod.GET, "/ui/api/state"));
    assertThat(api.statusCode()).isEqualTo(401);
    assertThat(json(api).path("error").path("type").asText()).isEqualTo("unauthorized");
  }

  // --- the token, the guards ---

  @Test
  void theBearerTokenStillWorksOnEveryRouteWithNoOriginAtAll() throws Exception {
    for (String path : List.of("/healthz", "/v1/models", "/v1/conversations", "/", "/ui/api/state", "/ui/operator.js")) {
      HttpResponse<Buffer> ok = withToken(HttpMethod.GET, path);
      assertThat(ok.statusCode()).as(path).isEqualTo(200);
    }
    CompletableFuture<HttpResponse<Buffer>> chat = request(HttpMethod.POST, "/v1/chat/completions")
        .bearerTokenAuthentication(TestDaemon.TOKEN).putHeader("Content-Type", "application/json")
        .sendBuffer(Buffer.buffer(Requests.chat("sol-web-high").user(PROMPT).json()))
        .toCompletionStage().toCompletableFuture();
    releaseWholeTurn();
    HttpResponse<Buffer> answered = chat.get(20, TimeUnit.SECONDS);
    assertThat(answered.statusCode()).as(answered.bodyAsString()).isEqualTo(200);
    assertThat(answered.bodyAsString()).contains("answer one");
  }

  private void releaseWholeTurn() throws Exception {
    Stage stage;
    do {
      stage = gate.next();
      gate.release();
    } while (stage != Stage.COMPLETE);
  }

  @ParameterizedTest
  @CsvSource({
      "GET, /",
      "GET, /healthz",
      "GET, /v1/models",
      "POST, /v1/chat/completions",
      "GET, /ui/login",
      "POST, /shutdown"})
  void aForeignHostIsRefusedOnEveryRouteEvenWithTheToken(String method, String path) throws Exception {
    for (String host : List.of("evil.example:" + daemon.port, "127.0.0.1.evil.example:" + daemon.port, "evil.example")) {
      HttpResponse<Buffer> refused = send(request(HttpMethod.valueOf(method), path)
          .bearerTokenAuthentication(TestDaemon.TOKEN).putHeader("Host", host), "{}");
      if (path.equals("/healthz") && host.equals("evil.example:" + daemon.port)) {
        System.out.println("FIGURE foreign Host: " + refused.statusCode() + " " + refused.bodyAsString());
      }
      assertThat(refused.statusCode()).as(host + " " + path).isEqualTo(421);
      assertThat(json(refused).path("error").path("type").asText()).isEqualTo("foreign_host");
      assertThat(refused.bodyAsString()).contains("DNS-rebinding").doesNotContain(TestDaemon.TOKEN);
    }
    assertThat(daemon.player.sends()).isEmpty();
    assertThat(withToken(HttpMethod.GET, "/healthz").statusCode()).as("still up").isEqualTo(200);
  }

  @Test
  void overHttp2TheAuthorityIsGuardedTheSameWay() throws Exception {
    WebClient h2 = WebClient.create(daemon.vertx, new WebClientOptions()
        .setProtocolVersion(io.vertx.core.http.HttpVersion.HTTP_2).setHttp2ClearTextUpgrade(false));
    try {
      HttpResponse<Buffer> refused = send(h2.get(daemon.port, "127.0.0.1", "/healthz").virtualHost("evil.example")
          .bearerTokenAuthentication(TestDaemon.TOKEN));
      HttpResponse<Buffer> ok = send(h2.get(daemon.port, "127.0.0.1", "/healthz").bearerTokenAuthentication(TestDaemon.TOKEN));
      assertThat(refused.version()).isEqualTo(io.vertx.core.http.HttpVersion.HTTP_2);
      assertThat(refused.statusCode()).isEqualTo(421);
      assertThat(json(refused).path("error").path("type").asText()).isEqualTo("foreign_host");
      assertThat(ok.statusCode()).isEqualTo(200);
    } finally {
      h2.close();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"localhost", "127.0.0.1", "[::1]", "LOCALHOST"})
  void everyLoopbackNameIsTheDaemonsOwn(String name) throws Exception {
    HttpResponse<Buffer> ok = send(request(HttpMethod.GET, "/healthz").bearerTokenAuthentication(TestDaemon.TOKEN)
        .putHeader("Host", name + ":" + daemon.port));
    assertThat(ok.statusCode()).isEqualTo(200);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "/ui/api/conversations/delete | Origin         | http://evil.example",
      "/ui/api/conversations/delete | Origin         | http://localhost:3000",
      "/ui/api/conversations/delete | Origin         | http://localhost:PORT",
      "/ui/api/doctor               | Origin         | null",
      "/v1/chat/completions         | Origin         | https://127.0.0.1:PORT",
      "/v1/chat/completions         | Sec-Fetch-Site | cross-site",
      "/shutdown                    | Sec-Fetch-Site | same-site",
      "/ui/api/codes                | Origin         | http://evil.example"})
  void aStateChangeFromAnotherSitesPageIsRefused(String path, String header, String value) throws Exception {
    String given = value.replace("PORT", Integer.toString(daemon.port));
    String cookie = signIn();
    HttpResponse<Buffer> refused = send(request(HttpMethod.POST, path).bearerTokenAuthentication(TestDaemon.TOKEN)
        .putHeader("Cookie", cookie).putHeader("Content-Type", "application/json").putHeader(header, given),
        path.startsWith("/v1/chat") ? Requests.chat("sol-web-high").user(PROMPT).json() : "{\"all\": true}");
    if (given.equals("http://evil.example") && path.equals("/ui/api/conversations/delete")) {
      System.out.println("FIGURE cross-site Origin: " + refused.statusCode() + " " + refused.bodyAsString());
    }
    assertThat(refused.statusCode()).as(refused.bodyAsString()).isEqualTo(403);
    assertThat(json(refused).path("error").path("type").asText()).isEqualTo("cross_origin");
    assertThat(daemon.player.sends()).as("nothing typed").isEmpty();
    assertThat(withToken(HttpMethod.GET, "/healthz").statusCode()).as("still up").isEqualTo(200);
  }

  @Test
  void theDaemonsOwnOriginPasses() throws Exception {
    String cookie = signIn();
    HttpResponse<Buffer> listed = send(request(HttpMethod.POST, "/ui/api/conversations/delete")
        .putHeader("Cookie", cookie).putHeader("Origin", "http://127.0.0.1:" + daemon.port)
        .putHeader("Sec-Fetch-Site", "same-origin").putHeader("Content-Type", "application/json"),
        "{\"all\": true, \"dry_run\": true}");
    assertThat(listed.statusCode()).as(listed.bodyAsString()).isEqualTo(200);
    assertThat(json(listed).path("dry_run").asBoolean()).isTrue();

    // Through a forwarder (ssh -L 9000:127.0.0.1:<port>) the browser's Host and Origin both say 9000.
    HttpResponse<Buffer> forwarded = send(request(HttpMethod.POST, "/ui/api/conversations/delete")
        .putHeader("Cookie", cookie).putHeader("Host", "localhost:9000").putHeader("Origin", "http://localhost:9000")
        .putHeader("Content-Type", "application/json"), "{\"all\": true, \"dry_run\": true}");
    assertThat(forwarded.statusCode()).as(forwarded.bodyAsString()).isEqualTo(200);
  }

  // --- the page's headers and what it never carries ---

  @Test
  void everyPartOfThePageSendsTheStrictHeadersAndNothingCarriesTheToken() throws Exception {
    String cookie = signIn();
    for (String path : List.of("/", "/ui/operator.js", "/ui/operator.css")) {
      HttpResponse<Buffer> part = withCookie(HttpMethod.GET, path, cookie);
      assertThat(part.statusCode()).as(path).isEqualTo(200);
      assertThat(part.getHeader("Content-Security-Policy")).as(path).isEqualTo(CSP);
      assertThat(part.getHeader("X-Content-Type-Options")).isEqualTo("nosniff");
      assertThat(part.getHeader("Referrer-Policy")).isEqualTo("no-referrer");
      assertThat(part.getHeader("Cache-Control")).isEqualTo("no-store");
    }
    assertThat(withCookie(HttpMethod.GET, "/ui/operator.js", cookie).getHeader("Content-Type")).startsWith("text/javascript");
    assertThat(withCookie(HttpMethod.GET, "/ui/operator.css", cookie).getHeader("Content-Type")).startsWith("text/css");
    assertThat(withCookie(HttpMethod.GET, "/ui/nothing-here.js", cookie).statusCode()).isEqualTo(404);

    CompletableFuture<HttpResponse<Buffer>> chat = request(HttpMethod.POST, "/v1/chat/completions")
        .bearerTokenAuthentication(TestDaemon.TOKEN).putHeader("Content-Type", "application/json")
        .sendBuffer(Buffer.buffer(Requests.chat("sol-web-high").user(PROMPT).json()))
        .toCompletionStage().toCompletableFuture();
    releaseWholeTurn();
    assertThat(chat.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);

    for (String path : List.of("/", "/ui/operator.js", "/ui/operator.css", "/ui/api/state", "/ui/api/conversations",
        "/ui/api/log", "/ui/login?code=x", "/nowhere")) {
      HttpResponse<Buffer> part = withCookie(HttpMethod.GET, path, cookie);
      String all = part.bodyAsString() + headers(part.headers());
      assertThat(all).as(path).doesNotContain(TestDaemon.TOKEN).doesNotContain(PROMPT).doesNotContain("answer one");
    }
    HttpResponse<Buffer> signedOut = send(request(HttpMethod.GET, "/"));
    assertThat(signedOut.bodyAsString() + headers(signedOut.headers())).doesNotContain(TestDaemon.TOKEN);
  }

  private static String headers(MultiMap headers) {
    StringBuilder all = new StringBuilder();
    headers.forEach(e -> all.append(e.getKey()).append(": ").append(e.getValue()).append('\n'));
    return all.toString();
  }

  // --- what the page shows ---

  @Test
  void theStateShowsTheSeatInItsTurnThenTheTurnAmongTheLastWithItsTimes() throws Exception {
    String cookie = signIn();
    JsonNode idle = json(withCookie(HttpMethod.GET, "/ui/api/state", cookie));
    assertThat(idle.path("health").path("account").asText()).isEqualTo("owner@example.invalid");
    assertThat(idle.path("seats").get(0).path("state").asText()).isEqualTo("ready");
    assertThat(idle.path("seats").get(0).path("doing").asText()).isEqualTo("idle");
    assertThat(idle.path("last_turns")).isEmpty();
    assertThat(idle.path("seat_live").isBoolean()).isTrue();

    CompletableFuture<HttpResponse<Buffer>> chat = request(HttpMethod.POST, "/v1/chat/completions")
        .bearerTokenAuthentication(TestDaemon.TOKEN).putHeader("Content-Type", "application/json")
        .sendBuffer(Buffer.buffer(Requests.chat("sol-web-high").user(PROMPT).json()))
        .toCompletionStage().toCompletableFuture();
    Stage stage;
    do {
      stage = gate.next();
      if (stage != Stage.THINKING) {
        gate.release();
      }
    } while (stage != Stage.THINKING);
    clock.advance(Duration.ofSeconds(4));
    JsonNode busy = json(withCookie(HttpMethod.GET, "/ui/api/state", cookie));
    JsonNode seat = busy.path("seats").get(0);
    assertThat(seat.path("doing").asText()).isEqualTo("turn");
    assertThat(seat.path("effort").asText()).isEqualTo("high");
    assertThat(seat.path("turn").path("state").asText()).isEqualTo("thinking");
    assertThat(seat.path("turn").path("thinking_s").asDouble()).isEqualTo(4.0);
    assertThat(busy.toString()).doesNotContain(PROMPT);

    gate.release();
    releaseWholeTurn();
    assertThat(chat.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
    JsonNode after = json(withCookie(HttpMethod.GET, "/ui/api/state", cookie));
    JsonNode last = after.path("last_turns").get(0);
    assertThat(last.path("outcome").asText()).isEqualTo("answered");
    assertThat(last.path("seat").asInt()).isZero();
    assertThat(last.path("effort").asText()).isEqualTo("high");
    assertThat(last.path("seat_s").asDouble()).isEqualTo(4.0);
    assertThat(last.path("thinking_s").asDouble()).isEqualTo(4.0);
    assertThat(last.path("chars").asInt()).isEqualTo("answer one".length());
    assertThat(after.path("seats").get(0).path("doing").asText()).isEqualTo("idle");
    assertThat(after.toString()).doesNotContain(PROMPT).doesNotContain("answer one");
  }

  @Test
  void theLogTailIsEmptyWithoutAHomeAndTheRouteListNamesTheOperatorRoutes() throws Exception {
    JsonNode log = json(withToken(HttpMethod.GET, "/ui/api/log"));
    assertThat(log.path("lines")).isEmpty();
    assertThat(withToken(HttpMethod.GET, "/ui/api/log?lines=0").statusCode()).isEqualTo(400);
    HttpResponse<Buffer> missing = withToken(HttpMethod.GET, "/nowhere");
    assertThat(missing.statusCode()).isEqualTo(404);
    assertThat(json(missing).path("error").path("message").asText()).contains("GET /", "GET /ui/login",
        "POST /ui/api/codes", "GET /ui/api/state", "POST /ui/api/doctor");
  }

  static Map<String, String> none() {
    return Map.of();
  }
}

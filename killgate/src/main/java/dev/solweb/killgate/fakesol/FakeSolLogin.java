package dev.solweb.killgate.fakesol;

import io.vertx.core.http.Cookie;
import io.vertx.core.http.CookieSameSite;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;

/**
 * fakesol's way in: the login wall's "Log in" leads to a sign-in page on ANOTHER origin
 * ({@code http://localhost:PORT/auth/login}, as chatgpt.com sends people to auth.openai.com),
 * which hands a one-time code back to the chat origin's {@code /api/auth/callback}; that sets a
 * persistent session cookie and returns to the chat home. So a login lives in the browser
 * profile, as on the real site: it survives closing Chromium and a daemon reading the profile
 * later sees it, and while the person is on the sign-in page the chat page is not loaded at all.
 * (No public capture shows auth.openai.com's forms; only the shape of the round trip is copied.)
 *
 * <p>The session endpoint ({@code /api/auth/session}) reports the account the cookie was issued
 * for; a {@code logged_out} fault ends every session, as an expired login does.
 */
final class FakeSolLogin {
  static final String COOKIE = "__fakesol-session-token";
  private static final SecureRandom RANDOM = new SecureRandom();

  private final Map<String, String> sessions = new HashMap<>(); // cookie value -> account
  private final Map<String, String> codes = new HashMap<>(); // one-time code -> account
  private final String defaultAccount;
  private final String page;

  FakeSolLogin(String defaultAccount, String page) {
    this.defaultAccount = defaultAccount;
    this.page = page;
  }

  void routes(Router router) {
    router.get("/auth/login").handler(ctx -> ctx.response().putHeader("content-type", "text/html; charset=utf-8")
        .putHeader("cache-control", "no-store").end(page));
    router.post("/auth/login").handler(this::signIn);
    router.get("/api/auth/callback").handler(this::callback);
  }

  /** The account the request's session cookie belongs to, or null. */
  synchronized String account(RoutingContext ctx) {
    Cookie cookie = ctx.request().getCookie(COOKIE);
    return cookie == null ? null : sessions.get(cookie.getValue());
  }

  /** Every session ends (a logged_out fault: the site logged the account out). */
  synchronized void endAll() {
    sessions.clear();
  }

  private synchronized void signIn(RoutingContext ctx) {
    String email = ctx.request().getFormAttribute("email");
    String account = email == null || email.isBlank() ? defaultAccount : email.strip();
    String code = token();
    codes.put(code, account);
    int port = ctx.request().localAddress().port();
    ctx.response().setStatusCode(302)
        .putHeader("location", "http://127.0.0.1:" + port + "/api/auth/callback?code=" + code).end();
  }

  private synchronized void callback(RoutingContext ctx) {
    String account = codes.remove(String.valueOf(ctx.request().getParam("code")));
    if (account == null) {
      ctx.response().setStatusCode(400).end("fakesol: unknown or used sign-in code");
      return;
    }
    String session = token();
    sessions.put(session, account);
    ctx.response().addCookie(Cookie.cookie(COOKIE, session).setPath("/").setMaxAge(30L * 24 * 3600)
        .setHttpOnly(true).setSameSite(CookieSameSite.LAX));
    ctx.response().setStatusCode(302).putHeader("location", "/").end();
  }

  private static String token() {
    byte[] bytes = new byte[24];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }
}

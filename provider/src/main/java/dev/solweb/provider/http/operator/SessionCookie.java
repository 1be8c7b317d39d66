package dev.solweb.provider.http.operator;

import io.vertx.core.http.Cookie;
import io.vertx.core.http.CookieSameSite;
import io.vertx.ext.web.RoutingContext;
import java.time.Duration;

/**
 * The operator session's cookie: HttpOnly (no script reads it), SameSite=Strict (no other site's
 * page sends it), Path=/, and no Secure flag because the daemon speaks plain http on loopback,
 * where a Secure cookie would never be sent back. Browsers do not keep cookies apart by port,
 * so the name carries the daemon's port: two daemons on one machine do not sign each other out.
 */
final class SessionCookie {
  private SessionCookie() {}

  static String name(RoutingContext ctx) {
    return "solwebd_session_" + ctx.request().localAddress().port();
  }

  static void set(RoutingContext ctx, String sessionId, Duration maxAge) {
    ctx.response().addCookie(Cookie.cookie(name(ctx), sessionId).setPath("/").setHttpOnly(true)
        .setSameSite(CookieSameSite.STRICT).setMaxAge(maxAge.toSeconds()));
  }

  /** The session id the request carries, or null. */
  static String of(RoutingContext ctx) {
    Cookie cookie = ctx.request().getCookie(name(ctx));
    return cookie == null ? null : cookie.getValue();
  }
}

package dev.solweb.provider.http.operator;

import io.vertx.core.Handler;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * The daemon's operator-page access, in memory for its whole life: the one-time codes and the
 * sessions they open. {@link #guard} puts the Host and Origin guards and the token-or-session
 * check in front of every route.
 */
public record OperatorAccess(LoginCodes codes, OperatorSessions sessions, String freshCode) {
  /** How a person gets a new code from the daemon. */
  public static final String DAEMON_FRESH_CODE = "run solwebctl open on this machine";

  public static OperatorAccess of(OperatorSettings settings) {
    return of(settings, DAEMON_FRESH_CODE);
  }

  /** @param freshCode what a refusal page tells a person to do for a new code (another server than the daemon's: its own way) */
  public static OperatorAccess of(OperatorSettings settings, String freshCode) {
    return new OperatorAccess(new LoginCodes(settings.clock(), settings.codeLifetime()),
        new OperatorSessions(settings.clock(), settings.sessionIdle(), settings.sessionMax()), freshCode);
  }

  /** The one-time URL of a fresh code on a server listening at {@code port} of 127.0.0.1. */
  public String signInUrl(int port) {
    return "http://127.0.0.1:" + port + OperatorAuth.LOGIN + "?code=" + codes.mint();
  }

  /** {@code GET /ui/login?code=...}: spends a code, opens a session, sets its cookie ({@link LoginRoute}). */
  public void signIn(Router router) {
    router.get(OperatorAuth.LOGIN).handler(new LoginRoute(this)::handle);
  }

  /** Host guard, Origin guard, then {@code bearer} (or a session on the operator routes), before any route. */
  public void guard(Router router, Handler<RoutingContext> bearer) {
    router.route().handler(new HostGuard());
    router.route().handler(new OriginGuard());
    router.route().handler(new OperatorAuth(this, bearer));
  }
}

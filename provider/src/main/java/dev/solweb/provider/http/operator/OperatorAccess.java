package dev.solweb.provider.http.operator;

import io.vertx.core.Handler;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * The daemon's operator-page access, in memory for its whole life: the one-time codes and the
 * sessions they open. {@link #guard} puts the Host and Origin guards and the token-or-session
 * check in front of every route.
 */
public record OperatorAccess(LoginCodes codes, OperatorSessions sessions) {

  public static OperatorAccess of(OperatorSettings settings) {
    return new OperatorAccess(new LoginCodes(settings.clock(), settings.codeLifetime()),
        new OperatorSessions(settings.clock(), settings.sessionIdle(), settings.sessionMax()));
  }

  /** Host guard, Origin guard, then {@code bearer} (or a session on the operator routes), before any route. */
  public void guard(Router router, Handler<RoutingContext> bearer) {
    router.route().handler(new HostGuard());
    router.route().handler(new OriginGuard());
    router.route().handler(new OperatorAuth(sessions, bearer));
  }
}

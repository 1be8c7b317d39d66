package dev.solweb.provider.http.operator;

import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;

/**
 * Who may call a route: the bearer token, on every route as before; or, only on the operator
 * routes ({@code /} and {@code /ui/...}), a live session cookie. {@code GET /ui/login} needs
 * neither: its one-time code is the credential. Minting a code ({@code POST /ui/api/codes}) takes
 * the token only, so a browser session cannot stretch itself past its end. The cookie opens
 * nothing under {@code /v1}, {@code /healthz} or {@code /shutdown}: the page never needs them,
 * and a stolen cookie then cannot drive the account or stop the daemon.
 */
public final class OperatorAuth implements Handler<RoutingContext> {
  static final String LOGIN = "/ui/login";
  static final String CODES = "/ui/api/codes";

  private final OperatorAccess access;
  private final Handler<RoutingContext> bearer;

  /** @param bearer the token check every other request meets */
  public OperatorAuth(OperatorAccess access, Handler<RoutingContext> bearer) {
    this.access = access;
    this.bearer = bearer;
  }

  @Override
  public void handle(RoutingContext ctx) {
    String path = ctx.normalizedPath();
    if (path.equals(LOGIN)) {
      ctx.next();
      return;
    }
    boolean operator = path.equals("/") || path.startsWith("/ui/");
    boolean hasToken = ctx.request().getHeader("Authorization") != null;
    if (operator && !hasToken && !path.equals(CODES)) {
      String session = SessionCookie.of(ctx);
      if (session != null && access.sessions().touch(session)) {
        ctx.next();
        return;
      }
      if (path.equals("/")) {
        PageHeaders.html(ctx.response(), 401, "Not signed in", session == null
            ? "This browser has no session on this page." : "This browser's session has ended.", access.freshCode());
        return;
      }
    }
    bearer.handle(ctx);
  }
}

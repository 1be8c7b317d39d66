package dev.solweb.provider.http.operator;

import dev.solweb.provider.http.ErrorBodies;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code GET /ui/login?code=...}: spends a one-time code, opens a session, sets its cookie and
 * sends the browser to {@code /} (303). A code that is missing, unknown, spent or expired sets
 * nothing and gets 401: an HTML page for a browser, the typed JSON error for anything else.
 */
final class LoginRoute {
  private final OperatorAccess access;

  LoginRoute(OperatorAccess access) {
    this.access = access;
  }

  void handle(RoutingContext ctx) {
    String code = ctx.queryParams().get("code");
    LoginCodes.Spend spend = code == null || code.isEmpty() ? null : access.codes().spend(code);
    if (spend == LoginCodes.Spend.SPENT) {
      SessionCookie.set(ctx, access.sessions().open(), access.sessions().max());
      PageHeaders.on(ctx.response()).setStatusCode(303).putHeader("Location", "/").end();
      return;
    }
    String type;
    String text;
    if (spend == null) {
      type = "code_missing";
      text = "The sign-in link has no code.";
    } else {
      switch (spend) {
        case REUSED -> {
          type = "code_reused";
          text = "This sign-in code was already used: a code signs in once.";
        }
        case EXPIRED -> {
          type = "code_expired";
          text = "This sign-in code has expired: a code lasts " + access.codes().lifetime().toSeconds() + " s.";
        }
        default -> {
          type = "code_unknown";
          text = "This sign-in code is not one this solwebd made (a daemon restart forgets every code).";
        }
      }
    }
    String accept = ctx.request().getHeader("Accept");
    if (accept != null && accept.contains("text/html")) {
      PageHeaders.html(ctx.response(), 401, "Sign-in refused", text + " Nothing was set.", access.freshCode());
    } else {
      PageHeaders.on(ctx.response());
      ErrorBodies.sendRequestError(ctx.response(), 401, type, text + " Nothing was set; " + access.freshCode() + " for a fresh code.");
    }
  }
}

package dev.solweb.provider.http;

import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * Bearer token on every route, {@code /healthz} included: without it any local process could
 * drive the owner's ChatGPT account. Compared in constant time; never logged.
 */
final class BearerAuth implements Handler<RoutingContext> {
  private final byte[] expected;

  BearerAuth(String token) {
    this.expected = ("Bearer " + token).getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public void handle(RoutingContext ctx) {
    String header = ctx.request().getHeader("Authorization");
    byte[] given = header == null ? new byte[0] : header.getBytes(StandardCharsets.UTF_8);
    if (!MessageDigest.isEqual(expected, given)) {
      ctx.response().putHeader("WWW-Authenticate", "Bearer");
      ErrorBodies.sendRequestError(ctx.response(), 401, "unauthorized", header == null
          ? "missing Authorization: Bearer <token> (the token is in solwebd.token under the daemon home; `solwebctl token` prints it)"
          : "wrong bearer token");
      return;
    }
    ctx.next();
  }
}

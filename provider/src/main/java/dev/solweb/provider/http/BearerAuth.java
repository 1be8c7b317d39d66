package dev.solweb.provider.http;

import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * Bearer token on every route, {@code /healthz} included: without it any local process could
 * drive the owner's ChatGPT account. Compared in constant time; never logged. Anthropic clients
 * may present the same token as {@code x-api-key} instead, and are refused in their own error
 * shape ({@link AnthropicErrors}).
 */
final class BearerAuth implements Handler<RoutingContext> {
  static final String API_KEY_HEADER = "x-api-key";

  private final byte[] expected;
  private final byte[] expectedKey;

  BearerAuth(String token) {
    this.expected = ("Bearer " + token).getBytes(StandardCharsets.UTF_8);
    this.expectedKey = token.getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public void handle(RoutingContext ctx) {
    String header = ctx.request().getHeader("Authorization");
    byte[] given = header == null ? new byte[0] : header.getBytes(StandardCharsets.UTF_8);
    String key = ctx.request().getHeader(API_KEY_HEADER);
    boolean keyMatches = key != null && MessageDigest.isEqual(expectedKey, key.getBytes(StandardCharsets.UTF_8));
    if (!MessageDigest.isEqual(expected, given) && !keyMatches) {
      ctx.response().putHeader("WWW-Authenticate", "Bearer");
      if (AnthropicErrors.speaks(ctx.request())) {
        AnthropicErrors.sendRequestError(ctx.response(), 401, header == null && key == null
            ? "missing x-api-key or Authorization: Bearer <token> (`solwebctl token` prints it)"
            : "wrong API key or bearer token");
        return;
      }
      ErrorBodies.sendRequestError(ctx.response(), 401, "unauthorized", header == null
          ? "missing Authorization: Bearer <token> (the token is in solwebd.token under the daemon home; `solwebctl token` prints it)"
          : "wrong bearer token");
      return;
    }
    ctx.next();
  }
}

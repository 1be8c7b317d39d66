package dev.solweb.provider.http.operator;

import dev.solweb.provider.http.ErrorBodies;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.RoutingContext;
import java.net.URI;
import java.util.Set;

/**
 * Refuses a state-changing request (POST, PUT, DELETE, PATCH) that a browser sent from a page that
 * is not the daemon's own: its Origin is not {@code http://} plus the request's own Host (a
 * loopback name, the {@link HostGuard} saw to that; compared with the Host rather than the port the
 * daemon listens on, so a page reached through {@code ssh -L 9000:127.0.0.1:8791} still works),
 * or its Sec-Fetch-Site says cross-site or same-site (another port of this machine is the same site).
 * A request with neither header is not from a browser page (Pi, ccr, Codex, factory-gpt,
 * solwebctl send none) and passes to the token check.
 */
public final class OriginGuard implements Handler<RoutingContext> {
  private static final Set<HttpMethod> CHANGING = Set.of(HttpMethod.POST, HttpMethod.PUT, HttpMethod.DELETE,
      HttpMethod.PATCH);

  @Override
  public void handle(RoutingContext ctx) {
    if (CHANGING.contains(ctx.request().method())) {
      refuseForeign(ctx);
    } else {
      ctx.next();
    }
  }

  /**
   * Passes {@code ctx} on when no other site's page sent it, else answers 403 {@code cross_origin}.
   * Also for a request that changes nothing by its method but opens a channel a page could read: a
   * live view's WebSocket handshake is a GET, and browsers apply no CORS to WebSockets.
   */
  public static void refuseForeign(RoutingContext ctx) {
    String origin = ctx.request().getHeader("Origin");
    String fetchSite = ctx.request().getHeader("Sec-Fetch-Site");
    String refusal = null;
    String host = Loopback.authorityOf(ctx.request());
    if (origin != null && !own(origin, host)) {
      refusal = "Origin " + Loopback.shown(origin) + " is not this daemon's own (http://" + Loopback.shown(host) + ")";
    } else if ("cross-site".equalsIgnoreCase(fetchSite) || "same-site".equalsIgnoreCase(fetchSite)) {
      refusal = "Sec-Fetch-Site " + Loopback.shown(fetchSite) + " says another site's page sent it";
    }
    if (refusal != null) {
      ErrorBodies.sendRequestError(ctx.response(), 403, "cross_origin", refusal
          + "; solwebd takes state-changing requests only from its own page or from clients that send no Origin;"
          + " nothing was done");
      return;
    }
    ctx.next();
  }

  private static boolean own(String origin, String host) {
    try {
      URI uri = new URI(origin);
      if (!"http".equals(uri.getScheme()) || uri.getRawPath() != null && !uri.getRawPath().isEmpty()) {
        return false;
      }
      Loopback.Authority from = Loopback.parse(uri.getRawAuthority());
      Loopback.Authority to = Loopback.parse(host);
      return from != null && to != null && Loopback.isLoopbackName(from.name()) && from.name().equals(to.name())
          && port(from) == port(to);
    } catch (java.net.URISyntaxException e) {
      return false; // "null" (a sandboxed or file page) lands here too
    }
  }

  private static int port(Loopback.Authority authority) {
    return authority.port() < 0 ? 80 : authority.port();
  }
}

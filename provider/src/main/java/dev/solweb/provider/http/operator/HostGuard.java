package dev.solweb.provider.http.operator;

import dev.solweb.provider.http.ErrorBodies;
import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;

/**
 * Refuses, on every route and before the token is even looked at, a request whose Host is not a
 * loopback name: a page on a DNS-rebound name (evil.example resolving to 127.0.0.1) reaches this
 * port from the owner's browser, and its Host still says evil.example. The port is not compared:
 * the name is what rebinding cannot fake, and a loopback forwarder in front of the daemon (the
 * kill gate's recording proxy, a user's own) passes its own port on.
 */
public final class HostGuard implements Handler<RoutingContext> {

  @Override
  public void handle(RoutingContext ctx) {
    // HTTP/1.1's Host or HTTP/2's :authority (java.net.http upgrades a plain-http request to h2c).
    String host = Loopback.authorityOf(ctx.request());
    Loopback.Authority authority = Loopback.parse(host);
    if (authority == null || !Loopback.isLoopbackName(authority.name())) {
      ErrorBodies.sendRequestError(ctx.response(), 421, "foreign_host", "solwebd answers only requests addressed to"
          + " a loopback name (127.0.0.1, localhost, [::1]); Host " + Loopback.shown(host)
          + " is refused (DNS-rebinding guard); nothing was done");
      return;
    }
    ctx.next();
  }
}

package dev.solweb.provider.http;

import dev.solweb.provider.dispatch.Dispatcher;
import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.failure.TurnFailed;
import dev.solweb.provider.seat.BrowserSeat;
import dev.solweb.provider.seat.SeatException;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.ext.web.RoutingContext;
import java.net.URI;
import java.util.concurrent.CompletableFuture;

/**
 * {@code GET /v1/doctor} and {@code GET /v1/capture}: solwebctl's page-reading verbs when this
 * daemon holds the profile. Each is queued like a turn and runs on a seat between turns
 * ({@link Dispatcher#runBetweenTurns}); neither types nor sends.
 *
 * <p>Query: {@code url} (optional, a page of the seat's own site; absent reads the seat's current
 * page) and {@code effort_menu} ({@code true}: open the effort menu, then Escape). Answers 200 with
 * the doctor report (JSON) or the sanitized HTML; a seat that cannot read a page (a scripted
 * seat), a page that does not open or a cap is the typed error body with its status.
 */
final class PageRoutes {

  private final Vertx vertx;
  private final Dispatcher dispatcher;

  PageRoutes(Vertx vertx, Dispatcher dispatcher) {
    this.vertx = vertx;
    this.dispatcher = dispatcher;
  }

  void doctor(RoutingContext ctx) {
    read(ctx, "application/json", BrowserSeat::doctor);
  }

  void capture(RoutingContext ctx) {
    read(ctx, "text/html; charset=utf-8", BrowserSeat::capture);
  }

  @FunctionalInterface
  private interface PageRead {
    String on(BrowserSeat seat, URI url, boolean effortMenu) throws SeatException;
  }

  private void read(RoutingContext ctx, String contentType, PageRead read) {
    URI url;
    try {
      String given = ctx.queryParams().get("url");
      url = given == null || given.isEmpty() ? null : URI.create(given);
      if (url != null && (url.getScheme() == null || url.getHost() == null)) {
        throw new IllegalArgumentException("not an absolute URL");
      }
    } catch (IllegalArgumentException e) {
      ErrorBodies.sendRequestError(ctx.response(), 400, "invalid_request_error", "url must be an absolute http(s) URL: " + e.getMessage());
      return;
    }
    boolean menu = "true".equals(ctx.queryParams().get("effort_menu"));
    Context context = vertx.getOrCreateContext();
    CompletableFuture<String> result = dispatcher.runBetweenTurns((BrowserSeat seat) -> read.on(seat, url, menu));
    result.whenComplete((body, error) -> context.runOnContext(v -> {
      if (error == null) {
        if (!ctx.response().ended()) {
          ctx.response().putHeader("Content-Type", contentType).putHeader("Cache-Control", "no-store").end(body);
        }
      } else {
        ErrorBodies.send(ctx.response(), error instanceof TurnFailed failed ? failed.failure()
            : ProviderFailure.of(ProviderFailure.Kind.UNAVAILABLE, "internal error: " + error));
      }
    }));
  }
}

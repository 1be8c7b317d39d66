package dev.solweb.provider.http.operator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.dispatch.SeatControl;
import dev.solweb.provider.failure.TurnFailed;
import dev.solweb.provider.http.ErrorBodies;
import dev.solweb.provider.platform.Json;
import dev.solweb.provider.seat.PageInput;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.SeatScreen;
import io.vertx.core.Context;
import java.io.IOException;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.logging.Logger;

/**
 * The seat routes of the operator page (docs/seat-control.md), behind the daemon's auth:
 * <ul>
 *   <li>{@code GET /ui/api/seats/{n}/screen.png}: the seat's page as a PNG, taken between a turn's polls;
 *   <li>{@code GET /ui/api/seats/{n}/live}: a WebSocket of the page's screencast ({@link LiveViewer});
 *   <li>{@code GET|POST|DELETE /ui/api/seats/{n}/control} (and {@code POST .../release}): how control
 *       stands, take it (answered once it is taken: at once, or when the running turn ends), give it back;
 *   <li>{@code POST /ui/api/seats/{n}/input}: mouse, wheel, key and text events ({@link InputEvents}),
 *       relayed only while the seat is under control.
 * </ul>
 * Every refusal is the daemon's typed error body ({@code {"error": {"type", "code", "message"}}}).
 */
public final class SeatRoutes {
  private static final Logger LOG = Logger.getLogger(SeatRoutes.class.getName());
  /** How long a picture or an input may wait for the seat's thread (a long step of a turn holds it). */
  static final long SEAT_ANSWER_MS = 30_000;
  private static final int MAX_BODY = 256 * 1024;

  /** The routes, for the daemon's 404 list. */
  public static final String LISTED = "GET /ui/api/seats/{n}/screen.png, GET /ui/api/seats/{n}/live (WebSocket),"
      + " GET|POST|DELETE /ui/api/seats/{n}/control, POST /ui/api/seats/{n}/release, POST /ui/api/seats/{n}/input";

  private final Vertx vertx;
  private final SeatControl.Desk dispatcher;

  private SeatRoutes(Vertx vertx, SeatControl.Desk dispatcher) {
    this.vertx = vertx;
    this.dispatcher = dispatcher;
  }

  /** Adds the seat routes to {@code router}, after its auth handler; {@code desk} is the daemon's dispatcher or a login window's. */
  public static void mount(Router router, Vertx vertx, SeatControl.Desk desk) {
    SeatRoutes routes = new SeatRoutes(vertx, desk);
    String seat = "/ui/api/seats/:seat";
    router.get(seat + "/screen.png").handler(routes::screen);
    router.get(seat + "/live").handler(OriginGuard::refuseForeign).handler(routes::live);
    router.get(seat + "/control").handler(routes::controlState);
    router.post(seat + "/control").handler(routes::take);
    router.delete(seat + "/control").handler(routes::giveBack);
    router.post(seat + "/release").handler(routes::giveBack);
    router.post(seat + "/input").handler(BodyHandler.create(false).setBodyLimit(MAX_BODY)).handler(routes::input);
  }

  /** The operator page's seat module, from the jar ({@code operator/seat-live.js}). */
  private void screen(RoutingContext ctx) {
    withScreen(ctx, (index, screen) -> answer(ctx, screen.png(), png -> ctx.response()
        .putHeader("Content-Type", "image/png").putHeader("Cache-Control", "no-store").end(Buffer.buffer(png))));
  }

  private void live(RoutingContext ctx) {
    if (!"websocket".equalsIgnoreCase(ctx.request().getHeader("Upgrade"))) {
      error(ctx.response(), 400, "invalid_request_error", "the live view is a WebSocket: open it with an Upgrade: websocket request");
      return;
    }
    withScreen(ctx, (index, screen) -> {
      Context context = vertx.getOrCreateContext();
      ctx.request().toWebSocket().onSuccess(socket -> {
        SeatScreen.Watch watch = screen.watch(new LiveViewer(socket, context));
        socket.closeHandler(v -> watch.close());
        socket.exceptionHandler(e -> watch.close());
        socket.handler(ignored -> { }); // the view is one way; input goes by POST .../input
      }).onFailure(e -> LOG.fine("live view of seat " + index + " did not open: " + e.getMessage()));
    });
  }

  private void controlState(RoutingContext ctx) {
    refusing(ctx, () -> {
      int index = seatOf(ctx);
      SeatControl.View view = dispatcher.control(index);
      json(ctx.response(), 200, view == null ? free(index) : view(view));
    });
  }

  private void take(RoutingContext ctx) {
    refusing(ctx, () -> {
      int index = seatOf(ctx);
      answer(ctx, dispatcher.takeControl(index), view -> json(ctx.response(), 200, view(view)));
    });
  }

  private void giveBack(RoutingContext ctx) {
    refusing(ctx, () -> {
      int index = seatOf(ctx);
      if (!dispatcher.giveBack(index)) {
        error(ctx.response(), 409, "not_controlled", "seat " + index + " is not under control; nothing to give back");
        return;
      }
      json(ctx.response(), 200, free(index).put("given_back", true));
    });
  }

  private void input(RoutingContext ctx) {
    refusing(ctx, () -> {
      int index = seatOf(ctx);
      List<PageInput> events;
      try {
        JsonNode body = Json.MAPPER.readTree(ctx.body().asString());
        events = InputEvents.parse(body);
      } catch (IOException e) {
        error(ctx.response(), 400, "invalid_request_error", "the body is not JSON: " + e.getMessage());
        return;
      }
      dispatcher.touch(index);
      SeatScreen screen = dispatcher.screen(index).orElseThrow(() -> noPage(index));
      CompletableFuture<Void> all = CompletableFuture.completedFuture(null);
      for (PageInput event : events) {
        all = all.thenCompose(v -> screen.input(event)); // in order, each after the page took the one before
      }
      answer(ctx, all, v -> json(ctx.response(), 200, Json.MAPPER.createObjectNode().put("ok", true)
          .put("events", events.size())));
    });
  }

  // ---- plumbing ------------------------------------------------------------------------------

  @FunctionalInterface
  private interface WithScreen {
    void run(int index, SeatScreen screen);
  }

  private void withScreen(RoutingContext ctx, WithScreen then) {
    refusing(ctx, () -> {
      int index = seatOf(ctx);
      then.run(index, dispatcher.screen(index).orElseThrow(() -> noPage(index)));
    });
  }

  private static SeatControl.Refused noPage(int index) {
    return new SeatControl.Refused(409, "no_page", "seat " + index
        + " has no page (a scripted seat, or a seat that is down): there is no picture and nothing to control");
  }

  private static void refusing(RoutingContext ctx, Runnable route) {
    try {
      route.run();
    } catch (SeatControl.Refused refused) {
      error(ctx.response(), refused.status(), refused.type(), refused.getMessage());
    } catch (IllegalArgumentException bad) {
      error(ctx.response(), 400, "invalid_request_error", bad.getMessage());
    }
  }

  @FunctionalInterface
  private interface Then<T> {
    void accept(T value);
  }

  /** Answers from {@code future} on the request's context; a seat that does not answer in time is a 504. */
  private <T> void answer(RoutingContext ctx, CompletableFuture<T> future, Then<T> then) {
    Context context = vertx.getOrCreateContext();
    long timer = vertx.setTimer(SEAT_ANSWER_MS, t -> error(ctx.response(), 504, "seat_timeout",
        "the seat did not answer within " + SEAT_ANSWER_MS / 1000 + " s (a long step of a turn holds its page)"));
    future.whenComplete((value, failure) -> context.runOnContext(v -> {
      vertx.cancelTimer(timer);
      if (ctx.response().ended() || ctx.response().closed()) {
        return;
      }
      Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
      if (cause == null) {
        then.accept(value);
      } else if (cause instanceof SeatControl.Refused refused) {
        error(ctx.response(), refused.status(), refused.type(), refused.getMessage());
      } else if (cause instanceof IllegalArgumentException bad) {
        error(ctx.response(), 400, "invalid_request_error", bad.getMessage());
      } else if (cause instanceof SeatException seat) {
        error(ctx.response(), 503, "seat_unavailable", seat.failure().detail());
      } else if (cause instanceof TurnFailed failed) {
        error(ctx.response(), 503, "seat_unavailable", failed.failure().detail());
      } else if (cause instanceof IllegalStateException busy) {
        error(ctx.response(), 429, "seat_busy", busy.getMessage());
      } else {
        LOG.warning("seat route " + ctx.request().path() + " failed: " + cause);
        error(ctx.response(), 500, "internal_error", "the seat could not do this: " + cause);
      }
    }));
  }

  private static int seatOf(RoutingContext ctx) {
    String given = ctx.pathParam("seat");
    try {
      return Integer.parseInt(given);
    } catch (NumberFormatException e) {
      throw new SeatControl.Refused(404, "no_such_seat", "no seat \"" + given + "\"; seats are numbered from 0");
    }
  }

  private static ObjectNode view(SeatControl.View view) {
    ObjectNode body = Json.MAPPER.createObjectNode().put("seat", view.seat())
        .put("state", view.state().name().toLowerCase(Locale.ROOT)).put("since", view.since().toString());
    if (view.idleReleaseAt() != null) {
      body.put("idle_release_at", view.idleReleaseAt().toString());
    }
    return body;
  }

  private static ObjectNode free(int index) {
    return Json.MAPPER.createObjectNode().put("seat", index).put("state", "free");
  }

  private static void json(HttpServerResponse response, int status, ObjectNode body) {
    if (response.ended() || response.closed()) {
      return;
    }
    response.setStatusCode(status).putHeader("Content-Type", "application/json").putHeader("Cache-Control", "no-store")
        .end(body.toString());
  }

  /** The daemon's typed error body, unless the answer has gone already (a seat's late reply after its timeout). */
  private static void error(HttpServerResponse response, int status, String type, String message) {
    if (!response.ended() && !response.closed()) {
      ErrorBodies.sendRequestError(response.putHeader("Cache-Control", "no-store"), status, type, message);
    }
  }
}

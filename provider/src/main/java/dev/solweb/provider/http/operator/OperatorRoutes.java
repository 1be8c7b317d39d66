package dev.solweb.provider.http.operator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.dispatch.Dispatcher;
import dev.solweb.provider.dispatch.FinishedTurn;
import dev.solweb.provider.dispatch.SeatView;
import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.failure.TurnFailed;
import dev.solweb.provider.http.ErrorBodies;
import dev.solweb.provider.platform.Json;
import dev.solweb.provider.seat.BrowserSeat;
import io.vertx.core.Context;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;
import java.util.logging.Logger;

/**
 * The operator page ({@code GET /}, its assets under {@code /ui/}) and its JSON API under
 * {@code /ui/api/}, built from what the daemon already shows: {@code /healthz}'s body, the
 * dispatcher's seats and last finished turns, the managed conversations, doctor on a seat between
 * turns, the log's tail. Nothing here carries prompt or answer text or the token. See
 * docs/operator-page.md.
 */
public final class OperatorRoutes {
  private static final Logger LOG = Logger.getLogger(OperatorRoutes.class.getName());

  /**
   * What the daemon's own routes already know how to do, handed in so they stay one place.
   *
   * @param health {@code /healthz}'s body, as of now
   * @param listConversations {@code GET /v1/conversations}
   * @param deleteConversations {@code POST /v1/conversations/delete} (after a body handler)
   */
  public record Delegates(Supplier<ObjectNode> health, Handler<RoutingContext> listConversations,
      Handler<RoutingContext> deleteConversations) {}

  private final Vertx vertx;
  private final Dispatcher dispatcher;
  private final OperatorAccess access;
  private final Path logFile;
  private final Delegates delegates;
  private final long maxBodyBytes;
  /** Whether the jar has the seat-live module: it does not change while the daemon runs. */
  private final boolean seatLive = OperatorAssets.resource(OperatorAssets.SEAT_LIVE) != null;

  public OperatorRoutes(Vertx vertx, Dispatcher dispatcher, OperatorAccess access, Path logFile, Delegates delegates,
      long maxBodyBytes) {
    this.vertx = vertx;
    this.dispatcher = dispatcher;
    this.access = access;
    this.logFile = logFile;
    this.delegates = delegates;
    this.maxBodyBytes = maxBodyBytes;
  }

  /** The routes, as the 404 body lists them. */
  public static final String LISTED = "GET /, GET /ui/login, POST /ui/api/codes, GET /ui/api/state,"
      + " GET /ui/api/conversations, POST /ui/api/conversations/delete, POST /ui/api/doctor, GET /ui/api/log";

  public void mount(Router router) {
    router.get("/").handler(ctx -> OperatorAssets.serve(ctx, "index.html"));
    OperatorAssets.mount(router);
    access.signIn(router);
    router.post(OperatorAuth.CODES).handler(this::mintCode);
    router.get("/ui/api/state").handler(this::state);
    router.get("/ui/api/conversations").handler(delegates.listConversations());
    router.post("/ui/api/conversations/delete").handler(BodyHandler.create(false).setBodyLimit(maxBodyBytes))
        .handler(delegates.deleteConversations());
    router.post("/ui/api/doctor").handler(this::doctor);
    router.post("/ui/api/account/resume").handler(this::resumeAccount);
    router.get("/ui/api/log").handler(this::log);
  }

  private void mintCode(RoutingContext ctx) {
    String url = access.signInUrl(ctx.request().localAddress().port());
    ctx.response().putHeader("Cache-Control", "no-store");
    ErrorBodies.json(ctx.response(), Json.MAPPER.createObjectNode().put("url", url)
        .put("expires_in_s", access.codes().lifetime().toSeconds()));
  }

  private void state(RoutingContext ctx) {
    ObjectNode root = Json.MAPPER.createObjectNode();
    root.set("health", delegates.health().get());
    ArrayNode seats = root.putArray("seats");
    for (SeatView seat : dispatcher.views().seats()) {
      seat.toJson(seats.addObject());
    }
    ArrayNode last = root.putArray("last_turns");
    for (FinishedTurn turn : dispatcher.views().finishedTurns()) {
      turn.toJson(last.addObject());
    }
    root.put("seat_live", seatLive);
    ctx.response().putHeader("Cache-Control", "no-store");
    ErrorBodies.json(ctx.response(), root);
  }

  /**
   * A person ends the account's pause (REAL-PAGE rows 52, 53: after they looked at the account in
   * the seat's live view); the next turn goes to the page again.
   */
  private void resumeAccount(RoutingContext ctx) {
    boolean cleared = dispatcher.pacing().clearPause(dispatcher.now());
    LOG.info(() -> "the operator resumed the account" + (cleared ? "" : " (no pause held)"));
    ctx.response().putHeader("Cache-Control", "no-store");
    ErrorBodies.json(ctx.response(), Json.MAPPER.createObjectNode().put("cleared", cleared));
  }

  /** Doctor on a seat between turns, as {@code solwebctl doctor}; the page gets the verdicts, not the last reply. */
  private void doctor(RoutingContext ctx) {
    Context context = vertx.getOrCreateContext();
    dispatcher.runBetweenTurns((BrowserSeat seat) -> seat.doctor(null, true)).whenComplete((body, error) ->
        context.runOnContext(v -> {
          if (ctx.response().ended()) {
            return;
          }
          if (error != null) {
            ErrorBodies.send(ctx.response(), error instanceof TurnFailed failed ? failed.failure()
                : ProviderFailure.of(ProviderFailure.Kind.UNAVAILABLE, "internal error: " + error));
            return;
          }
          try {
            JsonNode report = Json.MAPPER.readTree(body);
            ObjectNode shown = Json.MAPPER.createObjectNode();
            for (String field : List.of("ok", "url", "state", "signed_in", "dom_variant", "turns", "checks")) {
              if (report.has(field)) {
                shown.set(field, report.get(field));
              }
            }
            ErrorBodies.json(ctx.response(), shown);
          } catch (IOException e) {
            ErrorBodies.sendRequestError(ctx.response(), 502, "internal_error", "doctor's report is not JSON: " + e.getMessage());
          }
        }));
  }

  private void log(RoutingContext ctx) {
    int lines;
    try {
      String given = ctx.queryParams().get("lines");
      lines = given == null ? 100 : Integer.parseInt(given);
      if (lines < 1) {
        throw new NumberFormatException();
      }
    } catch (NumberFormatException e) {
      ErrorBodies.sendRequestError(ctx.response(), 400, "invalid_request_error", "lines must be a positive whole number");
      return;
    }
    vertx.executeBlocking(() -> LogTail.last(logFile, lines)).onComplete(done -> {
      if (done.failed()) {
        ErrorBodies.sendRequestError(ctx.response(), 500, "internal_error", "the log could not be read: "
            + done.cause().getMessage());
        return;
      }
      ObjectNode root = Json.MAPPER.createObjectNode().put("file", logFile == null ? null : logFile.toString());
      ArrayNode out = root.putArray("lines");
      done.result().forEach(out::add);
      ctx.response().putHeader("Cache-Control", "no-store");
      ErrorBodies.json(ctx.response(), root);
    });
  }
}

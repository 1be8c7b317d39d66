package dev.solweb.provider.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.dispatch.Dispatcher;
import dev.solweb.provider.platform.Json;
import dev.solweb.provider.translate.Conversations;
import dev.solweb.provider.http.operator.OperatorAccess;
import dev.solweb.provider.http.operator.OperatorRoutes;
import dev.solweb.provider.http.operator.OperatorSettings;
import dev.solweb.provider.http.operator.SeatRoutes;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.time.Clock;
import java.util.logging.Logger;

/**
 * The HTTP surface of solwebd on a loopback address: the router, one handler class per route
 * ({@link ChatRoute}, {@link ResponsesRoute}, {@link MessagesRoute}, {@link AskRoute}, {@link PageRoutes},
 * {@link ConversationRoutes}, {@link HealthRoute}, and the operator page's {@link OperatorRoutes}),
 * the Host and Origin guards and bearer auth (or the operator session, on its routes only) in
 * front of all of them ({@link OperatorAccess#guard}) and one typed error body behind. Handlers
 * only parse, validate and call in.
 */
public final class SolwebServer {
  private static final Logger LOG = Logger.getLogger(SolwebServer.class.getName());
  private static final ObjectMapper JSON = Json.MAPPER;

  private final Vertx vertx;
  private final Dispatcher dispatcher;
  private final Conversations conversations;
  private final ServerSettings settings;
  private final Runnable onShutdown;
  private final TurnServing turns;
  private final ModelInUse modelInUse = new ModelInUse();
  private final OperatorSettings operator;
  private final OperatorAccess access;

  /** @param conversations the daemon's managed conversations (its clock selects a delete by idle days) */
  public SolwebServer(Vertx vertx, Dispatcher dispatcher, Conversations conversations, ServerSettings settings,
      Runnable onShutdown) {
    this(vertx, dispatcher, conversations, settings, OperatorSettings.of(Clock.systemUTC(), null), onShutdown);
  }

  /** @param operator the operator page's clock, log file and lifetimes (docs/operator-page.md) */
  public SolwebServer(Vertx vertx, Dispatcher dispatcher, Conversations conversations, ServerSettings settings,
      OperatorSettings operator, Runnable onShutdown) {
    this.operator = operator;
    this.access = OperatorAccess.of(operator);
    this.vertx = vertx;
    this.dispatcher = dispatcher;
    this.conversations = conversations;
    this.settings = settings;
    this.onShutdown = onShutdown;
    this.turns = new TurnServing(vertx, dispatcher, settings.keepAlive(), modelInUse);
  }

  /** Listens on {@code host:port} (port 0 picks a free one); the host must be a loopback address. */
  public Future<HttpServer> listen(String host, int port) {
    return vertx.createHttpServer().invalidRequestHandler(SolwebServer::invalidRequest).requestHandler(router())
        .listen(port, host);
  }

  /**
   * A request the HTTP decoder could not read (a request line or headers over Netty's limits):
   * the same typed JSON error as every other refusal, instead of Vert.x's empty-bodied default.
   */
  private static void invalidRequest(HttpServerRequest request) {
    Throwable cause = request.decoderResult().cause();
    HttpServerResponse response = request.response();
    // The connection cannot carry another request once its decoder failed.
    response.putHeader("Connection", "close");
    if (cause instanceof TooLongHttpLineException) {
      ErrorBodies.sendRequestError(response, 414, "uri_too_long",
          "the request line is over " + HttpServerOptions.DEFAULT_MAX_INITIAL_LINE_LENGTH + " bytes; nothing was queued");
    } else if (cause instanceof TooLongHttpHeaderException) {
      ErrorBodies.sendRequestError(response, 431, "headers_too_large",
          "the request headers are over " + HttpServerOptions.DEFAULT_MAX_HEADER_SIZE + " bytes; nothing was queued");
    } else {
      ErrorBodies.sendRequestError(response, 400, "invalid_request_error", "the request could not be read as HTTP");
    }
  }

  Router router() {
    Router router = Router.router(vertx);
    // Host and Origin guards, then the token (or, on the operator page's routes, its session).
    access.guard(router, new BearerAuth(settings.token()));
    // The client-session header is checked before a byte of the body is read.
    ChatRoute chat = new ChatRoute(turns, settings.attachments());
    router.post("/v1/chat/completions").handler(ChatRoute::checkClientSession);
    router.post("/v1/chat/completions")
        .handler(BodyHandler.create(false).setBodyLimit(settings.maxBodyBytes()))
        .handler(chat::handle);
    router.post("/v1/responses")
        .handler(BodyHandler.create(false).setBodyLimit(settings.maxBodyBytes()))
        .handler(new ResponsesRoute(turns, settings.attachments())::handle);
    router.get("/v1/responses/:id").handler(ResponsesRoute::retrieve);
    MessagesRoute messages = new MessagesRoute(turns, settings.attachments());
    router.post("/v1/messages/count_tokens")
        .handler(BodyHandler.create(false).setBodyLimit(settings.maxBodyBytes()))
        .handler(messages::countTokens);
    router.post("/v1/messages")
        .handler(BodyHandler.create(false).setBodyLimit(settings.maxBodyBytes()))
        .handler(messages::handle);
    router.get("/v1/models/:id").handler(MessagesRoute::model);
    router.post("/v1/ask")
        .handler(BodyHandler.create(false).setBodyLimit(settings.maxBodyBytes()))
        .handler(new AskRoute(vertx, dispatcher)::handle);
    PageRoutes pages = new PageRoutes(vertx, dispatcher);
    router.get("/v1/doctor").handler(pages::doctor);
    router.get("/v1/capture").handler(pages::capture);
    ConversationRoutes managed = new ConversationRoutes(vertx, dispatcher, conversations);
    router.get("/v1/conversations").handler(managed::list);
    router.post("/v1/conversations/delete")
        .handler(BodyHandler.create(false).setBodyLimit(settings.maxBodyBytes()))
        .handler(managed::delete);
    router.get("/v1/models").handler(new ModelsRoute(vertx, new ModelCatalog(dispatcher, operator.clock()))::handle);
    HealthRoute health = new HealthRoute(dispatcher, conversations, settings, modelInUse);
    router.get("/healthz").handler(health::handle);
    router.post("/shutdown").handler(this::shutdown);
    new OperatorRoutes(vertx, dispatcher, access, operator.logFile(),
        new OperatorRoutes.Delegates(health::body, managed::list, managed::delete), settings.maxBodyBytes()).mount(router);
    SeatRoutes.mount(router, vertx, dispatcher.desk()); // the operator page's seats: picture, live view, control
    router.route().last().handler(ctx -> refuse(ctx, 404, "not_found",
        "no route " + ctx.request().method() + " " + ctx.request().path()
            + "; routes: POST /v1/chat/completions, POST /v1/responses, POST /v1/messages,"
            + " POST /v1/messages/count_tokens, POST /v1/ask, GET /v1/models, GET /v1/doctor,"
            + " GET /v1/capture, GET /v1/conversations, POST /v1/conversations/delete, GET /healthz, POST /shutdown, "
            + OperatorRoutes.LISTED + ", " + SeatRoutes.LISTED));
    router.route().failureHandler(this::failure);
    return router;
  }

  private void shutdown(RoutingContext ctx) {
    ObjectNode root = JSON.createObjectNode().put("ok", true).put("detail", "shutting down");
    ctx.response().putHeader("Content-Type", "application/json").end(root.toString())
        .onComplete(done -> onShutdown.run());
  }

  private void failure(RoutingContext ctx) {
    int status = ctx.statusCode();
    if (status == 413) {
      // A client re-sends every file of its history with each request, so a long session with
      // images outgrows the limit; the message says which knob moves it.
      refuse(ctx, 413, "request_too_large",
          "the request body is over SOLWEBD_MAX_BODY (" + settings.maxBodyBytes() + " bytes); files travel in base64"
              + " (4/3 of their size) and a client re-sends every file of its history with each request: raise"
              + " SOLWEBD_MAX_BODY, or start a new session; nothing was queued");
      return;
    }
    if (ctx.failure() != null) {
      LOG.warning("request " + ctx.request().path() + " failed: " + ctx.failure());
    }
    if (status == 400) {
      refuse(ctx, 400, "invalid_request_error", "the request could not be read");
      return;
    }
    refuse(ctx, status >= 400 && status < 600 ? status : 500, "internal_error",
        "solwebd could not handle this request; the daemon stays up");
  }

  /** A refusal in the error shape the client speaks: Anthropic's for a Messages client, else OpenAI's. */
  private static void refuse(RoutingContext ctx, int status, String type, String message) {
    if (AnthropicErrors.speaks(ctx.request())) {
      AnthropicErrors.sendRequestError(ctx.response(), status, message);
    } else {
      ErrorBodies.sendRequestError(ctx.response(), status, type, message);
    }
  }
}

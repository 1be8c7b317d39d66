package dev.solweb.provider.ctl;

import dev.solweb.provider.dispatch.SeatControl;
import dev.solweb.provider.http.ErrorBodies;
import dev.solweb.provider.http.operator.OperatorAccess;
import dev.solweb.provider.http.operator.OperatorAssets;
import dev.solweb.provider.http.operator.OperatorSettings;
import dev.solweb.provider.http.operator.PageHeaders;
import dev.solweb.provider.http.operator.SeatRoutes;
import dev.solweb.provider.seat.SeatScreen;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * {@code solwebctl login --web}: the login window seen and used from a browser. A small Vert.x
 * server on 127.0.0.1 serves one page that mounts the operator page's seat module
 * ({@code /ui/seat-live.js}) on the window, and the same seat routes ({@link SeatRoutes}) over a
 * {@link SeatControl.Desk} of one seat that starts controlled (the person at the page is the one
 * logging in). Its access is the operator page's own ({@link OperatorAccess}): the same Host and
 * Origin guards, a one-time code that opens an HttpOnly, SameSite=Strict session, and no bearer
 * token at all (solwebctl holds the profile; no daemon runs). The code lasts as long as the login
 * may, since a person reads it off a terminal. It lives only as long as the login.
 */
final class LoginWebView implements AutoCloseable {
  private static final String FRESH_CODE = "run solwebctl login --web again";

  private final Vertx vertx;
  private final HttpServer server;
  private final URI url;

  private LoginWebView(Vertx vertx, HttpServer server, URI url) {
    this.vertx = vertx;
    this.server = server;
    this.url = url;
  }

  /**
   * Listens on 127.0.0.1:{@code port} (0: a free one); {@code timeout} is the login's, which the code and session last.
   *
   * @throws CtlException START_FAILED when it cannot
   */
  static LoginWebView start(SeatScreen screen, int port, Duration timeout) throws CtlException {
    OperatorAccess access = OperatorAccess.of(new OperatorSettings(Clock.systemUTC(), null, timeout, timeout, timeout),
        FRESH_CODE);
    Vertx vertx = Vertx.vertx();
    Router router = Router.router(vertx);
    access.guard(router, ctx -> ErrorBodies.sendRequestError(ctx.response(), 401, "unauthorized",
        "open the one-time URL solwebctl login --web printed (this view takes no bearer token)"));
    access.signIn(router);
    router.get("/").handler(LoginWebView::page);
    router.get("/ui/login-view.css").handler(ctx -> PageHeaders.on(ctx.response())
        .putHeader("Content-Type", "text/css; charset=utf-8").end(STYLE));
    router.get("/ui/login-view.js").handler(ctx -> PageHeaders.on(ctx.response())
        .putHeader("Content-Type", "text/javascript; charset=utf-8").end("import { mountSeatLive } from '/ui/seat-live.js';\n"
            + "mountSeatLive(document.querySelector('.seat-live'), 0, { fetch: (url, init) => fetch(url, init) });\n"));
    OperatorAssets.mount(router); // /ui/seat-live.js
    SeatRoutes.mount(router, vertx, new OneWindow(screen));
    router.route().last().handler(ctx -> ErrorBodies.sendRequestError(ctx.response(), 404, "not_found",
        "no route " + ctx.request().path()));
    try {
      HttpServer server = vertx.createHttpServer().requestHandler(router).listen(port, "127.0.0.1")
          .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
      return new LoginWebView(vertx, server, URI.create(access.signInUrl(server.actualPort())));
    } catch (Exception e) {
      vertx.close();
      throw new CtlException(ExitCodes.START_FAILED, "could not listen on 127.0.0.1:" + port + " for the login view: "
          + e.getMessage(), e);
    }
  }

  /** The one-time URL to print. */
  URI url() {
    return url;
  }

  int port() {
    return server.actualPort();
  }

  @Override
  public void close() {
    vertx.close().toCompletionStage().toCompletableFuture().orTimeout(10, TimeUnit.SECONDS).exceptionally(e -> null).join();
  }

  private static final String STYLE = """
      body { font: 15px system-ui, sans-serif; margin: 16px; color: #222; }
      .seat-live canvas { display: block; width: 100%; max-width: 1280px; border: 2px solid #999; outline: none; }
      .seat-live canvas.seat-live-controlled { border-color: #c22; }
      .seat-live-bar { margin: 8px 0; } .seat-live-bar button { margin-left: 8px; }
      .seat-live-note { color: #a00; }
      """;

  private static void page(RoutingContext ctx) {
    PageHeaders.on(ctx.response()).putHeader("Content-Type", "text/html; charset=utf-8")
        .end("""
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>solwebctl login</title>
            <link rel="stylesheet" href="/ui/login-view.css"></head>
            <body>
            <h1>Log in to ChatGPT</h1>
            <p>This is the login window of <code>solwebctl login --web</code>. Click and type on the picture as in a
            browser window: log in, pass a check. The terminal says when it is done; this page then stops answering.</p>
            <div class="seat-live" data-seat="0"></div>
            <script type="module" src="/ui/login-view.js"></script>
            </body></html>
            """);
  }

  /** The login window as the seat routes' one seat: controlled from the start, by the person at the page. */
  private static final class OneWindow implements SeatControl.Desk {
    private final SeatScreen screen;
    private Instant since = Instant.now();
    private boolean controlled = true;

    OneWindow(SeatScreen screen) {
      this.screen = screen;
    }

    private void only(int seat) {
      if (seat != 0) {
        throw new SeatControl.Refused(404, "no_such_seat", "the login view has one window, seat 0");
      }
    }

    @Override
    public Optional<SeatScreen> screen(int seat) {
      only(seat);
      return Optional.of(screen);
    }

    @Override
    public synchronized CompletableFuture<SeatControl.View> takeControl(int seat) {
      only(seat);
      if (!controlled) {
        controlled = true;
        since = Instant.now();
      }
      return CompletableFuture.completedFuture(view());
    }

    @Override
    public synchronized boolean giveBack(int seat) {
      only(seat);
      boolean was = controlled;
      controlled = false;
      return was;
    }

    @Override
    public synchronized SeatControl.View touch(int seat) {
      only(seat);
      if (!controlled) {
        throw new SeatControl.Refused(409, "not_controlled", "press Take control to use the login window");
      }
      return view();
    }

    @Override
    public synchronized SeatControl.View control(int seat) {
      only(seat);
      return controlled ? view() : null;
    }

    private SeatControl.View view() {
      return new SeatControl.View(0, SeatControl.State.CONTROLLED, since, null);
    }
  }
}

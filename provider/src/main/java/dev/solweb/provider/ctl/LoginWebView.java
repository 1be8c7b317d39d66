package dev.solweb.provider.ctl;

import dev.solweb.provider.dispatch.SeatControl;
import dev.solweb.provider.seat.SeatScreen;
import dev.solweb.provider.ui.SeatRoutes;
import io.vertx.core.Vertx;
import io.vertx.core.http.Cookie;
import io.vertx.core.http.CookieSameSite;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.net.URI;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code solwebctl login --web}: the login window seen and used from a browser. A small Vert.x
 * server on 127.0.0.1 serves one page that mounts the operator page's seat module
 * ({@code /ui/seat-live.js}) on the window, and the same seat routes ({@link SeatRoutes}) over a
 * {@link SeatControl.Desk} of one seat that starts controlled (the person at the page is the one
 * logging in). The way in is a one-time URL: its code is good once, and sets an HttpOnly,
 * SameSite=Strict session cookie that every other route requires; a Host that is not a loopback
 * name is refused (DNS rebinding), and so is a state-changing request from another Origin. It lives
 * only as long as the login.
 */
final class LoginWebView implements AutoCloseable {
  private static final String COOKIE = "solweb-login";
  private static final Set<String> LOOPBACK = Set.of("127.0.0.1", "localhost", "[::1]", "::1");
  private static final SecureRandom RANDOM = new SecureRandom();

  private final Vertx vertx;
  private final HttpServer server;
  private final String code;

  private LoginWebView(Vertx vertx, HttpServer server, String code) {
    this.vertx = vertx;
    this.server = server;
    this.code = code;
  }

  /** Listens on 127.0.0.1:{@code port} (0: a free one). @throws CtlException START_FAILED when it cannot */
  static LoginWebView start(SeatScreen screen, int port) throws CtlException {
    String code = secret();
    String session = secret();
    AtomicBoolean used = new AtomicBoolean();
    Vertx vertx = Vertx.vertx();
    Router router = Router.router(vertx);
    router.route().handler(ctx -> guard(ctx, session));
    router.get("/login/:code").handler(ctx -> {
      if (!same(code, ctx.pathParam("code")) || !used.compareAndSet(false, true)) {
        SeatRoutes.error(ctx.response(), 403, "bad_code", "this one-time link is wrong or was used already;"
            + " run solwebctl login --web again for a new one");
        return;
      }
      ctx.response().addCookie(Cookie.cookie(COOKIE, session).setPath("/").setHttpOnly(true)
          .setSameSite(CookieSameSite.STRICT));
      ctx.response().setStatusCode(303).putHeader("Location", "/").end();
    });
    router.get("/").handler(LoginWebView::page);
    router.get("/login-view.js").handler(ctx -> ctx.response().putHeader("Content-Type", "text/javascript; charset=utf-8")
        .putHeader("Cache-Control", "no-store").end("import { mountSeatLive } from '/ui/seat-live.js';\n"
            + "mountSeatLive(document.querySelector('.seat-live'), 0, { fetch: (url, init) => fetch(url, init) });\n"));
    SeatRoutes.mount(router, vertx, new OneWindow(screen));
    router.route().last().handler(ctx -> SeatRoutes.error(ctx.response(), 404, "not_found", "no route " + ctx.request().path()));
    try {
      HttpServer server = vertx.createHttpServer().requestHandler(router).listen(port, "127.0.0.1")
          .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
      return new LoginWebView(vertx, server, code);
    } catch (Exception e) {
      vertx.close();
      throw new CtlException(ExitCodes.START_FAILED, "could not listen on 127.0.0.1:" + port + " for the login view: "
          + e.getMessage(), e);
    }
  }

  /** The one-time URL to print. */
  URI url() {
    return URI.create("http://127.0.0.1:" + server.actualPort() + "/login/" + code);
  }

  int port() {
    return server.actualPort();
  }

  @Override
  public void close() {
    vertx.close().toCompletionStage().toCompletableFuture().orTimeout(10, TimeUnit.SECONDS).exceptionally(e -> null).join();
  }

  /** Loopback Host only; the session cookie on every route but the code's; a foreign Origin never changes anything. */
  private static void guard(RoutingContext ctx, String session) {
    String host = ctx.request().authority() == null ? null : ctx.request().authority().host();
    if (host == null || !LOOPBACK.contains(host.toLowerCase(Locale.ROOT))) {
      SeatRoutes.error(ctx.response(), 403, "foreign_host", "this login view answers only on 127.0.0.1 or localhost");
      return;
    }
    String origin = ctx.request().getHeader("Origin");
    if (ctx.request().method() != HttpMethod.GET && ctx.request().method() != HttpMethod.HEAD && origin != null
        && !origin.equalsIgnoreCase("http://" + ctx.request().authority())) {
      SeatRoutes.error(ctx.response(), 403, "foreign_origin", "a request from " + origin + " cannot change anything here");
      return;
    }
    if (ctx.request().path().startsWith("/login/")) {
      ctx.next();
      return;
    }
    Cookie cookie = ctx.request().getCookie(COOKIE);
    if (cookie == null || !same(session, cookie.getValue())) {
      SeatRoutes.error(ctx.response(), 401, "unauthorized", "open the one-time URL solwebctl login --web printed");
      return;
    }
    ctx.next();
  }

  private static void page(RoutingContext ctx) {
    ctx.response().putHeader("Content-Type", "text/html; charset=utf-8").putHeader("Cache-Control", "no-store")
        .putHeader("Content-Security-Policy", "default-src 'none'; script-src 'self'; connect-src 'self';"
            + " style-src 'unsafe-inline'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
        .putHeader("X-Content-Type-Options", "nosniff").putHeader("Referrer-Policy", "no-referrer")
        .end("""
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>solwebctl login</title>
            <style>
              body { font: 15px system-ui, sans-serif; margin: 16px; color: #222; }
              .seat-live canvas { display: block; width: 100%; max-width: 1280px; border: 2px solid #999; outline: none; }
              .seat-live canvas.seat-live-controlled { border-color: #c22; }
              .seat-live-bar { margin: 8px 0; } .seat-live-bar button { margin-left: 8px; }
              .seat-live-note { color: #a00; }
            </style></head>
            <body>
            <h1>Log in to ChatGPT</h1>
            <p>This is the login window of <code>solwebctl login --web</code>. Click and type on the picture as in a
            browser window: log in, pass a check. The terminal says when it is done; this page then stops answering.</p>
            <div class="seat-live" data-seat="0"></div>
            <script type="module" src="/login-view.js"></script>
            </body></html>
            """);
  }

  private static String secret() {
    byte[] bytes = new byte[24];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  private static boolean same(String expected, String given) {
    return given != null && MessageDigest.isEqual(expected.getBytes(StandardCharsets.UTF_8), given.getBytes(StandardCharsets.UTF_8));
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

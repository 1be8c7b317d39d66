package dev.solweb.killgate.fakesol;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.platform.Json;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * {@code fakesol --page FILE}: serves one saved page (a {@code solwebctl capture}, or a real
 * capture from {@code ../shared/realdom/}) at {@code /} and {@code /c/*}, with
 * {@code /api/auth/session} answering a signed-in user, so the seat's page reading and
 * {@code solwebctl doctor} can be tested on it. The page is static: it never answers a turn.
 *
 * <p>Nothing leaves the machine: the page is served with a Content-Security-Policy that allows
 * only this origin (captures reference outside favicons and stylesheets) and runs none of the
 * page's own scripts, and DNS prefetching is off.
 */
public final class PageFileServer implements AutoCloseable {

  static final String CSP = "default-src 'self'; script-src 'none'; style-src 'self' 'unsafe-inline';"
      + " img-src 'self' data:; font-src 'self' data:; connect-src 'self'; frame-src 'none'";
  private static final ObjectMapper JSON = Json.MAPPER;

  private final Vertx vertx;
  private final boolean ownsVertx;
  private final String html;
  private final String account;
  private HttpServer server;

  private PageFileServer(Vertx vertx, boolean ownsVertx, String html, String account) {
    this.vertx = vertx;
    this.ownsVertx = ownsVertx;
    this.html = html;
    this.account = account;
  }

  /** Serves {@code page} on {@code 127.0.0.1:port} (0 = ephemeral) with its own Vert.x. */
  public static PageFileServer start(Path page, String account, int port) {
    return start(Vertx.vertx(), true, page, account, port);
  }

  /**
   * @param account the e-mail the session endpoint reports (a signed-in user)
   * @throws UncheckedIOException when the file cannot be read
   */
  public static PageFileServer start(Vertx vertx, boolean ownsVertx, Path page, String account, int port) {
    String html;
    try {
      html = Files.readString(page, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read page " + page + ": " + e.getMessage(), e);
    }
    PageFileServer served = new PageFileServer(vertx, ownsVertx, html, account);
    Router router = Router.router(vertx);
    router.get("/").handler(served::page);
    router.get("/c/*").handler(served::page);
    router.get("/api/auth/session").handler(served::session);
    try {
      served.server = vertx.createHttpServer().requestHandler(router).listen(port, "127.0.0.1")
          .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      served.close();
      throw new IllegalStateException("fakesol --page: cannot listen: " + e.getMessage(), e);
    }
    return served;
  }

  public URI url() {
    return URI.create("http://127.0.0.1:" + server.actualPort() + "/");
  }

  private void page(RoutingContext ctx) {
    HttpServerResponse response = ctx.response();
    response.putHeader("content-type", "text/html; charset=utf-8").putHeader("cache-control", "no-store")
        .putHeader("content-security-policy", CSP).putHeader("x-dns-prefetch-control", "off").end(html);
  }

  private void session(RoutingContext ctx) {
    ObjectNode body = JSON.createObjectNode();
    body.putObject("user").put("email", account);
    ctx.response().putHeader("content-type", "application/json").putHeader("cache-control", "no-store").end(body.toString());
  }

  @Override
  public void close() {
    try {
      if (server != null) {
        server.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      }
      if (ownsVertx) {
        vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      }
    } catch (Exception e) {
      throw new IllegalStateException("fakesol --page: cannot close: " + e.getMessage(), e);
    }
  }
}

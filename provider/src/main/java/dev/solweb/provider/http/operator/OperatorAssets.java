package dev.solweb.provider.http.operator;

import dev.solweb.provider.http.ErrorBodies;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;

/**
 * The operator page's files, from the jar ({@code operator/<name>}), with the page's headers:
 * {@code GET /ui/<name>.js|css|png|svg} on the daemon, and on the login view of
 * {@code solwebctl login --web}, which mounts the same seat module.
 */
public final class OperatorAssets {
  static final String RESOURCES = "operator/";
  /** The seat module; the page mounts it on each seat card when the jar has it. */
  static final String SEAT_LIVE = "seat-live.js";
  private static final Map<String, String> TYPES = Map.of("js", "text/javascript; charset=utf-8",
      "css", "text/css; charset=utf-8", "png", "image/png", "svg", "image/svg+xml", "html", "text/html; charset=utf-8");

  private OperatorAssets() {}

  /** {@code GET /ui/<name>.js|css|png|svg}, after the router's auth. */
  public static void mount(Router router) {
    router.getWithRegex("/ui/([a-z][a-z0-9-]*\\.(js|css|png|svg))").handler(ctx -> serve(ctx, ctx.pathParam("param0")));
  }

  static void serve(RoutingContext ctx, String name) {
    byte[] bytes = resource(name);
    if (bytes == null) {
      ErrorBodies.sendRequestError(ctx.response(), 404, "not_found", "the operator page has no file " + name);
      return;
    }
    String type = TYPES.getOrDefault(name.substring(name.lastIndexOf('.') + 1), "application/octet-stream");
    PageHeaders.on(ctx.response()).putHeader("Content-Type", type).end(Buffer.buffer(bytes));
  }

  static byte[] resource(String name) {
    try (InputStream in = OperatorAssets.class.getClassLoader().getResourceAsStream(RESOURCES + name)) {
      return in == null ? null : in.readAllBytes();
    } catch (IOException e) {
      return null;
    }
  }
}

package dev.solweb.provider.http.operator;

import io.vertx.core.http.HttpServerResponse;

/**
 * The headers of everything the operator page is made of: a strict Content-Security-Policy
 * (only this origin's own scripts, styles and connections; no inline script, no framing, no
 * base or form target elsewhere), no MIME sniffing, no Referer (a login URL's code never leaks
 * into one), and no caching (the page shows live state).
 */
public final class PageHeaders {
  static final String CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:;"
      + " connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

  private PageHeaders() {}

  public static HttpServerResponse on(HttpServerResponse response) {
    return response.putHeader("Content-Security-Policy", CSP)
        .putHeader("X-Content-Type-Options", "nosniff")
        .putHeader("Referrer-Policy", "no-referrer")
        .putHeader("X-Frame-Options", "DENY")
        .putHeader("Cache-Control", "no-store");
  }

  /** A small self-contained HTML page (a sign-in refusal): no script, no style, nothing to load. */
  static void html(HttpServerResponse response, int status, String title, String text, String freshCode) {
    String body = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + escape(title)
        + "</title></head><body><main>"
        + "<h1>" + escape(title) + "</h1><p>" + escape(text) + "</p>"
        + "<p>Sign in with a fresh code: " + escape(freshCode) + ".</p></main></body></html>";
    on(response).setStatusCode(status).putHeader("Content-Type", "text/html; charset=utf-8").end(body);
  }

  static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}

package dev.solweb.killgate.fakesol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * fakesol's one render step: a page shape ({@code resources/fakesol/shapes/<dom>.json}), the UI
 * language's labels ({@code labels/<locale>.json}, overridden per locale by the shape) and the
 * page mutations of a {@link PageMutations.Plan} are resolved here into ONE page config, which the
 * page receives inline as {@code window.FAKESOL} before any of its scripts runs. The scripts read
 * every shape fact from it ({@code shape()}, {@code T()}, {@code A()} in page.js); nothing about a
 * shape is written in Java or spread through the scripts as tables.
 *
 * <p>How to hook something new into the page:
 * <ul>
 *   <li>a script: put it in {@code resources/fakesol/} and add {@code .script("/fakesol-x.js", "x.js")}
 *       where FakeSol builds its render; it is served at that route and loaded after the page's own
 *       scripts (it may call their globals: {@code el}, {@code $}, {@code api}, {@code shape()},
 *       {@code T()}, {@code A()}); a script that must run before the page loads goes in
 *       {@link #CORE} before {@code page.js};
 *   <li>a DOM element or a fact that varies by shape: a field in the shape files (all of them, or
 *       the default in {@code labels/} or the script), read in the script through {@code shape()},
 *       {@code A()} or {@code T()}; a mutation overrides the same fields ({@code mutations/}).
 * </ul>
 */
final class PageRender {

  /** One script of the page: the route it is served at and its resource under {@code /fakesol/}. */
  record Script(String route, String resource) {}

  /** The page's own scripts, in load order; page.js loads last and starts the page. */
  static final List<Script> CORE = List.of(
      new Script("/fakesol-stream.js", "stream.js"),
      new Script("/fakesol-wire.js", "wire.js"),
      new Script("/fakesol-thread.js", "thread.js"),
      new Script("/fakesol-picker.js", "picker.js"),
      new Script("/fakesol-models.js", "models.js"),
      new Script("/fakesol-turn.js", "turn.js"),
      new Script("/fakesol-history.js", "history.js"),
      new Script("/fakesol-rows.js", "rows.js"),
      new Script("/fakesol-november.js", "november.js"),
      new Script("/fakesol-mutate.js", "mutate.js"),
      new Script("/fakesol.js", "page.js"));

  private final ObjectNode config;
  private final List<Script> scripts = new ArrayList<>(CORE);
  private final Map<String, String> bodies = new LinkedHashMap<>();

  private PageRender(ObjectNode config) {
    this.config = config;
  }

  /** The page of shape {@code dom} in {@code locale}, through the mutations of {@code plan}. */
  static PageRender of(String dom, String locale, PageMutations.Plan plan) {
    ObjectNode shape = (ObjectNode) readJson("shapes/" + dom + ".json");
    ObjectNode labels = (ObjectNode) readJson("labels/" + locale + ".json");
    labels.remove(List.of("_source", "_reading"));
    JsonNode own = shape.path("labels").path(locale);
    if (own.isObject()) {
      labels.setAll((ObjectNode) own);
    }
    ObjectNode config = FakeSol.JSON.createObjectNode().put("dom", dom).put("locale", locale);
    config.set("layout", shape.path("layout").deepCopy());
    config.set("attrs", shape.path("attrs").deepCopy());
    config.set("labels", labels);
    if (shape.has("models")) {
      config.set("models", shape.get("models").deepCopy()); // the November shape's model rows (rows 61, 62, 64)
    }
    plan.applyTo(config);
    PageModels.resolve(config); // what the seed decides of the model rows (slugs, Extra High)
    return new PageRender(config);
  }

  /** Adds a script, loaded after the page's own (see the class comment). */
  PageRender script(String route, String resource) {
    scripts.add(new Script(route, resource));
    return this;
  }

  /** The resolved config the page runs with (also what {@code /control} reports of the page). */
  ObjectNode config() {
    return config;
  }

  /** Serves the page at {@code /}, {@code /c/*} and {@code /g/*} (projects), and every script at its route. */
  void mount(Router router) {
    StringBuilder tags = new StringBuilder("<script>window.FAKESOL = ").append(inlineJson(config)).append(";</script>\n");
    for (Script s : scripts) {
      bodies.put(s.route(), resource(s.resource()));
      tags.append("<script src=\"").append(s.route()).append("\"></script>\n");
    }
    String html = resource("page.html").replace("<!-- fakesol:scripts -->\n", tags.toString());
    for (String path : List.of("/", "/c/*", "/g/*")) {
      router.get(path).handler(ctx -> serve(ctx, html, "text/html"));
    }
    bodies.forEach((route, body) -> router.get(route).handler(ctx -> serve(ctx, body, "text/javascript")));
  }

  private static void serve(RoutingContext ctx, String body, String type) {
    ctx.response().putHeader("content-type", type + "; charset=utf-8").putHeader("cache-control", "no-store").end(body);
  }

  /** JSON that is safe inside a script element: no {@code </script>} can end it early. */
  private static String inlineJson(JsonNode node) {
    try {
      return FakeSol.JSON.writeValueAsString(node).replace("</", "<\\/");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static JsonNode readJson(String name) {
    try {
      return FakeSol.JSON.readTree(resource(name));
    } catch (IOException e) {
      throw new UncheckedIOException("fakesol resource is not JSON: /fakesol/" + name, e);
    }
  }

  static String resource(String name) {
    try (InputStream in = PageRender.class.getResourceAsStream("/fakesol/" + name)) {
      if (in == null) {
        throw new IllegalStateException("fakesol resource missing: /fakesol/" + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

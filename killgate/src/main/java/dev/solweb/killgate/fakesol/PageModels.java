package dev.solweb.killgate.fakesol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The model rows of a page that shows several model families (../shared/REAL-PAGE.md rows 59, 61,
 * 62, 64: mutation {@code model-families}) and the model every turn request named. The rows are
 * data ({@code models.rows} in the page config, set by the mutation); this class only resolves
 * what the seed decides for one account, before the page renders:
 * <ul>
 *   <li>each row's slug, spelled in one of several ways no public source shows (the launch's slugs
 *       are unknown: {@code gpt-6-2-sol-thinking}, {@code sol-6.2}, ...), one spelling per page;
 *   <li>whether a row marked {@code "xhighOnSome"} offers Extra High on this account (row 62);
 *   <li>on a Plus account ({@code models.plan}, mutation {@code plus-account}), a row's
 *       {@code plusEfforts} instead of its efforts (row 56: GPT-6 has three tiers on Plus).
 * </ul>
 * It keeps the chosen row ({@code /api/model}: the backend's choice, like the effort, so a reload
 * and a new tab show it) and, for {@code /control}, the model of every turn request.
 */
public final class PageModels {

  /**
   * Slug spellings, {0} the version with dashes, {1} with dots, {2} with no separator, {3} the family
   * in lower case. Thinking rows use the first of each pair, Instant rows the second. This project's
   * inventions: they only have to differ from October's {@code gpt-N-thinking}.
   */
  private static final List<String[]> SPELLINGS = List.of(
      new String[] {"gpt-{0}-{3}-thinking", "gpt-{0}-{3}-instant"},
      new String[] {"{3}-{1}", "{3}-{1}-instant"},
      new String[] {"gpt-{1}-{3}", "gpt-{1}-{3}-chat-instant"},
      new String[] {"{3}{2}-reasoning", "{3}{2}-instant"});

  private final ObjectNode config;
  private final List<ObjectNode> turns = new ArrayList<>();
  private String chosen;

  private PageModels(ObjectNode config) {
    this.config = config;
    this.chosen = initial(config);
  }

  /** The model rows of the rendered page {@code config} (none when no mutation set {@code models}). */
  static PageModels of(ObjectNode config) {
    return new PageModels(config);
  }

  /**
   * Fills in what the seed decides for this account (slugs, Extra High) into {@code config.models.rows};
   * a page without {@code models} is left as it is. Runs once, after the mutations were applied.
   */
  static void resolve(ObjectNode config) {
    JsonNode catalogue = config.path("models").path("catalogue");
    String plan = config.path("models").path("plan").asText("pro");
    if (catalogue.isTextual()) {
      // The rows are one data file (models/<name>.json) that a shape and a mutation both name.
      ObjectNode models = (ObjectNode) PageRender.readJson("models/" + catalogue.asText() + ".json");
      models.remove("_source");
      models.put("plan", plan);
      config.set("models", models);
    }
    JsonNode rows = config.path("models").path("rows");
    if (!rows.isArray()) {
      return;
    }
    SplittableRandom random = new SplittableRandom(config.path("seed").asLong(0) ^ 0x5eed_0d31L);
    String[] spelling = SPELLINGS.get(random.nextInt(SPELLINGS.size()));
    boolean xhigh = random.nextBoolean();
    ((ObjectNode) config.get("models")).put("xhighOnThisAccount", xhigh);
    for (JsonNode r : rows) {
      ObjectNode row = (ObjectNode) r;
      if ("plus".equals(plan) && row.has("plusEfforts")) {
        row.set("efforts", row.get("plusEfforts")); // row 56: a Plus account's tiers of the row
      }
      if (row.has("slug") || !row.has("family")) {
        continue; // a row whose slug the data fixes (the bare "6", "Latest") keeps it
      }
      String v = row.path("version").asText();
      String slug = (row.path("instant").asBoolean() ? spelling[1] : spelling[0])
          .replace("{0}", v.replace('.', '-')).replace("{1}", v).replace("{2}", v.replace(".", ""))
          .replace("{3}", row.path("family").asText().toLowerCase(Locale.ROOT));
      row.put("slug", slug);
      if (row.path("xhighOnSome").asBoolean() && xhigh) {
        ((ArrayNode) row.withArray("efforts")).add("Extra High");
      }
    }
  }

  /**
   * Whether the page shows model families at all: rows to show and the families picker to show them
   * in (models.js shows none under another picker, e.g. the 2026-11 shape with picker-menu drawn).
   */
  boolean active() {
    return config.path("models").path("rows").isArray() && "families".equals(config.path("layout").path("picker").asText());
  }

  void mount(Router router) {
    router.get("/api/model").handler(ctx -> FakeSol.json(ctx, 200, FakeSol.JSON.createObjectNode().put("row", chosen())));
    router.post("/api/model").handler(this::choose);
  }

  private synchronized String chosen() {
    return chosen;
  }

  private synchronized void choose(RoutingContext ctx) {
    String wanted = FakeSol.body(ctx).path("row").asText("");
    if (row(wanted) == null) {
      FakeSol.json(ctx, 400, FakeSol.JSON.createObjectNode().put("detail", "no model row named " + wanted));
      return;
    }
    chosen = wanted;
    FakeSol.json(ctx, 200, FakeSol.JSON.createObjectNode().put("row", chosen));
  }

  /** A turn request reached the server: the model it names is kept, mapped to its row where the slug is one. */
  synchronized void sent(JsonNode body, String effortLabel) {
    String model = body.path("model").isTextual() ? body.path("model").asText() : null;
    ObjectNode turn = FakeSol.JSON.createObjectNode().put("model", model)
        .put("thinking_effort", body.path("thinking_effort").isTextual() ? body.path("thinking_effort").asText() : null)
        .put("effort_label", effortLabel);
    JsonNode row = model == null ? null : rowBySlug(model);
    turn.put("row", row == null ? null : row.path("name").asText());
    turn.put("family", row == null ? null : row.path("family").asText(null));
    turn.put("version", row == null ? null : row.path("version").asText(null));
    turns.add(turn);
  }

  /** The slug the last turn request named when it is one of this page's rows: the answer runs on it. */
  synchronized java.util.Optional<String> answering() {
    if (!active() || turns.isEmpty() || turns.get(turns.size() - 1).path("row").isNull()) {
      return java.util.Optional.empty();
    }
    return java.util.Optional.of(turns.get(turns.size() - 1).path("model").asText());
  }

  /** {@code /control}: the rows as this account sees them, the chosen row and the model of every turn request. */
  synchronized void report(ObjectNode control) {
    if (active()) {
      control.set("models", config.path("models").path("rows").deepCopy());
      control.put("model_row", chosen);
    }
    ArrayNode out = control.putArray("turn_models");
    turns.forEach(t -> out.add(t.deepCopy()));
  }

  private JsonNode row(String name) {
    for (JsonNode r : config.path("models").path("rows")) {
      if (r.path("name").asText().equals(name)) {
        return r;
      }
    }
    return null;
  }

  /** The row a slug is of; a thinking row's Pro variant ({@code <slug>-pro}) and Latest's alias map to their own rows. */
  private JsonNode rowBySlug(String slug) {
    for (JsonNode r : config.path("models").path("rows")) {
      if (!r.path("latest").asBoolean() && (slug.equals(r.path("slug").asText()) || slug.equals(r.path("proSlug").asText())
          || slug.equals(r.path("instantSlug").asText()))) {
        return r;
      }
    }
    return null;
  }

  private static String initial(ObjectNode config) {
    for (JsonNode r : config.path("models").path("rows")) {
      if (r.path("checked").asBoolean()) {
        return r.path("name").asText();
      }
    }
    return null;
  }
}

package dev.solweb.provider.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.seat.ModelOffer;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.ext.web.RoutingContext;
import java.util.Optional;
import java.util.function.Function;

/**
 * {@code GET /v1/models}: the model ids this account can run, from its picker ({@link ModelCatalog}),
 * with the picker's rows beside them under {@code solweb} (family, version, efforts, retiring), so a
 * client lists only what the account has (REAL-PAGE rows 56, 62). Before the picker was read the
 * ids are every effort's, marked {@code "offer": "unread"}. {@code ?refresh=1} reads it now.
 */
final class ModelsRoute {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Vertx vertx;
  private final ModelCatalog catalog;

  ModelsRoute(Vertx vertx, ModelCatalog catalog) {
    this.vertx = vertx;
    this.catalog = catalog;
  }

  void handle(RoutingContext ctx) {
    // Both wires render one list (ModelCatalog.runnable); a client that sends anthropic-version gets Anthropic's shape.
    boolean anthropic = AnthropicErrors.speaks(ctx.request());
    Function<Optional<ModelCatalog.Known>, ObjectNode> render =
        anthropic ? known -> MessagesRoute.models(ModelCatalog.runnable(known)) : ModelsRoute::body;
    if (!"1".equals(ctx.queryParams().get("refresh"))) {
      ErrorBodies.json(ctx.response(), render.apply(catalog.current()));
      return;
    }
    Context context = vertx.getOrCreateContext();
    catalog.refresh().whenComplete((known, error) -> context.runOnContext(v -> {
      if (error == null) {
        ErrorBodies.json(ctx.response(), render.apply(Optional.ofNullable(known)));
      } else if (anthropic) {
        AnthropicErrors.send(ctx.response(), TurnServing.failureOf(error));
      } else {
        ErrorBodies.send(ctx.response(), TurnServing.failureOf(error));
      }
    }));
  }

  static ObjectNode body(Optional<ModelCatalog.Known> known) {
    ObjectNode root = JSON.createObjectNode();
    root.put("object", "list");
    ArrayNode data = root.putArray("data");
    for (Effort effort : ModelCatalog.runnable(known)) {
      data.addObject().put("id", effort.modelId()).put("object", "model").put("created", 0).put("owned_by", "solweb");
    }
    ObjectNode solweb = root.putObject("solweb");
    solweb.put("offer", known.isPresent() ? "read" : "unread");
    known.ifPresent(k -> {
      solweb.put("read_at", k.readAt().toString()).put("chosen", k.offer().chosen());
      ArrayNode rows = solweb.putArray("rows");
      for (ModelOffer.Row r : k.offer().rows()) {
        ObjectNode row = rows.addObject().put("name", r.name()).put("family", r.family()).put("version", r.version())
            .put("instant", r.instant()).put("retiring", r.retiring()).put("enabled", r.enabled());
        ArrayNode efforts = row.putArray("efforts");
        r.efforts().forEach(e -> efforts.add(e.label()));
      }
    });
    return root;
  }
}

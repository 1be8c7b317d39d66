package dev.solweb.provider.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.seat.ModelOffer;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.ext.web.RoutingContext;
import java.util.List;
import java.util.Optional;

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
    if (AnthropicErrors.speaks(ctx.request())) {
      MessagesRoute.models(ctx);
      return;
    }
    if (!"1".equals(ctx.queryParams().get("refresh"))) {
      ErrorBodies.json(ctx.response(), body(catalog.current()));
      return;
    }
    Context context = vertx.getOrCreateContext();
    catalog.refresh().whenComplete((known, error) -> context.runOnContext(v -> {
      if (error != null) {
        ErrorBodies.send(ctx.response(), TurnServing.failureOf(error));
      } else {
        ErrorBodies.json(ctx.response(), body(Optional.ofNullable(known)));
      }
    }));
  }

  static ObjectNode body(Optional<ModelCatalog.Known> known) {
    ObjectNode root = JSON.createObjectNode();
    root.put("object", "list");
    ArrayNode data = root.putArray("data");
    List<String> ids = known.map(k -> k.offer().modelIds()).orElse(Effort.modelIds());
    for (String id : ids) {
      data.addObject().put("id", id).put("object", "model").put("created", 0).put("owned_by", "solweb");
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

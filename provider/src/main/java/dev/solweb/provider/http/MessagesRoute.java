package dev.solweb.provider.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.dispatch.TurnRequest;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.platform.Json;
import dev.solweb.provider.translate.AttachmentDecoder;
import dev.solweb.provider.translate.BadRequest;
import io.vertx.ext.web.RoutingContext;
import java.util.List;
import java.util.logging.Logger;

/**
 * Anthropic's Messages API for clients that speak it (Claude Code, the Anthropic SDKs):
 * {@code POST /v1/messages} parses into the shared turn ({@link MessagesRequest}) and is served in
 * the Messages wire ({@link MessagesEvents}); {@code POST /v1/messages/count_tokens} answers the
 * context budget's estimate and sends nothing; {@code GET /v1/models} in Anthropic's list shape.
 * Auth (bearer or {@code x-api-key}) and the body limit run before it; every refusal is in
 * Anthropic's error shape ({@link AnthropicErrors}).
 */
final class MessagesRoute {
  private static final Logger LOG = Logger.getLogger(MessagesRoute.class.getName());
  private static final ObjectMapper JSON = Json.MAPPER;
  private static final String EPOCH = "1970-01-01T00:00:00Z";

  private final TurnServing turns;
  private final AttachmentDecoder files;

  MessagesRoute(TurnServing turns, AttachmentDecoder files) {
    this.turns = turns;
    this.files = files;
  }

  void handle(RoutingContext ctx) {
    MessagesRequest request = parse(ctx);
    if (request == null) {
      return;
    }
    if (!request.notOffered().isEmpty()) {
      LOG.info("messages: tools not offered to the model (not custom tools): " + String.join(", ", request.notOffered()));
    }
    if (request.thinking()) {
      LOG.info("messages: the request's thinking budget is ignored; the effort is in the model id (" + request.model() + ")");
    }
    turns.serve(ctx, TurnRequest.chat(request.input()), request.stream(),
        new MessagesEvents(MessagesEvents.newId(), request.model()));
  }

  /** {@code POST /v1/messages/count_tokens}: the estimate the context budget would make; no turn. */
  void countTokens(RoutingContext ctx) {
    MessagesRequest request = parse(ctx);
    if (request != null) {
      ErrorBodies.json(ctx.response(), JSON.createObjectNode().put("input_tokens", request.estimatedInputTokens()));
    }
  }

  /**
   * {@code GET /v1/models} in Anthropic's shape: the {@code sol-web-<effort>} ids of {@code efforts}
   * ({@link ModelCatalog#runnable}, the same list the OpenAI shape renders); an empty list has no first or last id.
   */
  static ObjectNode models(List<Effort> efforts) {
    ObjectNode root = JSON.createObjectNode();
    ArrayNode data = root.putArray("data");
    efforts.forEach(effort -> data.add(model(effort)));
    root.put("has_more", false);
    if (efforts.isEmpty()) {
      root.putNull("first_id").putNull("last_id");
    } else {
      root.put("first_id", efforts.get(0).modelId()).put("last_id", efforts.get(efforts.size() - 1).modelId());
    }
    return root;
  }

  /** {@code GET /v1/models/:id} in Anthropic's shape, for a client that sends {@code anthropic-version}. */
  static void model(RoutingContext ctx) {
    if (!AnthropicErrors.speaks(ctx.request())) {
      ctx.next();
      return;
    }
    String id = ctx.pathParam("id");
    Effort effort = Effort.fromModelId(id).orElse(null);
    if (effort == null) {
      BadRequest unknown = MessagesRequest.unknownModel(id);
      AnthropicErrors.sendRequestError(ctx.response(), unknown.status(), unknown.getMessage());
      return;
    }
    ErrorBodies.json(ctx.response(), model(effort));
  }

  private static ObjectNode model(Effort effort) {
    return JSON.createObjectNode().put("type", "model").put("id", effort.modelId())
        .put("display_name", "ChatGPT web, " + effort.label()).put("created_at", EPOCH);
  }

  /** The parsed body, or null once a typed refusal has been sent. */
  private MessagesRequest parse(RoutingContext ctx) {
    try {
      return MessagesRequest.parse(ctx.body().asString(), files);
    } catch (BadRequest e) {
      AnthropicErrors.sendRequestError(ctx.response(), e.status(), e.getMessage());
      return null;
    }
  }
}

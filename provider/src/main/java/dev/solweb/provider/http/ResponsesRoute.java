package dev.solweb.provider.http;

import dev.solweb.provider.dispatch.TurnRequest;
import dev.solweb.provider.translate.AttachmentDecoder;
import dev.solweb.provider.translate.BadRequest;
import io.vertx.ext.web.RoutingContext;
import java.time.Instant;
import java.util.logging.Logger;

/**
 * {@code POST /v1/responses}: parse and validate into the shared turn, then serve it in the
 * Responses wire. Bearer auth and the body limit run before it, as on the chat route.
 */
final class ResponsesRoute {
  private static final Logger LOG = Logger.getLogger(ResponsesRoute.class.getName());

  private final TurnServing turns;
  private final AttachmentDecoder files;

  ResponsesRoute(TurnServing turns, AttachmentDecoder files) {
    this.turns = turns;
    this.files = files;
  }

  void handle(RoutingContext ctx) {
    ResponsesRequest request;
    try {
      request = ResponsesRequest.parse(ctx.body().asString(),
          ctx.request().headers().getAll(ResponsesRequest.SESSION_HEADER), files);
    } catch (BadRequest e) {
      ErrorBodies.sendRequestError(ctx.response(), e.status(), e.type(), e.getMessage());
      return;
    }
    if (!request.notOffered().isEmpty()) {
      LOG.info("responses: tools not offered to the model (hosted or not a function): "
          + String.join(", ", request.notOffered()));
    }
    ResponsesEvents wire = new ResponsesEvents(ResponsesEvents.newId(), request.model(),
        Instant.now().getEpochSecond(), request.toolNames());
    turns.serve(ctx, TurnRequest.chat(request.input()), request.stream(), wire);
  }

  /** {@code GET /v1/responses/:id}: nothing is stored, so there is nothing to retrieve. */
  static void retrieve(RoutingContext ctx) {
    ErrorBodies.sendRequestError(ctx.response(), 400, "stateful_request_unsupported",
        "solwebd's Responses API is stateless (store: false): responses are not stored and cannot be retrieved");
  }
}

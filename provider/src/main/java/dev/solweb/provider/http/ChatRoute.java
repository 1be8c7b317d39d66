package dev.solweb.provider.http;

import dev.solweb.provider.dispatch.TurnRequest;
import dev.solweb.provider.translate.AttachmentDecoder;
import dev.solweb.provider.translate.BadRequest;
import io.vertx.ext.web.RoutingContext;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/**
 * {@code POST /v1/chat/completions}, its steps in order: bearer auth (before it), the
 * client-session header ({@link #checkClientSession}, before a byte of the body is read), the body
 * limit, parse and validate ({@link ChatRequest}), then the shared turn served as a stream or a
 * whole completion ({@link TurnServing}, {@link ChatWire}).
 */
final class ChatRoute {
  private static final String CLIENT_SESSION = "clientSession";

  private final TurnServing turns;
  private final AttachmentDecoder files;

  ChatRoute(TurnServing turns, AttachmentDecoder files) {
    this.turns = turns;
    this.files = files;
  }

  /** Refuses a malformed client-session header with a typed 400; a good one waits for the body. */
  static void checkClientSession(RoutingContext ctx) {
    try {
      ctx.put(CLIENT_SESSION, ChatRequest.clientSession(ctx.request().headers().getAll(ChatRequest.CLIENT_SESSION_HEADER)));
      ctx.next();
    } catch (BadRequest e) {
      ErrorBodies.sendRequestError(ctx.response(), e.status(), e.type(), e.getMessage());
    }
  }

  void handle(RoutingContext ctx) {
    ChatRequest request;
    try {
      Optional<String> clientSession = ctx.get(CLIENT_SESSION);
      request = ChatRequest.parse(ctx.body().asString(), clientSession, files);
    } catch (BadRequest e) {
      ErrorBodies.sendRequestError(ctx.response(), e.status(), e.type(), e.getMessage());
      return;
    }
    Completions completions = new Completions("chatcmpl-" + UUID.randomUUID(), request.model(), Instant.now().getEpochSecond());
    turns.serve(ctx, TurnRequest.chat(request.input()), request.stream(), new ChatWire(completions, request.includeUsage()));
  }
}

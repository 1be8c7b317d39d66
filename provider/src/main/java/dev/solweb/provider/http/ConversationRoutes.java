package dev.solweb.provider.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.solweb.provider.dispatch.Dispatcher;
import dev.solweb.provider.hygiene.ConversationDeletion;
import dev.solweb.provider.platform.Json;
import dev.solweb.provider.translate.Conversation;
import dev.solweb.provider.translate.ConversationListing;
import dev.solweb.provider.translate.ConversationSelection;
import dev.solweb.provider.translate.Conversations;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.ext.web.RoutingContext;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * {@code GET /v1/conversations} (the managed conversations, from the registry: never the
 * sidebar, never prompt text) and {@code POST /v1/conversations/delete} (solwebctl conversations
 * delete, factory-gpt run --cleanup). A delete body names exactly one of {@code ids} (conversation
 * ids, session keys or URLs of registry entries), {@code idle_days}, {@code all: true} or
 * {@code client_session} (the X-Overdeck-Client-Session value its turns carried), and may
 * say {@code dry_run: true}; each conversation is deleted on a seat between turns, one after
 * another, and the answer (200) is {@link ConversationDeletion#report} once all are done. An ID
 * that is not a managed conversation refuses the whole request (400), nothing deleted.
 */
final class ConversationRoutes {
  private static final Set<String> FIELDS = Set.of("ids", "idle_days", "all", "client_session", "dry_run");

  private final Vertx vertx;
  private final Dispatcher dispatcher;
  private final Conversations conversations;

  ConversationRoutes(Vertx vertx, Dispatcher dispatcher, Conversations conversations) {
    this.vertx = vertx;
    this.dispatcher = dispatcher;
    this.conversations = conversations;
  }

  /** {@code ?client_session=<header value>} lists only that client session's conversations. */
  void list(RoutingContext ctx) {
    String session = ctx.queryParams().get("client_session");
    ErrorBodies.json(ctx.response(), ConversationListing.toJson(session == null || session.isEmpty() ? conversations.list()
        : conversations.list(ConversationSelection.ofClientSession(session))));
  }

  void delete(RoutingContext ctx) {
    ConversationSelection selection;
    boolean dryRun;
    List<Conversation> selected;
    try {
      JsonNode body = Json.MAPPER.readTree(ctx.body().asString() == null ? "" : ctx.body().asString());
      if (body == null || !body.isObject()) {
        throw new IllegalArgumentException("the body must be a JSON object");
      }
      for (Iterator<String> names = body.fieldNames(); names.hasNext(); ) {
        String name = names.next();
        if (!FIELDS.contains(name)) {
          throw new IllegalArgumentException("unknown field \"" + name + "\"; fields: ids, idle_days, all, client_session, dry_run");
        }
      }
      List<String> ids = new ArrayList<>();
      JsonNode given = body.path("ids");
      if (!given.isMissingNode()) {
        if (!given.isArray()) {
          throw new IllegalArgumentException("ids must be an array of strings");
        }
        for (JsonNode id : given) {
          if (!id.isTextual() || id.asText().isBlank()) {
            throw new IllegalArgumentException("ids must be an array of non-empty strings");
          }
          ids.add(id.asText());
        }
      }
      JsonNode idle = body.path("idle_days");
      if (!idle.isMissingNode() && !idle.isIntegralNumber()) {
        throw new IllegalArgumentException("idle_days must be a whole number of days");
      }
      JsonNode session = body.path("client_session");
      if (!session.isMissingNode() && (!session.isTextual() || session.asText().isBlank())) {
        throw new IllegalArgumentException("client_session must be the client-session header value");
      }
      selection = new ConversationSelection(ids, idle.isMissingNode() ? null : idle.asInt(),
          body.path("all").asBoolean(false), session.isMissingNode() ? null : session.asText());
      dryRun = body.path("dry_run").asBoolean(false);
      selected = conversations.list(selection);
    } catch (IOException | IllegalArgumentException e) {
      ErrorBodies.sendRequestError(ctx.response(), 400, "invalid_request_error", e.getMessage());
      return;
    }
    Context context = vertx.getOrCreateContext();
    ConversationDeletion.throughDispatcher(dispatcher, conversations, selected, dryRun)
        .whenComplete((outcomes, error) -> context.runOnContext(v -> {
          if (ctx.response().ended()) {
            return;
          }
          if (error != null) {
            ErrorBodies.sendRequestError(ctx.response(), 500, "internal_error", "the delete did not finish: " + error);
            return;
          }
          ErrorBodies.json(ctx.response(), ConversationDeletion.report(outcomes, dryRun));
        }));
  }
}

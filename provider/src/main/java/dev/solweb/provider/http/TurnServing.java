package dev.solweb.provider.http;

import dev.solweb.provider.dispatch.Dispatcher;
import dev.solweb.provider.dispatch.TurnRequest;
import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.failure.TurnFailed;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.ext.web.RoutingContext;
import java.time.Duration;
import java.util.concurrent.CompletionException;

/**
 * The part of every turn route after its request is parsed: dispatch, then a stream or a whole
 * body in the route's {@link TurnWire}. One dispatcher, one answer, whatever the wire.
 */
final class TurnServing {
  private final Vertx vertx;
  private final Dispatcher dispatcher;
  private final Duration keepAlive;
  private final ModelInUse model;

  TurnServing(Vertx vertx, Dispatcher dispatcher, Duration keepAlive, ModelInUse model) {
    this.vertx = vertx;
    this.dispatcher = dispatcher;
    this.keepAlive = keepAlive;
    this.model = model;
  }

  void serve(RoutingContext ctx, TurnRequest turn, boolean stream, TurnWire wire) {
    Dispatcher.TurnHandle handle = dispatcher.submit(turn);
    Context context = vertx.getOrCreateContext();

    // A turn the dispatcher refused outright (a fail-fast cap, shutdown) is answered before any
    // stream is committed, so its status code reaches the client. Anything queued streams.
    if (handle.decidedAtSubmit() && handle.result().isCompletedExceptionally()) {
      wire.refuse(ctx.response(), failureOf(handle.result().handle((a, e) -> e).join()));
      return;
    }
    if (stream) {
      SseTurnStream sse = new SseTurnStream(vertx, ctx.response(), wire, keepAlive.toMillis());
      sse.start(handle);
      handle.result().whenComplete((answer, error) -> context.runOnContext(v -> {
        if (error == null) {
          model.answered(answer.model());
          sse.answer(answer);
        } else {
          sse.fail(failureOf(error));
        }
      }));
    } else {
      ctx.response().closeHandler(closed -> handle.release());
      handle.result().whenComplete((answer, error) -> context.runOnContext(v -> {
        if (error == null) {
          model.answered(answer.model());
          if (answer.model() != null) {
            ctx.response().putHeader(ModelInUse.HEADER, answer.model());
          }
          ErrorBodies.json(ctx.response(), wire.whole(answer));
        } else {
          wire.refuse(ctx.response(), failureOf(error));
        }
      }));
    }
  }

  static ProviderFailure failureOf(Throwable error) {
    Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    if (cause instanceof TurnFailed failed) {
      return failed.failure();
    }
    return ProviderFailure.of(ProviderFailure.Kind.UNAVAILABLE, "internal error: " + cause);
  }
}

package dev.solweb.provider.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.dispatch.Dispatcher;
import dev.solweb.provider.dispatch.TurnRequest;
import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.failure.TurnFailed;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.platform.Json;
import dev.solweb.provider.protocol.Reply;
import dev.solweb.provider.translate.Answer;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.ext.web.RoutingContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;

/**
 * {@code POST /v1/ask}: ask-gpt's one-shot conversation through the daemon, in the same queue
 * and under the same seat lock as agentic turns.
 *
 * <p>Body: {@code {"prompt": str, "effort": "medium" | "sol-web-medium", "attachments": [abs path],
 * "output_dir": abs path}}; effort is required (no implicit default on the wire). Paths are
 * absolute because the daemon's cwd is not the caller's; attachments must be readable files, the
 * output directory is created if missing. Answer 200: {@code {"answer": str, "images": [abs path],
 * "model": "sol-web-<effort>"}}; a failure is the typed error body with its status.
 */
final class AskRoute {
  private static final ObjectMapper JSON = Json.MAPPER;

  private final Vertx vertx;
  private final Dispatcher dispatcher;

  AskRoute(Vertx vertx, Dispatcher dispatcher) {
    this.vertx = vertx;
    this.dispatcher = dispatcher;
  }

  /** Parses and checks the files off the event loop (a slow or network disk must not stall it), then queues. */
  void handle(RoutingContext ctx) {
    String body = ctx.body().asString();
    Context context = vertx.getOrCreateContext();
    vertx.executeBlocking(() -> parse(body), false).onComplete(parsed -> {
      if (parsed.failed()) {
        Throwable cause = parsed.cause();
        if (cause instanceof IllegalArgumentException) {
          ErrorBodies.sendRequestError(ctx.response(), 400, "invalid_request_error", cause.getMessage());
        } else {
          ErrorBodies.send(ctx.response(), ProviderFailure.of(ProviderFailure.Kind.UNAVAILABLE,
              "internal error reading the ask: " + cause));
        }
        return;
      }
      submit(ctx, context, parsed.result());
    });
  }

  private void submit(RoutingContext ctx, Context context, TurnRequest.Ask request) {
    if (ctx.response().closed()) {
      return; // the client left while its files were checked: nothing to queue
    }
    Dispatcher.TurnHandle handle = dispatcher.submit(request);
    ctx.response().closeHandler(closed -> handle.release());
    handle.result().whenComplete((answer, error) -> context.runOnContext(v -> {
      if (error == null) {
        ErrorBodies.json(ctx.response(), body(answer, request.effort()));
      } else {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        ErrorBodies.send(ctx.response(), cause instanceof TurnFailed failed ? failed.failure()
            : ProviderFailure.of(ProviderFailure.Kind.UNAVAILABLE, "internal error: " + cause));
      }
    }));
  }

  /** @throws IllegalArgumentException naming the field and what is wrong with it */
  static TurnRequest.Ask parse(String body) {
    JsonNode root;
    try {
      root = body == null ? null : JSON.readTree(body);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalArgumentException("the body is not JSON: " + e.getOriginalMessage());
    }
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException("the body must be a JSON object {prompt, effort, attachments, output_dir}");
    }
    JsonNode prompt = root.get("prompt");
    if (prompt == null || !prompt.isTextual() || prompt.asText().isBlank()) {
      throw new IllegalArgumentException("prompt must be a non-empty string");
    }
    String effortText = root.path("effort").asText("");
    Effort effort = Effort.fromSuffix(effortText).or(() -> Effort.fromModelId(effortText)).orElseThrow(() ->
        new IllegalArgumentException("effort must be one of instant, medium, high, xhigh, pro (or sol-web-<effort>), got: '"
            + effortText + "'"));
    List<Path> attachments = new ArrayList<>();
    JsonNode list = root.path("attachments");
    if (!list.isMissingNode() && !list.isNull()) {
      if (!list.isArray()) {
        throw new IllegalArgumentException("attachments must be an array of absolute paths");
      }
      for (JsonNode item : list) {
        Path path = absolute(item, "attachment");
        if (!Files.isRegularFile(path) || !Files.isReadable(path)) {
          throw new IllegalArgumentException("attachment " + path + " is not a readable file");
        }
        attachments.add(path);
      }
    }
    Path outputDir = absolute(root.path("output_dir"), "output_dir");
    try {
      Files.createDirectories(outputDir);
    } catch (IOException e) {
      throw new IllegalArgumentException("output_dir " + outputDir + " cannot be created: " + e.getMessage());
    }
    return TurnRequest.Ask.of(effort, prompt.asText(), attachments, outputDir);
  }

  private static Path absolute(JsonNode node, String what) {
    if (!node.isTextual() || node.asText().isEmpty()) {
      throw new IllegalArgumentException(what + " must be an absolute path string");
    }
    Path path = Path.of(node.asText());
    if (!path.isAbsolute()) {
      throw new IllegalArgumentException(what + " must be absolute (the daemon's cwd is not yours), got: " + path);
    }
    return path.normalize();
  }

  private static ObjectNode body(Answer answer, Effort effort) {
    ObjectNode root = JSON.createObjectNode();
    if (!(answer.reply() instanceof Reply.Final text)) {
      throw new IllegalStateException("Unhandled one-shot reply: " + answer.reply());
    }
    root.put("answer", text.text());
    answer.images().forEach(root.putArray("images")::add);
    root.put("model", effort.modelId());
    return root;
  }
}

package dev.solweb.provider.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.translate.Answer;
import dev.solweb.provider.dispatch.Dispatcher.TurnHandle;
import dev.solweb.provider.failure.ProviderFailure;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;

/**
 * One streamed turn. Commits at once (200, {@code text/event-stream}, a first chunk carrying the
 * role), sends a well-formed empty-delta keep-alive every interval (never {@code : ping}
 * comments: ccr drops those), then the answer as one chunk, the finish chunk, an optional usage
 * chunk and {@code [DONE]}. A failure after commit is one {@code {"error":...}} data event and a
 * close with no finish reason and no {@code [DONE]} (a clean close would read as success).
 *
 * <p>Runs on the event loop; ends exactly once on every path; a client that leaves releases the
 * turn and is written nothing more.
 */
final class SseTurnStream {
  private final Vertx vertx;
  private final HttpServerResponse response;
  private final Completions completions;
  private final boolean includeUsage;
  private final long keepAliveMillis;
  private long keepAliveTimer = -1;
  private boolean ended;

  SseTurnStream(Vertx vertx, HttpServerResponse response, Completions completions, boolean includeUsage, long keepAliveMillis) {
    this.vertx = vertx;
    this.response = response;
    this.completions = completions;
    this.includeUsage = includeUsage;
    this.keepAliveMillis = keepAliveMillis;
  }

  void start(TurnHandle handle) {
    response.setStatusCode(200);
    response.setChunked(true);
    response.putHeader("Content-Type", "text/event-stream");
    response.putHeader("Cache-Control", "no-cache");
    response.putHeader("X-Accel-Buffering", "no");
    response.closeHandler(closed -> {
      stopKeepAlive();
      ended = true;
      handle.release();
    });
    write(completions.roleChunk());
    if (keepAliveMillis > 0) {
      keepAliveTimer = vertx.setPeriodic(keepAliveMillis, id -> write(completions.keepAliveChunk()));
    }
  }

  void answer(Answer answer) {
    if (ended) {
      return;
    }
    stopKeepAlive();
    write(completions.answerChunk(answer));
    write(completions.finishChunk(answer, !includeUsage));
    if (includeUsage) {
      write(completions.usageChunk(answer));
    }
    writeRaw("data: [DONE]\n\n");
    end();
  }

  void fail(ProviderFailure failure) {
    if (ended) {
      return;
    }
    stopKeepAlive();
    write(ErrorBodies.failure(failure));
    end();
  }

  private void write(ObjectNode chunk) {
    writeRaw("data: " + chunk + "\n\n");
  }

  private void writeRaw(String frame) {
    if (!ended && !response.closed()) {
      response.write(frame);
    }
  }

  private void end() {
    ended = true;
    if (!response.ended() && !response.closed()) {
      response.end();
    }
  }

  private void stopKeepAlive() {
    if (keepAliveTimer >= 0) {
      vertx.cancelTimer(keepAliveTimer);
      keepAliveTimer = -1;
    }
  }
}

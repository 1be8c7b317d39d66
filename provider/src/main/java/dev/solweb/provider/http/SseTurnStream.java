package dev.solweb.provider.http;

import dev.solweb.provider.dispatch.Dispatcher.TurnHandle;
import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.translate.Answer;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * One streamed turn in a {@link TurnWire}'s frames. Commits at once (200,
 * {@code text/event-stream}, the wire's opening frames), sends the wire's keep-alive every
 * interval, then the answer's frames, or the failure's frames and a close (a clean close with a
 * success marker would read as success).
 *
 * <p>Runs on the event loop; ends exactly once on every path; a client that leaves releases the
 * turn and is written nothing more. Respects back-pressure: while the response's write queue is
 * full, frames wait in order and go out on drain (a keep-alive is skipped rather than queued), and
 * the end follows the last frame.
 */
final class SseTurnStream {
  private final Vertx vertx;
  private final HttpServerResponse response;
  private final TurnWire wire;
  private final long keepAliveMillis;
  private final Deque<String> waiting = new ArrayDeque<>();
  private long keepAliveTimer = -1;
  private boolean ended;
  private boolean endWhenFlushed;

  SseTurnStream(Vertx vertx, HttpServerResponse response, TurnWire wire, long keepAliveMillis) {
    this.vertx = vertx;
    this.response = response;
    this.wire = wire;
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
      waiting.clear();
      handle.release();
    });
    response.drainHandler(v -> flush());
    write(wire.opening());
    if (keepAliveMillis > 0) {
      keepAliveTimer = vertx.setPeriodic(keepAliveMillis, id -> {
        if (waiting.isEmpty() && !response.writeQueueFull()) {
          writeRaw(wire.keepAlive());
        }
      });
    }
  }

  void answer(Answer answer) {
    if (ended || endWhenFlushed) {
      return;
    }
    stopKeepAlive();
    if (answer.model() != null) {
      // The headers went out before the model was known: a comment line every SSE client skips says it.
      writeRaw(": " + ModelInUse.HEADER + ": " + answer.model().replaceAll("[\\r\\n]", "") + "\n\n");
    }
    write(wire.answer(answer));
    end();
  }

  void fail(ProviderFailure failure) {
    if (ended || endWhenFlushed) {
      return;
    }
    stopKeepAlive();
    write(wire.failure(failure));
    end();
  }

  private void write(List<String> frames) {
    frames.forEach(this::writeRaw);
  }

  private void writeRaw(String frame) {
    if (ended || endWhenFlushed || response.closed()) {
      return;
    }
    waiting.addLast(frame);
    flush();
  }

  /** Writes waiting frames while the queue has room; ends once they are out if the end was asked for. */
  private void flush() {
    while (!waiting.isEmpty() && !response.closed() && !response.writeQueueFull()) {
      response.write(waiting.pollFirst());
    }
    if (endWhenFlushed && waiting.isEmpty() && !ended) {
      ended = true;
      if (!response.ended() && !response.closed()) {
        response.end();
      }
    }
  }

  private void end() {
    if (ended || endWhenFlushed) {
      return;
    }
    endWhenFlushed = true;
    flush();
  }

  private void stopKeepAlive() {
    if (keepAliveTimer >= 0) {
      vertx.cancelTimer(keepAliveTimer);
      keepAliveTimer = -1;
    }
  }
}

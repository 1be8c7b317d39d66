package dev.solweb.provider.http;

import dev.solweb.provider.dispatch.Answer;
import dev.solweb.provider.dispatch.Dispatcher.TurnHandle;
import dev.solweb.provider.failure.ProviderFailure;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;
import java.util.List;

/**
 * One streamed turn in a {@link TurnWire}'s frames. Commits at once (200,
 * {@code text/event-stream}, the wire's opening frames), sends the wire's keep-alive every
 * interval, then the answer's frames, or the failure's frames and a close (a clean close with a
 * success marker would read as success).
 *
 * <p>Runs on the event loop; ends exactly once on every path; a client that leaves releases the
 * turn and is written nothing more.
 */
final class SseTurnStream {
  private final Vertx vertx;
  private final HttpServerResponse response;
  private final TurnWire wire;
  private final long keepAliveMillis;
  private long keepAliveTimer = -1;
  private boolean ended;

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
      handle.release();
    });
    write(wire.opening());
    if (keepAliveMillis > 0) {
      keepAliveTimer = vertx.setPeriodic(keepAliveMillis, id -> writeRaw(wire.keepAlive()));
    }
  }

  void answer(Answer answer) {
    if (ended) {
      return;
    }
    stopKeepAlive();
    write(wire.answer(answer));
    end();
  }

  void fail(ProviderFailure failure) {
    if (ended) {
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

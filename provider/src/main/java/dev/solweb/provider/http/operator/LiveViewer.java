package dev.solweb.provider.http.operator;

import dev.solweb.provider.seat.ScreenFrame;
import io.vertx.core.Context;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.ServerWebSocket;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * One viewer of a seat's live view on its WebSocket: each frame is a binary message (a JPEG),
 * preceded by a text message {@code {"type":"viewport","width":W,"height":H}} whenever the page's
 * size changes (and before the first). Bounded: it holds at most one frame not yet written; a
 * newer frame replaces it (the older is dropped), and nothing is written while the socket's write
 * queue is full, so a slow viewer sees fewer frames and the daemon never buffers without end.
 */
final class LiveViewer implements Consumer<ScreenFrame> {
  private final ServerWebSocket socket;
  private final Context context;
  private final AtomicReference<ScreenFrame> next = new AtomicReference<>();
  private final AtomicBoolean flushQueued = new AtomicBoolean();
  private int width = -1;
  private int height = -1;

  LiveViewer(ServerWebSocket socket, Context context) {
    this.socket = socket;
    this.context = context;
  }

  /** Any thread (the seat's): keeps the newest frame and asks the socket's context to write it. */
  @Override
  public void accept(ScreenFrame frame) {
    next.set(frame);
    if (flushQueued.compareAndSet(false, true)) {
      context.runOnContext(v -> flush());
    }
  }

  /** On the socket's context. */
  private void flush() {
    flushQueued.set(false);
    if (socket.isClosed()) {
      return;
    }
    if (socket.writeQueueFull()) {
      socket.drainHandler(v -> flush());
      return;
    }
    ScreenFrame frame = next.getAndSet(null);
    if (frame == null) {
      return;
    }
    if (frame.width() != width || frame.height() != height) {
      width = frame.width();
      height = frame.height();
      socket.writeTextMessage("{\"type\":\"viewport\",\"width\":" + width + ",\"height\":" + height
          + ",\"sequence\":" + frame.sequence() + "}");
    }
    socket.writeBinaryMessage(Buffer.buffer(frame.jpeg()));
  }
}

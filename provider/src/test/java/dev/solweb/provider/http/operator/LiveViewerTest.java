package dev.solweb.provider.http.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.solweb.provider.seat.ScreenFrame;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.WebSocket;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A live viewer that does not read: the frames handed to it far outgrow what the socket holds,
 * it drops the older ones instead of queueing them, and once the viewer reads again it gets the
 * newest frame. (Loopback only.)
 */
class LiveViewerTest {
  private static final int FRAMES = 4000;
  private static final int SIZE = 32 * 1024; // 128 MB offered in all

  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() {
    vertx.close().toCompletionStage().toCompletableFuture().join();
  }

  private static ScreenFrame frame(long sequence) {
    byte[] jpeg = new byte[SIZE];
    ByteBuffer.wrap(jpeg).putLong(sequence);
    return new ScreenFrame(jpeg, 1280, 900, sequence);
  }

  /**
   * A viewer's socket on a server of its own. On fresh-clone runs, with another fork's daemon tests
   * (PlacesTest) running beside it, the handshake was closed within 0.1 s now and then, a cause not
   * yet found (see the closing note of issue 37's stop): a closed handshake is tried again on a new
   * server, at most three times. Nothing the test asserts is retried.
   */
  private WebSocket connected(CompletableFuture<LiveViewer> viewer) throws Exception {
    for (int attempt = 1; ; attempt++) {
      HttpServer server = vertx.createHttpServer().webSocketHandler(socket ->
          viewer.complete(new LiveViewer(socket, vertx.getOrCreateContext())))
          .listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
      try {
        return vertx.createWebSocketClient().connect(server.actualPort(), "127.0.0.1", "/")
            .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
      } catch (java.util.concurrent.ExecutionException e) {
        server.close();
        if (attempt == 3 || !(e.getCause() instanceof io.netty.handler.codec.http.websocketx.WebSocketHandshakeException)) {
          throw e;
        }
      }
    }
  }

  @Test
  void aViewerThatDoesNotReadGetsFewerFramesNeverAQueueAndThenTheNewest() throws Exception {
    CompletableFuture<LiveViewer> viewer = new CompletableFuture<>();
    LinkedBlockingQueue<Long> received = new LinkedBlockingQueue<>();
    AtomicInteger texts = new AtomicInteger();
    AtomicInteger frames = new AtomicInteger();
    WebSocket client = connected(viewer);
    client.binaryMessageHandler(buffer -> {
      frames.incrementAndGet();
      received.add(buffer.getLong(0));
    });
    client.textMessageHandler(text -> texts.incrementAndGet());
    client.pause(); // a viewer whose browser does not keep up

    LiveViewer live = viewer.get(10, TimeUnit.SECONDS);
    for (long i = 1; i <= FRAMES; i++) {
      live.accept(frame(i));
    }
    client.resume();
    long newest = 0;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (newest != FRAMES && System.nanoTime() < deadline) {
      Long next = received.poll(1, TimeUnit.SECONDS);
      if (next != null) {
        assertThat(next).as("frames arrive in order").isGreaterThan(newest);
        newest = next;
      }
    }
    assertThat(newest).as("the newest frame reaches the viewer once it reads").isEqualTo(FRAMES);
    int got = frames.get();
    System.out.println("LiveViewerTest: " + got + " of " + FRAMES + " frames reached the slow viewer");
    assertThat(texts.get()).as("one viewport line: the size never changed").isEqualTo(1);
    // Everything that reached the viewer had been written before its queue was full, plus the newest.
    assertThat(got).as("older frames were dropped, not queued").isLessThan(FRAMES / 4);
  }
}

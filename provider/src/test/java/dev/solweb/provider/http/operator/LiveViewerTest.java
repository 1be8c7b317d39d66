package dev.solweb.provider.http.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.solweb.provider.seat.ScreenFrame;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
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
  private final WebSocketClient webSockets = vertx.createWebSocketClient();

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
   * A viewer's socket. The client is a field on purpose: Vert.x closes a client nothing refers to
   * once the collector finds it, and a connect in flight does not keep it alive. Created inline,
   * a collection during the handshake closed it ("Connection closed while handshake in process",
   * red on fresh-clone runs whenever another test's garbage made a collection likely there);
   * the collection asked for below keeps that case in every run.
   */
  private WebSocket connected(CompletableFuture<LiveViewer> viewer) throws Exception {
    HttpServer server = vertx.createHttpServer().webSocketHandler(socket ->
        viewer.complete(new LiveViewer(socket, vertx.getOrCreateContext())))
        .listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    CompletableFuture<WebSocket> socket = webSockets.connect(server.actualPort(), "127.0.0.1", "/")
        .toCompletionStage().toCompletableFuture();
    System.gc();
    return socket.get(10, TimeUnit.SECONDS);
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

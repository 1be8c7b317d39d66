package dev.solweb.provider.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.solweb.provider.daemon.Daemon;
import dev.solweb.provider.dispatch.DispatchSpacing;
import dev.solweb.provider.scenario.Scenario;
import dev.solweb.provider.scenario.ScenarioPlayer;
import dev.solweb.provider.seat.BrowserSeat;
import dev.solweb.provider.seat.ForwardingSeat;
import dev.solweb.provider.seat.scripted.ScriptedSeat;
import io.vertx.core.Vertx;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * POST /shutdown answers first, then stops the daemon exactly once, off the event loop: the
 * daemon keeps answering while its seats close.
 */
@ExtendWith(VertxExtension.class)
class ShutdownRouteTest {
  private final AtomicInteger stops = new AtomicInteger();
  private final CountDownLatch seatClosing = new CountDownLatch(1);
  private final CountDownLatch releaseSeat = new CountDownLatch(1);
  private Daemon daemon;
  /**
   * Held for the whole test: Vert.x closes a client nothing refers to when the collector finds
   * it, and a request in flight does not keep its client alive (LiveViewerTest's closed handshake).
   */
  private WebClient client;

  @BeforeEach
  void start(Vertx vertx, VertxTestContext context) {
    client = WebClient.create(vertx);
    ScenarioPlayer player = new ScenarioPlayer(Scenario.parse("{}"));
    ServerSettings settings = new ServerSettings(TestDaemon.TOKEN, Duration.ofSeconds(5), 1 << 20, "test", "gen", 1);
    Daemon.Config config = new Daemon.Config(null, index -> new SlowToClose(new ScriptedSeat(player, Clock.systemUTC())),
        1, Duration.ofSeconds(5), DispatchSpacing.OFF, settings, Clock.systemUTC(), stops::incrementAndGet);
    Daemon.listen(vertx, config, "127.0.0.1", 0).onComplete(context.succeeding(started -> {
      daemon = started;
      started.startSeats().whenComplete((ok, error) -> context.completeNow());
    }));
  }

  @AfterEach
  void stop() {
    releaseSeat.countDown();
    client.close();
    daemon.stop().join();
  }

  @Test
  void answersOkThenStopsOnce(Vertx vertx, VertxTestContext context) {
    releaseSeat.countDown();
    client.post(daemon.port(), "127.0.0.1", "/shutdown").bearerTokenAuthentication(TestDaemon.TOKEN).send()
        .onComplete(context.succeeding(response -> context.verify(() -> {
          assertThat(response.statusCode()).isEqualTo(200);
          assertThat(response.bodyAsJsonObject().getBoolean("ok")).isTrue();
          daemon.stop().whenComplete((ok, error) -> context.verify(() -> {
            assertThat(stops.get()).isEqualTo(1);
            context.completeNow();
          }));
        })));
  }

  @Test
  void healthzAnswersWhileTheShutdownIsClosingSeats(Vertx vertx, VertxTestContext context) {
    client.post(daemon.port(), "127.0.0.1", "/shutdown").bearerTokenAuthentication(TestDaemon.TOKEN).send()
        .onComplete(context.succeeding(shutdown -> vertx.executeBlocking(() -> seatClosing.await(10, TimeUnit.SECONDS))
            .onComplete(context.succeeding(closing -> client.get(daemon.port(), "127.0.0.1", "/healthz")
                .bearerTokenAuthentication(TestDaemon.TOKEN).send()
                .onComplete(context.succeeding(health -> context.verify(() -> {
                  assertThat(closing).as("the seat's close began").isTrue();
                  assertThat(health.statusCode()).isEqualTo(200);
                  assertThat(stops.get()).as("still closing the seat").isZero();
                  releaseSeat.countDown();
                  context.completeNow();
                })))))));
  }

  @Test
  void withoutTheTokenNothingShutsDown(Vertx vertx, VertxTestContext context) {
    releaseSeat.countDown();
    client.post(daemon.port(), "127.0.0.1", "/shutdown").send()
        .onComplete(context.succeeding(response -> context.verify(() -> {
          assertThat(response.statusCode()).isEqualTo(401);
          assertThat(stops.get()).isZero();
          context.completeNow();
        })));
  }

  /** A seat whose close blocks until the test lets it go, as a Chromium that is slow to exit. */
  private final class SlowToClose extends ForwardingSeat {
    SlowToClose(BrowserSeat inner) {
      super(inner);
    }

    @Override
    public void close() {
      seatClosing.countDown();
      try {
        releaseSeat.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      super.close();
    }
  }
}

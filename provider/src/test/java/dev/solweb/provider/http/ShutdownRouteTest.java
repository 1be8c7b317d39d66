package dev.solweb.provider.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.solweb.provider.dispatch.DispatchSpacing;
import dev.solweb.provider.dispatch.Dispatcher;
import dev.solweb.provider.seat.scripted.Scenario;
import dev.solweb.provider.seat.scripted.ScenarioPlayer;
import dev.solweb.provider.seat.scripted.ScriptedSeat;
import dev.solweb.provider.translate.Registry;
import io.vertx.core.Vertx;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.Checkpoint;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** POST /shutdown answers first, then runs the daemon's shutdown exactly once. */
@ExtendWith(VertxExtension.class)
class ShutdownRouteTest {
  private Dispatcher dispatcher;
  private final AtomicInteger shutdowns = new AtomicInteger();
  private int port;

  @BeforeEach
  void start(Vertx vertx, VertxTestContext context) {
    ScenarioPlayer player = new ScenarioPlayer(Scenario.parse("{}"));
    dispatcher = new Dispatcher(index -> new ScriptedSeat(player, Clock.systemUTC()), Registry.inMemory(),
        new Dispatcher.Settings(1, Duration.ofSeconds(5), DispatchSpacing.OFF), Clock.systemUTC());
    ServerSettings settings = new ServerSettings(TestDaemon.TOKEN, Duration.ofSeconds(5), 1 << 20, "test", "gen", 1);
    new SolwebServer(vertx, dispatcher, Registry.inMemory(), settings, shutdowns::incrementAndGet)
        .listen("127.0.0.1", 0)
        .onComplete(context.succeeding(server -> {
          port = server.actualPort();
          context.completeNow();
        }));
  }

  @AfterEach
  void stop() {
    dispatcher.close();
  }

  @Test
  void answersOkThenShutsDownOnce(Vertx vertx, VertxTestContext context) {
    Checkpoint answered = context.checkpoint();
    WebClient client = WebClient.create(vertx);
    client.post(port, "127.0.0.1", "/shutdown").bearerTokenAuthentication(TestDaemon.TOKEN).send()
        .onComplete(context.succeeding(response -> context.verify(() -> {
          assertThat(response.statusCode()).isEqualTo(200);
          assertThat(response.bodyAsJsonObject().getBoolean("ok")).isTrue();
          vertx.setTimer(200, id -> context.verify(() -> {
            assertThat(shutdowns.get()).isEqualTo(1);
            answered.flag();
          }));
        })));
  }

  @Test
  void withoutTheTokenNothingShutsDown(Vertx vertx, VertxTestContext context) {
    WebClient.create(vertx).post(port, "127.0.0.1", "/shutdown").send()
        .onComplete(context.succeeding(response -> context.verify(() -> {
          assertThat(response.statusCode()).isEqualTo(401);
          assertThat(shutdowns.get()).isZero();
          context.completeNow();
        })));
  }
}

package dev.solweb.provider.pi;

import dev.solweb.provider.daemon.Daemon;
import dev.solweb.provider.dispatch.DispatchSpacing;
import dev.solweb.provider.dispatch.Dispatcher;
import dev.solweb.provider.http.ServerSettings;
import dev.solweb.provider.scenario.Scenario;
import dev.solweb.provider.scenario.ScenarioPlayer;
import dev.solweb.provider.seat.scripted.ScriptedSeat;
import io.vertx.core.Vertx;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The real solwebd HTTP surface and dispatcher in this JVM, over ScriptedSeats playing one
 * scenario, on an ephemeral loopback port. Its token is written to {@code <home>/solwebd.token}
 * (0600), where Pi's {@code !solwebctl token} finds it through bin/solwebctl.
 */
public final class SolDaemon implements AutoCloseable {

  public static final String TOKEN = "piTestToken_0123456789abcdefghijklmnopqrstuv";

  final Vertx vertx = Vertx.vertx();
  public final ScenarioPlayer player;
  final Daemon daemon;
  final Dispatcher dispatcher;
  public final int port;

  public SolDaemon(Path home, String scenarioJson, int seats) throws Exception {
    this(home, scenarioJson, seats, Duration.ofSeconds(5));
  }

  /** As above, with keep-alives every {@code keepAlive} while a turn runs. */
  public SolDaemon(Path home, String scenarioJson, int seats, Duration keepAlive) throws Exception {
    Files.createDirectories(home);
    Path token = home.resolve("solwebd.token");
    Files.writeString(token, TOKEN + "\n");
    Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-------"));
    player = new ScenarioPlayer(Scenario.parse(scenarioJson));
    ServerSettings settings = new ServerSettings(TOKEN, keepAlive, 8L << 20, "test", "gen-pi", 1);
    daemon = Daemon.listen(vertx, new Daemon.Config(null, index -> new ScriptedSeat(player, Clock.systemUTC()), seats,
            Duration.ofSeconds(60), DispatchSpacing.OFF, settings, Clock.systemUTC(), () -> { }), "127.0.0.1", 0)
        .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    daemon.startSeats().get(10, TimeUnit.SECONDS);
    dispatcher = daemon.dispatcher();
    port = daemon.port();
  }

  public String health() throws Exception {
    HttpResponse<String> response = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/healthz"))
            .header("Authorization", "Bearer " + TOKEN).build(),
        HttpResponse.BodyHandlers.ofString());
    return response.body();
  }

  @Override
  public void close() {
    daemon.stop().join();
    vertx.close().toCompletionStage().toCompletableFuture().join();
  }
}

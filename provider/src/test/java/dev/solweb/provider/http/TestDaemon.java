package dev.solweb.provider.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.solweb.provider.daemon.Daemon;
import dev.solweb.provider.daemon.HistorySettings;
import dev.solweb.provider.dispatch.DispatchSpacing;
import dev.solweb.provider.dispatch.Dispatcher;
import dev.solweb.provider.scenario.Scenario;
import dev.solweb.provider.scenario.ScenarioPlayer;
import dev.solweb.provider.seat.BrowserSeat;
import dev.solweb.provider.seat.SeatFactory;
import dev.solweb.provider.seat.scripted.ScriptedSeat;
import dev.solweb.provider.translate.Conversations;
import io.vertx.core.Vertx;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

/**
 * A real solwebd, assembled by the daemon's own composition root ({@link Daemon}), on a loopback
 * port, over ScriptedSeats playing one scenario, plus an OpenAI-shaped client. Everything a test
 * asserts about "the browser" comes from the player, which outlives a daemon the way a real
 * account's conversations do: a test restarts the daemon by opening another on the same player
 * and home.
 */
final class TestDaemon implements AutoCloseable {
  static final String TOKEN = "test-token-0123456789abcdefghijklmnopqrstuvw";
  static final ObjectMapper JSON = new ObjectMapper();

  final Vertx vertx = Vertx.vertx();
  final ScenarioPlayer player;
  final Daemon daemon;
  final Dispatcher dispatcher;
  final Conversations conversations;
  final AtomicInteger seatsCreated = new AtomicInteger();
  final int port;
  final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  /**
   * Options for one daemon.
   *
   * @param home the daemon home (its registry.json); null keeps the registry in memory
   * @param seatWrapper wraps each seat (a test that needs a seat to misbehave)
   * @param maxCalls calls per reply (SOLWEBD_MAX_CALLS)
   */
  record Options(int seats, Duration keepAlive, Duration turnTimeout, long maxBody, Path home,
      UnaryOperator<BrowserSeat> seatWrapper, HistorySettings history, int maxCalls) {
    Options(int seats, Duration keepAlive, Duration turnTimeout, long maxBody, Path home,
        UnaryOperator<BrowserSeat> seatWrapper) {
      this(seats, keepAlive, turnTimeout, maxBody, home, seatWrapper, HistorySettings.DEFAULT,
          dev.solweb.provider.protocol.ReplyRules.DEFAULT_MAX_CALLS);
    }

    Options maxCalls(int max) {
      return new Options(seats, keepAlive, turnTimeout, maxBody, home, seatWrapper, history, max);
    }

    static Options defaults() {
      return new Options(1, Duration.ofSeconds(5), Duration.ofSeconds(30), 8L << 20, null, UnaryOperator.identity());
    }

    /** Where new conversations open and retention (SOLWEBD_PROJECT, SOLWEBD_TEMPORARY, SOLWEBD_RETENTION_DAYS). */
    Options history(HistorySettings settings) {
      return new Options(seats, keepAlive, turnTimeout, maxBody, home, seatWrapper, settings, maxCalls);
    }

    Options seats(int n) {
      return new Options(n, keepAlive, turnTimeout, maxBody, home, seatWrapper, history, maxCalls);
    }

    Options keepAlive(Duration d) {
      return new Options(seats, d, turnTimeout, maxBody, home, seatWrapper, history, maxCalls);
    }

    Options turnTimeout(Duration d) {
      return new Options(seats, keepAlive, d, maxBody, home, seatWrapper, history, maxCalls);
    }

    Options maxBody(long bytes) {
      return new Options(seats, keepAlive, turnTimeout, bytes, home, seatWrapper, history, maxCalls);
    }

    Options home(Path dir) {
      return new Options(seats, keepAlive, turnTimeout, maxBody, dir, seatWrapper, history, maxCalls);
    }

    Options seatWrapper(UnaryOperator<BrowserSeat> wrapper) {
      return new Options(seats, keepAlive, turnTimeout, maxBody, home, wrapper, history, maxCalls);
    }
  }

  TestDaemon(String scenarioJson) throws Exception {
    this(scenarioJson, Options.defaults());
  }

  TestDaemon(String scenarioJson, Options options) throws Exception {
    this(new ScenarioPlayer(Scenario.parse(scenarioJson)), options);
  }

  TestDaemon(ScenarioPlayer player, Options options) throws Exception {
    this(player, options, Clock.systemUTC());
  }

  /** A daemon whose dispatcher, registry and seats all read {@code clock} (a test's own). */
  TestDaemon(ScenarioPlayer player, Options options, Clock clock) throws Exception {
    this.player = player;
    SeatFactory factory = index -> {
      seatsCreated.incrementAndGet();
      return options.seatWrapper().apply(new ScriptedSeat(player, clock));
    };
    ServerSettings settings = new ServerSettings(TOKEN, options.keepAlive(), options.maxBody(), "test", "gen-1", 1);
    daemon = Daemon.listen(vertx, new Daemon.Config(options.home(), factory, options.seats(), options.turnTimeout(),
            DispatchSpacing.OFF, settings, clock, () -> { }, options.history(), options.maxCalls()), "127.0.0.1", 0)
        .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    daemon.startSeats().get(10, TimeUnit.SECONDS);
    dispatcher = daemon.dispatcher();
    conversations = daemon.conversations();
    port = daemon.port();
  }

  URI uri(String path) {
    return URI.create("http://127.0.0.1:" + port + path);
  }

  HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(60)).header("Authorization", "Bearer " + TOKEN);
  }

  HttpResponse<String> post(String body, Map<String, String> headers) throws Exception {
    return post("/v1/chat/completions", body, headers);
  }

  HttpResponse<String> post(String path, String body, Map<String, String> headers) throws Exception {
    HttpRequest.Builder builder = request(path).POST(HttpRequest.BodyPublishers.ofString(body));
    headers.forEach(builder::header);
    return http.send(builder.build(), HttpResponse.BodyHandlers.ofString());
  }

  HttpResponse<String> post(String body) throws Exception {
    return post(body, Map.of());
  }

  HttpResponse<String> get(String path) throws Exception {
    return http.send(request(path).GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  /** Posts a streaming request and reads every SSE data payload with its arrival time. */
  Stream stream(String body, Map<String, String> headers) throws Exception {
    return stream("/v1/chat/completions", body, headers);
  }

  /** As {@link #stream(String, Map)} on {@code path}; {@code event:} lines arrive as NON-DATA LINE events. */
  Stream stream(String path, String body, Map<String, String> headers) throws Exception {
    HttpRequest.Builder builder = request(path).POST(HttpRequest.BodyPublishers.ofString(body));
    headers.forEach(builder::header);
    long start = System.nanoTime();
    HttpResponse<InputStream> response = http.send(builder.build(), HttpResponse.BodyHandlers.ofInputStream());
    List<Event> events = new ArrayList<>();
    try (BufferedReader reader = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = reader.readLine()) != null) {
        if (line.startsWith("data: ")) {
          events.add(new Event(line.substring(6), (System.nanoTime() - start) / 1_000_000));
        } else if (!line.isEmpty()) {
          events.add(new Event("NON-DATA LINE: " + line, (System.nanoTime() - start) / 1_000_000));
        }
      }
    }
    return new Stream(response, events);
  }

  Stream stream(String body) throws Exception {
    return stream(body, Map.of());
  }

  record Event(String data, long atMillis) {
    boolean done() {
      return data.equals("[DONE]");
    }

    JsonNode json() {
      try {
        return JSON.readTree(data);
      } catch (Exception e) {
        throw new AssertionError("SSE data is not JSON: " + data, e);
      }
    }
  }

  record Stream(HttpResponse<InputStream> response, List<Event> events) {
    List<String> data() {
      return events.stream().map(Event::data).toList();
    }
  }

  static JsonNode json(String body) throws Exception {
    return JSON.readTree(body);
  }

  @Override
  public void close() {
    daemon.stop().join();
    vertx.close().toCompletionStage().toCompletableFuture().join();
  }
}

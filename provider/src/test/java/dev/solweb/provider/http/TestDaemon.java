package dev.solweb.provider.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.solweb.provider.dispatch.DispatchSpacing;
import dev.solweb.provider.dispatch.Dispatcher;
import dev.solweb.provider.seat.SeatFactory;
import dev.solweb.provider.seat.scripted.Scenario;
import dev.solweb.provider.seat.scripted.ScenarioPlayer;
import dev.solweb.provider.seat.scripted.ScriptedSeat;
import dev.solweb.provider.translate.Registry;
import io.vertx.core.Vertx;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real solwebd HTTP surface on a loopback port, over ScriptedSeats playing one scenario, plus
 * an OpenAI-shaped client. Everything a test asserts about "the browser" comes from the player.
 */
final class TestDaemon implements AutoCloseable {
  static final String TOKEN = "test-token-0123456789abcdefghijklmnopqrstuvw";
  static final ObjectMapper JSON = new ObjectMapper();

  final Vertx vertx = Vertx.vertx();
  final ScenarioPlayer player;
  final Dispatcher dispatcher;
  final Registry registry = Registry.inMemory();
  final AtomicInteger seatsCreated = new AtomicInteger();
  final int port;
  final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  /** Options for one daemon. */
  record Options(int seats, Duration keepAlive, Duration turnTimeout, long maxBody) {
    static Options defaults() {
      return new Options(1, Duration.ofSeconds(5), Duration.ofSeconds(30), 8L << 20);
    }

    Options seats(int n) {
      return new Options(n, keepAlive, turnTimeout, maxBody);
    }

    Options keepAlive(Duration d) {
      return new Options(seats, d, turnTimeout, maxBody);
    }

    Options turnTimeout(Duration d) {
      return new Options(seats, keepAlive, d, maxBody);
    }

    Options maxBody(long bytes) {
      return new Options(seats, keepAlive, turnTimeout, bytes);
    }
  }

  TestDaemon(String scenarioJson) throws Exception {
    this(scenarioJson, Options.defaults());
  }

  TestDaemon(String scenarioJson, Options options) throws Exception {
    player = new ScenarioPlayer(Scenario.parse(scenarioJson));
    SeatFactory factory = index -> {
      seatsCreated.incrementAndGet();
      return new ScriptedSeat(player, Clock.systemUTC());
    };
    dispatcher = new Dispatcher(factory, registry,
        new Dispatcher.Settings(options.seats(), options.turnTimeout(), DispatchSpacing.OFF), Clock.systemUTC());
    dispatcher.start().get(10, TimeUnit.SECONDS);
    ServerSettings settings = new ServerSettings(TOKEN, options.keepAlive(), options.maxBody(), "test", "gen-1", 1);
    port = new SolwebServer(vertx, dispatcher, registry, settings, () -> { })
        .listen("127.0.0.1", 0).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS).actualPort();
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
    dispatcher.close();
    vertx.close().toCompletionStage().toCompletableFuture().join();
  }
}

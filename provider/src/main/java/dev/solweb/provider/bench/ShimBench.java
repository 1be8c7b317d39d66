package dev.solweb.provider.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.daemon.StateFile;
import dev.solweb.provider.platform.Json;
import dev.solweb.provider.platform.TokenFile;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Shim overhead with a ScriptedSeat that answers instantly, against a real solwebd process on
 * loopback: per-turn latency for 145 KB first turns (230 tool schemas) and 2 KB delta turns (chat
 * completions and Responses), SSE time to first byte, requests per second through one seat, and the
 * daemon's RSS after the run.
 * Bounded in count; talks to 127.0.0.1 only.
 */
public final class ShimBench {
  private static final ObjectMapper JSON = Json.MAPPER;
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final String CHAT = "/v1/chat/completions";
  private static final String RESPONSES = "/v1/responses";

  private final int port;
  private final String token;

  private ShimBench(int port, String token) {
    this.port = port;
    this.token = token;
  }

  /** Starts a daemon on an instant scripted seat, measures, prints, and stops it ({@link BenchCommand} parses). */
  static void measure(int deltaSessions, int deltaTurns) throws Exception {
    Path home = Files.createTempDirectory("solweb-bench");
    ObjectNode scenario = JSON.createObjectNode();
    ArrayNode replies = scenario.putArray("default");
    for (int i = 0; i < deltaTurns + 1; i++) {
      replies.addObject().put("prose", "ok " + i);
    }
    Path scenarioFile = home.resolve("instant.json");
    Files.writeString(scenarioFile, scenario.toString());
    String java = ProcessHandle.current().info().command().orElse("java");
    Process daemon = new ProcessBuilder(java, "-XX:+UseParallelGC", "-Xmx256m",
        "-cp", System.getProperty("java.class.path"), "dev.solweb.provider.daemon.Solwebd",
        "--seat", "scripted:" + scenarioFile, "--port", "0", "--home", home.toString())
        .redirectErrorStream(true).redirectOutput(home.resolve("solwebd.log").toFile()).start();
    try {
      StateFile state = StateFile.await(home, daemon, home.resolve("solwebd.log"), Duration.ofSeconds(60));
      ShimBench bench = new ShimBench(state.port(), TokenFile.read(home.resolve(TokenFile.NAME)));
      bench.run(deltaSessions, deltaTurns, daemon.pid());
    } finally {
      daemon.destroy();
      daemon.waitFor(10, TimeUnit.SECONDS);
    }
  }

  private void run(int deltaSessions, int deltaTurns, long daemonPid) throws Exception {
    String tools = tools(230);
    // Warm-up: the JIT and the connection pool, not measured.
    for (int i = 0; i < 200; i++) {
      post(firstTurn("warm " + i, "[]", 200), false);
    }

    // The context budget refuses more than 104000 estimated tokens of system rules and tool
    // schemas, so the largest first turn it accepts is measured, and the 145 KB one separately:
    // it is refused (400 context_overflow) before any seat is involved.
    List<Double> first = new ArrayList<>();
    int systemBytes = 100_000 - tools.length();
    for (int i = 0; i < 60; i++) {
      first.add(post(firstTurn("first turn " + i, tools, systemBytes), false));
    }
    System.out.printf("largest accepted first turn: body %d KB, %d tool schemas%n",
        firstTurn("x", tools, systemBytes).length() / 1024, 230);
    report("largest accepted first turn", first);
    List<Double> refused = new ArrayList<>();
    String big = firstTurn("refused", tools, 145_000 - tools.length());
    for (int i = 0; i < 60; i++) {
      refused.add(postExpecting(big, 400));
    }
    System.out.printf("145 KB first turn: body %d KB (over the 104000-token ceiling)%n", big.length() / 1024);
    report("145 KB first turn, refused by the budget", refused);

    List<Double> deltas = new ArrayList<>();
    String delta = "d".repeat(2048);
    for (int s = 0; s < deltaSessions; s++) {
      ObjectNode request = JSON.createObjectNode().put("model", "sol-web-high");
      ArrayNode messages = request.putArray("messages");
      messages.addObject().put("role", "user").put("content", "delta session " + s);
      post(request.toString(), false);
      for (int t = 0; t < deltaTurns; t++) {
        messages.addObject().put("role", "assistant").put("content", "ok " + t);
        messages.addObject().put("role", "user").put("content", delta);
        deltas.add(post(request.toString(), false));
      }
    }
    report("2 KB delta turn", deltas);

    // The same turns through POST /v1/responses: the Responses parser and event writer in front of
    // the same translate, dispatcher and seat.
    List<Double> responsesDeltas = new ArrayList<>();
    for (int s = 0; s < deltaSessions; s++) {
      ObjectNode request = JSON.createObjectNode().put("model", "sol-web-high").put("store", false);
      ArrayNode input = request.putArray("input");
      input.addObject().put("role", "user").put("content", "responses delta session " + s);
      send(RESPONSES, request.toString(), false, 200);
      for (int t = 0; t < deltaTurns; t++) {
        input.addObject().put("type", "message").put("role", "assistant").putArray("content").addObject()
            .put("type", "output_text").put("text", "ok " + t);
        input.addObject().put("role", "user").put("content", delta);
        responsesDeltas.add(send(RESPONSES, request.toString(), false, 200));
      }
    }
    report("2 KB delta turn, POST /v1/responses", responsesDeltas);

    List<Double> firstByte = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      firstByte.add(post(firstTurn("stream " + i, "[]", 200).replace("{\"model\"", "{\"stream\":true,\"model\""), true));
    }
    report("SSE time to first byte", firstByte);

    int total = 1000;
    ExecutorService clients = Executors.newFixedThreadPool(4);
    long start = System.nanoTime();
    List<Future<Double>> calls = new ArrayList<>();
    for (int i = 0; i < total; i++) {
      String body = firstTurn("rps " + i, "[]", 100);
      calls.add(clients.submit(() -> post(body, false)));
    }
    for (Future<Double> call : calls) {
      call.get();
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    clients.shutdown();
    System.out.printf("requests per second through one seat (4 clients, %d requests): %.0f%n", total, total / seconds);

    int turns = 200 + first.size() + 2 * deltaSessions * (deltaTurns + 1) + firstByte.size() + total;
    System.out.printf("daemon RSS after %d turns: %d MB%n", turns, rssKb(daemonPid) / 1024);
  }

  private double post(String body, boolean firstByteOnly) throws Exception {
    return send(CHAT, body, firstByteOnly, 200);
  }

  private double postExpecting(String body, int status) throws Exception {
    return send(CHAT, body, false, status);
  }

  /** Milliseconds from sending to the whole response (or, streaming, to its first byte). */
  private double send(String path, String body, boolean firstByteOnly, int expectedStatus) throws Exception {
    HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .header("Authorization", "Bearer " + token).POST(HttpRequest.BodyPublishers.ofString(body)).build();
    long start = System.nanoTime();
    HttpResponse<InputStream> response = HTTP.send(request, HttpResponse.BodyHandlers.ofInputStream());
    try (InputStream in = response.body()) {
      if (firstByteOnly) {
        in.read();
        double millis = (System.nanoTime() - start) / 1e6;
        in.readAllBytes();
        return millis;
      }
      in.readAllBytes();
    }
    if (response.statusCode() != expectedStatus) {
      throw new IllegalStateException("status " + response.statusCode() + ", expected " + expectedStatus);
    }
    return (System.nanoTime() - start) / 1e6;
  }

  private static String firstTurn(String user, String tools, int systemBytes) {
    return "{\"model\":\"sol-web-high\",\"messages\":[{\"role\":\"system\",\"content\":\"" + "s".repeat(Math.max(0, systemBytes))
        + "\"},{\"role\":\"user\",\"content\":\"" + user + "\"}],\"tools\":" + tools + "}";
  }

  private static String tools(int count) {
    ArrayNode tools = JSON.createArrayNode();
    for (int i = 0; i < count; i++) {
      ObjectNode function = tools.addObject().put("type", "function").putObject("function");
      function.put("name", "tool_" + i).put("description", "Does thing number " + i + " to the workspace.");
      ObjectNode properties = function.putObject("parameters").put("type", "object").putObject("properties");
      for (String field : List.of("path", "content", "mode", "pattern")) {
        properties.putObject(field).put("type", "string").put("description", "the " + field + " to use for this call");
      }
    }
    return tools.toString();
  }

  private static void report(String what, List<Double> millis) {
    List<Double> sorted = new ArrayList<>(millis);
    sorted.sort(Double::compare);
    System.out.printf("%s: n=%d p50 %.2f ms, p99 %.2f ms%n", what, sorted.size(),
        sorted.get(sorted.size() / 2), sorted.get((int) Math.ceil(sorted.size() * 0.99) - 1));
  }

  private static long rssKb(long pid) throws Exception {
    for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.replaceAll("\\D", ""));
      }
    }
    return -1;
  }
}

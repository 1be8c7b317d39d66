package dev.solweb.provider.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.daemon.StateFile;
import dev.solweb.provider.platform.Json;
import dev.solweb.provider.platform.TokenFile;
import java.io.File;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code bin/bench messages}: the 2 KB delta turn three ways in the same window, against one real
 * solwebd process on an instant ScriptedSeat: {@code POST /v1/messages} straight at solwebd (what
 * Claude Code does now), the same Anthropic request through the pinned claude-code-router 2.0.0
 * (what it did before: ccr turns it into chat completions), and {@code POST /v1/chat/completions}.
 * The three paths take turns request by request, so load on the machine falls on all of them
 * alike. Non-stream; p50 and p99 of the whole response. Loopback only.
 */
public final class MessagesBench {
  private static final ObjectMapper JSON = Json.MAPPER;
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final String CCR_KEY = "bench-ccr-key";

  /** One way of sending the turn: where, with which key header, and the body of a session so far. */
  private record Path3(String name, String url, String keyHeader, String key, boolean anthropic) {}

  /** Measures {@code sessions} conversations of {@code turns} delta turns on each path; {@code bin/bench messages}. */
  static boolean measure(int sessions, int turns) throws Exception {
    String root = System.getProperty("solweb.root");
    Path ccrBin = Path.of(root == null ? "." : root, "tools/ccr/node_modules/.bin/ccr");
    if (!Files.isExecutable(ccrBin)) {
      System.err.println("bench messages: claude-code-router is not installed at " + ccrBin + "; run: npm ci --prefix tools/ccr");
      return false;
    }
    Path home = Files.createTempDirectory("solweb-bench-messages");
    ObjectNode scenario = JSON.createObjectNode();
    ArrayNode replies = scenario.putArray("default");
    for (int i = 0; i < turns + 1; i++) {
      replies.addObject().put("prose", "ok " + i);
    }
    Path scenarioFile = home.resolve("instant.json");
    Files.writeString(scenarioFile, scenario.toString());
    String java = ProcessHandle.current().info().command().orElse("java");
    Process daemon = new ProcessBuilder(java, "-XX:+UseParallelGC", "-Xmx256m", "-cp", System.getProperty("java.class.path"),
        "dev.solweb.provider.daemon.Solwebd", "--seat", "scripted:" + scenarioFile, "--port", "0", "--home", home.toString())
        .redirectErrorStream(true).redirectOutput(home.resolve("solwebd.log").toFile()).start();
    Process ccr = null;
    try {
      StateFile state = StateFile.await(home, daemon, home.resolve("solwebd.log"), Duration.ofSeconds(60));
      String token = TokenFile.read(home.resolve(TokenFile.NAME));
      int ccrPort = freePort();
      ccr = startCcr(ccrBin, home, state.port(), token, ccrPort);
      List<Path3> paths = List.of(
          new Path3("POST /v1/messages straight at solwebd", "http://127.0.0.1:" + state.port() + "/v1/messages",
              "x-api-key", token, true),
          new Path3("POST /v1/messages through ccr 2.0.0", "http://127.0.0.1:" + ccrPort + "/v1/messages",
              "x-api-key", CCR_KEY, true),
          new Path3("POST /v1/chat/completions", "http://127.0.0.1:" + state.port() + "/v1/chat/completions",
              "Authorization", "Bearer " + token, false));
      run(paths, sessions, turns);
      return true;
    } finally {
      if (ccr != null) {
        ccr.descendants().forEach(ProcessHandle::destroy);
        ccr.destroy();
        ccr.waitFor(10, TimeUnit.SECONDS);
      }
      daemon.destroy();
      daemon.waitFor(10, TimeUnit.SECONDS);
    }
  }

  private static void run(List<Path3> paths, int sessions, int turns) throws Exception {
    String delta = "d".repeat(2048);
    List<List<Double>> millis = new ArrayList<>();
    paths.forEach(p -> millis.add(new ArrayList<>()));
    for (int s = -1; s < sessions; s++) {
      // Session -1 warms up the JIT, ccr and the connections; not measured.
      List<ObjectNode> bodies = new ArrayList<>();
      for (Path3 path : paths) {
        ObjectNode body = JSON.createObjectNode().put("model", "sol-web-high").put("max_tokens", 1024);
        body.putArray("messages").addObject().put("role", "user").put("content", path.name() + " session " + s);
        bodies.add(body);
        send(path, body);
      }
      for (int t = 0; t < turns; t++) {
        for (int p = 0; p < paths.size(); p++) {
          ArrayNode messages = (ArrayNode) bodies.get(p).get("messages");
          messages.addObject().put("role", "assistant").put("content", "ok " + t);
          messages.addObject().put("role", "user").put("content", delta);
          double took = send(paths.get(p), bodies.get(p));
          if (s >= 0) {
            millis.get(p).add(took);
          }
        }
      }
    }
    for (int p = 0; p < paths.size(); p++) {
      report("2 KB delta turn, " + paths.get(p).name(), millis.get(p));
    }
  }

  /** Milliseconds from sending to the whole non-stream response, which must be a 200. */
  private static double send(Path3 path, ObjectNode body) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(path.url())).header(path.keyHeader(), path.key())
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body.toString()));
    if (path.anthropic()) {
      request.header("anthropic-version", "2023-06-01");
    }
    long start = System.nanoTime();
    HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    double took = (System.nanoTime() - start) / 1e6;
    if (response.statusCode() != 200) {
      throw new IllegalStateException(path.name() + ": status " + response.statusCode() + ": " + response.body());
    }
    return took;
  }

  /** ccr 2.0.0 with one provider, solweb, at this daemon; its config under a temp HOME, as sw install-ccr writes it. */
  private static Process startCcr(Path ccrBin, Path home, int solwebdPort, String token, int port) throws Exception {
    Path config = Files.createDirectories(home.resolve(".claude-code-router")).resolve("config.json");
    ObjectNode root = JSON.createObjectNode().put("LOG", false).put("HOST", "127.0.0.1").put("PORT", port)
        .put("APIKEY", CCR_KEY).put("API_TIMEOUT_MS", 600000).put("NON_INTERACTIVE_MODE", true);
    ObjectNode provider = root.putArray("Providers").addObject().put("name", "solweb")
        .put("api_base_url", "http://127.0.0.1:" + solwebdPort + "/v1/chat/completions").put("api_key", token);
    provider.putArray("models").add("sol-web-high");
    root.putObject("Router").put("default", "solweb,sol-web-high");
    Files.writeString(config, root.toString());
    ProcessBuilder builder = new ProcessBuilder(ccrBin.toString(), "start")
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectErrorStream(true).redirectOutput(home.resolve("ccr.log").toFile());
    builder.environment().clear();
    builder.environment().putAll(Map.of("HOME", home.toString(), "PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin")));
    Process ccr = builder.start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      try {
        HttpResponse<String> health = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health"))
            .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.ofString());
        if (health.statusCode() == 200) {
          return ccr;
        }
      } catch (java.io.IOException notYet) {
        // ccr is still starting.
      }
      if (!ccr.isAlive()) {
        throw new IllegalStateException("ccr exited with code " + ccr.exitValue() + "; see " + home.resolve("ccr.log"));
      }
      Thread.sleep(200);
    }
    throw new IllegalStateException("ccr did not answer on port " + port + " within 30 s; see " + home.resolve("ccr.log"));
  }

  private static int freePort() throws Exception {
    try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  private static void report(String what, List<Double> millis) {
    List<Double> sorted = new ArrayList<>(millis);
    sorted.sort(Double::compare);
    System.out.printf("%s: n=%d p50 %.2f ms, p99 %.2f ms%n", what, sorted.size(),
        sorted.get(sorted.size() / 2), sorted.get((int) Math.ceil(sorted.size() * 0.99) - 1));
  }
}

package dev.solweb.provider.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.daemon.StateFile;
import dev.solweb.provider.platform.Cli;
import dev.solweb.provider.platform.Json;
import dev.solweb.provider.platform.TokenFile;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * The main job on the embedded fake: starts a solwebd on the scripted {@code demo} seat in a
 * temporary home, then acts as an OpenAI client with one {@code write} tool until the model gives
 * its final answer, executing the tool call in a temporary workspace. No ChatGPT account needed.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
    description = "Runs a scripted tool loop through solwebd's HTTP API (no ChatGPT account needed).")
public final class HttpOnlyDemo implements Callable<Integer> {
  private static final ObjectMapper JSON = Json.MAPPER;

  @Spec CommandSpec spec;

  @Option(names = "--keep", description = "Keep the temporary home and workspace.")
  boolean keep;

  public static void main(String[] args) {
    Cli.exit(Cli.of(new HttpOnlyDemo(), "demo", 1), args);
  }

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    Path home = Files.createTempDirectory("solweb-demo-home");
    Path workspace = Files.createTempDirectory("solweb-demo-workspace");
    String java = ProcessHandle.current().info().command().orElse("java");
    Process daemon = new ProcessBuilder(java, "-XX:+UseParallelGC", "-Xmx256m", "-cp", System.getProperty("java.class.path"),
        "dev.solweb.provider.daemon.Solwebd", "--seat", "scripted:demo", "--port", "0", "--home", home.toString())
        .redirectErrorStream(true).redirectOutput(home.resolve("solwebd.log").toFile()).start();
    Vertx vertx = Vertx.vertx();
    try {
      out.println("demo: started solwebd (pid " + daemon.pid() + ") on the scripted seat, home " + home);
      StateFile state = StateFile.await(home, daemon, home.resolve("solwebd.log"), Duration.ofSeconds(30));
      String token = TokenFile.read(home.resolve(TokenFile.NAME));
      WebClient client = WebClient.create(vertx);
      out.println("demo: listening on 127.0.0.1:" + state.port() + "; workspace " + workspace);

      ObjectNode request = JSON.createObjectNode();
      request.put("model", "sol-web-high");
      ArrayNode messages = request.putArray("messages");
      messages.addObject().put("role", "system").put("content", "You are a careful coding agent.");
      messages.addObject().put("role", "user").put("content", "Create hello.txt containing hi.");
      ObjectNode write = request.putArray("tools").addObject().put("type", "function").putObject("function");
      write.put("name", "write").put("description", "Write a file in the workspace.");
      write.set("parameters", JSON.readTree(
          "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"},\"content\":{\"type\":\"string\"}},\"required\":[\"path\",\"content\"]}"));

      for (int step = 1; step <= 5; step++) {
        Instant sent = Instant.now();
        HttpResponse<Buffer> response = client.post(state.port(), "127.0.0.1", "/v1/chat/completions")
            .bearerTokenAuthentication(token).sendBuffer(Buffer.buffer(request.toString()))
            .toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
        JsonNode body = JSON.readTree(response.bodyAsString());
        if (response.statusCode() != 200) {
          out.println("demo: solwebd answered " + response.statusCode() + ": " + body.path("error").path("message").asText());
          return 1;
        }
        JsonNode message = body.path("choices").get(0).path("message");
        long millis = Duration.between(sent, Instant.now()).toMillis();
        if (!message.has("tool_calls")) {
          out.println("demo: step " + step + " final answer (" + millis + " ms):");
          out.println(message.path("content").asText());
          out.println("demo: hello.txt holds: " + Files.readString(workspace.resolve("hello.txt")).strip());
          out.println("demo: estimated usage " + body.path("usage"));
          return 0;
        }
        JsonNode call = message.path("tool_calls").get(0);
        JsonNode arguments = JSON.readTree(call.path("function").path("arguments").asText());
        out.println("demo: step " + step + " tool call " + call.path("function").path("name").asText()
            + " " + arguments + " (" + millis + " ms)");
        String result = runWrite(workspace, arguments);
        messages.add(message);
        messages.addObject().put("role", "tool").put("tool_call_id", call.path("id").asText()).put("content", result);
      }
      out.println("demo: no final answer after 5 steps");
      return 1;
    } finally {
      shutdown(vertx, home, daemon, out);
      vertx.close();
      if (!keep) {
        deleteTree(home);
        deleteTree(workspace);
      }
    }
  }

  /** The demo's only tool: writes a file inside the workspace, never outside it. */
  private static String runWrite(Path workspace, JsonNode arguments) throws Exception {
    Path target = workspace.resolve(arguments.path("path").asText()).normalize();
    if (!target.startsWith(workspace)) {
      return "refused: " + target + " is outside the workspace";
    }
    Files.writeString(target, arguments.path("content").asText());
    return "Successfully wrote " + Files.size(target) + " bytes to " + workspace.relativize(target);
  }

  /** Stops the daemon the way its owner would: POST /shutdown, then wait for exit 0. */
  private static void shutdown(Vertx vertx, Path home, Process daemon, PrintWriter out) throws Exception {
    try {
      StateFile state = StateFile.read(home.resolve(StateFile.NAME)).orElseThrow();
      String token = TokenFile.read(home.resolve(TokenFile.NAME));
      // Held until the answer: Vert.x closes a client nothing refers to when the collector finds it.
      WebClient client = WebClient.create(vertx);
      try {
        client.post(state.port(), "127.0.0.1", "/shutdown").bearerTokenAuthentication(token).send()
            .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
      } finally {
        client.close();
      }
    } catch (Exception e) {
      out.println("demo: POST /shutdown failed (" + e.getMessage() + "); ending solwebd");
      daemon.destroy();
    }
    if (!daemon.waitFor(15, TimeUnit.SECONDS)) {
      daemon.destroyForcibly();
      out.println("demo: solwebd did not exit; killed it");
      return;
    }
    out.println("demo: solwebd shut down, exit " + daemon.exitValue());
  }

  private static void deleteTree(Path root) throws Exception {
    try (var paths = Files.walk(root)) {
      for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }
}

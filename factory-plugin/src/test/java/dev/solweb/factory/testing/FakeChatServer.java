package dev.solweb.factory.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.solweb.provider.failure.ProviderFailure;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;

/**
 * A loopback chat-completions endpoint that answers like solwebd does (same SSE chunks, same
 * error body with {@code error.metadata.raw} = ProviderFailure compact JSON, same
 * {@code x-should-retry: false}), from a queue of scripted replies, recording every request.
 * Used until the real daemon is on main; it checks the bearer token like the daemon.
 */
public final class FakeChatServer implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** A recorded request. */
  public record Seen(String method, String path, Map<String, List<String>> headers, String body) {
    public String header(String name) {
      return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
          .map(e -> e.getValue().get(0)).findFirst().orElse(null);
    }
  }

  /** A scripted reply. */
  public sealed interface Reply permits Sse, Error, Hang {}

  public record Sse(List<String> dataEvents) implements Reply {}

  public record Error(ProviderFailure failure) implements Reply {}

  public record Hang() implements Reply {}

  private final HttpServer server;
  private final String token;
  private final Deque<Reply> script = new ArrayDeque<>();
  private final List<Seen> seen = new CopyOnWriteArrayList<>();
  private final CountDownLatch released = new CountDownLatch(1);

  public FakeChatServer(String token) throws IOException {
    this.token = token;
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(Executors.newCachedThreadPool());
    server.createContext("/", this::handle);
    server.start();
  }

  public String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
  }

  public synchronized FakeChatServer then(Reply reply) {
    script.add(reply);
    return this;
  }

  public List<Seen> requests() {
    return List.copyOf(seen);
  }

  private void handle(HttpExchange exchange) throws IOException {
    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    seen.add(new Seen(exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
        Map.copyOf(exchange.getRequestHeaders()), body));
    if (!("Bearer " + token).equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
      send(exchange, 401, "{\"error\":{\"type\":\"unauthorized\",\"message\":\"bad token\"}}", Map.of());
      return;
    }
    Reply reply;
    synchronized (this) {
      reply = script.poll();
    }
    if (reply == null) {
      reply = new Error(ProviderFailure.of(ProviderFailure.Kind.PROTOCOL, "fake server script exhausted"));
    }
    if (reply instanceof Sse sse) {
      exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
      exchange.sendResponseHeaders(200, 0);
      try (OutputStream out = exchange.getResponseBody()) {
        for (String data : sse.dataEvents()) {
          out.write(("data: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
          out.flush();
        }
        out.write("data: [DONE]\n\n".getBytes(StandardCharsets.UTF_8));
      }
    } else if (reply instanceof Error error) {
      send(exchange, error.failure().kind().httpStatus(), errorBody(error.failure()),
          error.failure().retryAfterSeconds() == null ? Map.of()
              : Map.of("Retry-After", Long.toString(error.failure().retryAfterSeconds())));
    } else {
      exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
      exchange.sendResponseHeaders(200, 0);
      try {
        released.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      exchange.close();
    }
  }

  /** solwebd's error body (BRIEF "Errors"). */
  public static String errorBody(ProviderFailure failure) {
    ObjectNode error = JSON.createObjectNode();
    error.put("type", failure.kind().wireName());
    error.put("code", failure.kind().code());
    error.put("message", failure.message());
    error.putObject("metadata").put("raw", failure.toJson());
    if (failure.resumeAt() != null) {
      error.put("resume_at", failure.resumeAt());
    }
    if (failure.retryAfterSeconds() != null) {
      error.put("retry_after_seconds", failure.retryAfterSeconds());
    }
    ObjectNode root = JSON.createObjectNode();
    root.set("error", error);
    return root.toString();
  }

  private static void send(HttpExchange exchange, int status, String body, Map<String, String> headers)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.getResponseHeaders().add("x-should-retry", "false");
    headers.forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  /** An SSE reply making one tool call. */
  public static Sse toolCall(String name, String argumentsJson) {
    ObjectNode call = JSON.createObjectNode();
    call.put("index", 0).put("id", "call_1").put("type", "function");
    call.putObject("function").put("name", name).put("arguments", argumentsJson);
    ObjectNode delta = JSON.createObjectNode().put("role", "assistant");
    delta.putArray("tool_calls").add(call);
    return new Sse(List.of(chunk(delta, null), chunk(JSON.createObjectNode(), "tool_calls"), usage(1000, 20)));
  }

  /** An SSE reply with a final text answer. */
  public static Sse text(String content) {
    ObjectNode delta = JSON.createObjectNode().put("role", "assistant").put("content", content);
    return new Sse(List.of(chunk(delta, null), chunk(JSON.createObjectNode(), "stop"), usage(1200, 40)));
  }

  private static String chunk(ObjectNode delta, String finish) {
    ObjectNode root = JSON.createObjectNode().put("id", "chatcmpl-1").put("object", "chat.completion.chunk")
        .put("model", "sol-web-high");
    ObjectNode choice = root.putArray("choices").addObject().put("index", 0);
    choice.set("delta", delta);
    if (finish == null) {
      choice.putNull("finish_reason");
    } else {
      choice.put("finish_reason", finish);
    }
    return root.toString();
  }

  private static String usage(int in, int out) {
    ObjectNode root = JSON.createObjectNode().put("id", "chatcmpl-1");
    root.putArray("choices");
    root.putObject("usage").put("prompt_tokens", in).put("completion_tokens", out).put("total_tokens", in + out);
    return root.toString();
  }

  @Override
  public void close() {
    released.countDown();
    server.stop(0);
  }
}

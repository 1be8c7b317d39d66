package dev.solweb.provider.pi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

/**
 * Pi in RPC mode: one session, prompts written as JSONL commands, every event kept. RPC mode is
 * the one that waits for compaction and its retry (PI-FACTS.md section 5).
 */
final class PiRpc implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();
  private final Process process;
  private final List<JsonNode> events = new CopyOnWriteArrayList<>();
  private final CompletableFuture<String> stderr;
  private int nextId = 1;

  PiRpc(Pi pi, String model) throws IOException {
    process = pi.start(List.of("--mode", "rpc", "--model", model, "--no-session"), true);
    stderr = Pi.drain(process.getErrorStream());
    Thread reader = new Thread(() -> {
      try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = lines.readLine()) != null) {
          if (line.startsWith("{")) {
            events.add(JSON.readTree(line));
          }
        }
      } catch (IOException e) {
        // The process ended; the events read so far stay.
      }
    }, "pi-rpc-reader");
    reader.setDaemon(true);
    reader.start();
  }

  /** Sends a prompt and returns the index of the first event after it. */
  int prompt(String message) throws IOException {
    int mark = events.size();
    String command = JSON.createObjectNode().put("id", Integer.toString(nextId++)).put("type", "prompt")
        .put("message", message).toString();
    OutputStream stdin = process.getOutputStream();
    stdin.write((command + "\n").getBytes(StandardCharsets.UTF_8));
    stdin.flush();
    return mark;
  }

  /** Waits for the {@code count}-th event from {@code from} on that matches. */
  JsonNode await(int from, Predicate<JsonNode> match, int count, Duration timeout) throws InterruptedException {
    Instant deadline = Instant.now().plus(timeout);
    while (Instant.now().isBefore(deadline)) {
      int seen = 0;
      for (int i = from; i < events.size(); i++) {
        if (match.test(events.get(i)) && ++seen == count) {
          return events.get(i);
        }
      }
      Thread.sleep(50);
    }
    throw new AssertionError("Pi did not emit the awaited event in " + timeout + "; events: " + types()
        + "; stderr: " + stderr.getNow(""));
  }

  static Predicate<JsonNode> type(String type) {
    return event -> event.path("type").asText().equals(type);
  }

  List<JsonNode> events() {
    return List.copyOf(events);
  }

  List<String> types() {
    return events.stream().map(e -> e.path("type").asText()).filter(t -> !t.equals("message_update")).toList();
  }

  @Override
  public void close() {
    process.destroy();
    try {
      process.waitFor();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

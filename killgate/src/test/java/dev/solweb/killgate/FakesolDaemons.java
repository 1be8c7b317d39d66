package dev.solweb.killgate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.solweb.provider.ctl.CtlEnv;
import dev.solweb.provider.ctl.Solwebctl;
import dev.solweb.provider.seat.playwright.PlaywrightOptions;
import dev.solweb.provider.seat.playwright.browser.OrphanReaper;
import dev.solweb.testkit.Programs;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Real {@code solwebd --seat playwright --headless} processes on one home, driving a fakesol
 * page, and {@code solwebctl} run on that home as a user runs it beside the daemon. Every
 * process started is killed, and the profile's Chromium reaped, by {@link #close()}.
 */
final class FakesolDaemons implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern LISTENING = Pattern.compile("listening on (http://127\\.0\\.0\\.1:\\d+)");

  /** A daemon that listens: its process, base URL and the token it created. */
  record Running(Process process, URI base, String token) {}

  /** What one {@code solwebctl} run printed. */
  record CtlRun(int code, String out, String err) {}

  private final Path home;
  private final URI chatUrl;
  private final List<Process> processes = new ArrayList<>();
  private final Map<Process, Thread> readers = new java.util.concurrent.ConcurrentHashMap<>();
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  FakesolDaemons(Path home, URI chatUrl) {
    this.home = home;
    this.chatUrl = chatUrl;
  }

  /** Starts a daemon whose every output line is appended to {@code output}; {@code env} adds settings. */
  Process launch(List<String> output, Map<String, String> env) throws Exception {
    Programs.require(PlaywrightOptions.DEFAULT_CHROMIUM.toString());
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    // The JVM options bin/lib.sh gives solwebd.
    ProcessBuilder pb = new ProcessBuilder(java, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
        "-cp", System.getProperty("java.class.path"),
        "dev.solweb.provider.daemon.Solwebd", "--seat", "playwright", "--headless", "--chat-url", chatUrl.toString(),
        "--port", "0", "--home", home.toString())
        .redirectErrorStream(true);
    pb.environment().put("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1");
    pb.environment().put("SOLWEBD_KEEPALIVE_S", "0");
    // fakesol has no account to protect: no Send gap unless a test sets one (AccountSafetyFakesolTest does).
    pb.environment().put("SOLWEBD_SEND_GAP_MS", "0");
    pb.environment().putAll(env);
    Process process = pb.start();
    processes.add(process);
    Thread reader = new Thread(() -> {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = in.readLine()) != null) {
          synchronized (output) {
            output.add(line);
            output.notifyAll();
          }
        }
      } catch (Exception ignored) {
        // The process ended.
      }
    });
    reader.setDaemon(true);
    reader.start();
    readers.put(process, reader);
    return process;
  }

  /** Everything {@code process} (started by {@link #launch}) printed, once its output has ended. */
  String outputOf(Process process, List<String> output) throws InterruptedException {
    Thread reader = readers.get(process);
    reader.join(Duration.ofSeconds(30).toMillis()); // its output ends when it exits; the bound only ends a hang
    assertThat(reader.isAlive()).as("the output of pid %d never ended", process.pid()).isFalse();
    synchronized (output) {
      return String.join("\n", output);
    }
  }

  /** Starts a daemon and waits until it listens and its seat is ready for {@code account}. */
  Running start(String account) throws Exception {
    return start(account, Map.of());
  }

  Running start(String account, Map<String, String> env) throws Exception {
    Running daemon = startIn("ready", env);
    assertThat(JSON.readTree(get(daemon, "/healthz").body()).path("account").asText()).isEqualTo(account);
    return daemon;
  }

  /** Starts a daemon and waits until it listens and /healthz says {@code state} ({@code logged_out}, say). */
  Running startIn(String state, Map<String, String> env) throws Exception {
    List<String> output = new ArrayList<>();
    Process process = launch(output, env);
    URI base = null;
    // A bound, not a wait: on the shared two-core machine under a full build a JVM and Chromium took over 30 s to start.
    long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
    while (base == null) {
      synchronized (output) {
        for (String line : output) {
          Matcher m = LISTENING.matcher(line);
          if (m.find()) {
            base = URI.create(m.group(1));
          }
        }
        if (base == null) {
          assertThat(process.isAlive()).as("solwebd exited: %s", output).isTrue();
          assertThat(System.nanoTime()).as("solwebd did not listen: %s", output).isLessThan(deadline);
          output.wait(200);
        }
      }
    }
    Running daemon = new Running(process, base, Files.readString(home.resolve("solwebd.token")).strip());
    while (true) {
      JsonNode health = JSON.readTree(get(daemon, "/healthz").body());
      if (state.equals(health.path("state").asText())) {
        return daemon;
      }
      assertThat(System.nanoTime()).as("never %s: %s", state, health).isLessThan(deadline);
      Thread.sleep(100);
    }
  }

  HttpResponse<String> get(Running daemon, String path) throws Exception {
    return http.send(HttpRequest.newBuilder(daemon.base().resolve(path))
        .header("Authorization", "Bearer " + daemon.token()).timeout(Duration.ofSeconds(30)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** A chat-completions request of client session {@code clientSession}; the answer must be 200. */
  JsonNode chat(Running daemon, String clientSession, JsonNode body) throws Exception {
    HttpResponse<String> response = post(daemon, clientSession, body);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return JSON.readTree(response.body());
  }

  /** A chat-completions request of client session {@code clientSession}, whatever it answers. */
  HttpResponse<String> post(Running daemon, String clientSession, JsonNode body) throws Exception {
    return http.send(HttpRequest.newBuilder(daemon.base().resolve("/v1/chat/completions"))
        .header("Authorization", "Bearer " + daemon.token()).header("content-type", "application/json")
        .header("X-Overdeck-Client-Session", clientSession)
        .timeout(Duration.ofSeconds(60)).POST(HttpRequest.BodyPublishers.ofString(body.toString())).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** {@code solwebctl args} on this home, in this JVM, with its output captured. */
  CtlRun ctl(String... args) {
    Map<String, String> env = new HashMap<>();
    env.put("HOME", home.toString());
    env.put("PATH", System.getenv("PATH"));
    env.put("SOLWEBD_HOME", home.toString());
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Solwebctl.execute(CtlEnv.of(env, null), new PrintWriter(out), new PrintWriter(err), args);
    return new CtlRun(code, out.toString(), err.toString());
  }

  @Override
  public void close() throws Exception {
    for (Process process : processes) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    OrphanReaper.reap(home.resolve("profile"));
  }
}

package dev.solweb.provider.sw;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.solweb.provider.platform.Json;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One Claude Code run in the foreground: {@code timeout -k 5 SECS claude -p ... -- PROMPT}, argv
 * only (the prompt never passes through a shell), stdin {@code /dev/null}, routed straight at
 * solwebd's Messages API ({@link Route.Direct}) or at ccr ({@link Route.ViaCcr}). coreutils
 * {@code timeout} puts itself and Claude Code in a process group of their own and signals the
 * whole group, TERM then KILL after 5 s, so nothing Claude Code started outlives the run.
 *
 * <p>Every line Claude Code writes goes to the run's log file (stderr lines prefixed); the last
 * {@code {"type":"result"}} event is kept for the status line.
 */
final class ClaudeRun {
  static final int KILL_AFTER_SECONDS = 5;
  private static final ObjectMapper JSON = Json.MAPPER;

  /** What the run produced. @param result Claude Code's last result event, or null */
  record Outcome(int exitCode, boolean timedOut, JsonNode result, Duration elapsed) {}

  /** Where Claude Code sends its requests, and how it authenticates there. */
  sealed interface Route {
    /** The base URL Claude Code is given. */
    String baseUrl();

    /**
     * solwebd itself. The token reaches Claude Code only from the {@code apiKeyHelper} in
     * {@code --settings}, which runs {@code solwebctl token}: never in argv, the environment or
     * a file Claude Code writes.
     */
    record Direct(String baseUrl, Path installRoot) implements Route {}

    /** claude-code-router 2.0.0 (seed 000's path), with ccr's own key; ccr holds the solwebd token. */
    record ViaCcr(String baseUrl, String key) implements Route {}
  }

  /**
   * @param model the model Claude Code asks for: {@code sol-web-<effort>} directly, or
   *     {@code solweb,sol-web-<effort>} through ccr, which routes a {@code provider,model} id
   *     straight to that provider
   */
  record Spec(Path claude, Path workspace, String prompt, String model, String sessionId,
      long timeoutSeconds, Route route, int maxRetries, boolean root) {

    List<String> argv() {
      List<String> argv = new ArrayList<>(List.of("timeout", "-k", Integer.toString(KILL_AFTER_SECONDS),
          Long.toString(timeoutSeconds), claude.toString()));
      if (route instanceof Route.Direct direct) {
        argv.add("--settings");
        argv.add(directSettings(direct.installRoot()));
      }
      argv.addAll(List.of("-p", "--output-format", "stream-json", "--verbose", "--dangerously-skip-permissions",
          "--model", model));
      if (sessionId != null) {
        argv.add("--session-id");
        argv.add(sessionId);
      }
      // "--" ends the options, so a prompt that starts with "-" stays the prompt.
      argv.add("--");
      argv.add(prompt);
      return argv;
    }

    /**
     * Claude Code's environment: the caller's, minus any ANTHROPIC_* setting (this run is routed
     * at solwebd or ccr and nowhere else), plus the routing, the privacy switches and a retry
     * limit. The solwebd token is never here: directly, the apiKeyHelper prints it to Claude Code
     * on demand; through ccr, ccr holds it in its own config.
     */
    Map<String, String> environment(Map<String, String> inherited) {
      Map<String, String> env = new HashMap<>();
      inherited.forEach((name, value) -> {
        if (!name.startsWith("ANTHROPIC_")) {
          env.put(name, value);
        }
      });
      env.put("ANTHROPIC_BASE_URL", route.baseUrl());
      if (route instanceof Route.ViaCcr ccr) {
        env.put("ANTHROPIC_API_KEY", ccr.key());
      }
      env.put("DISABLE_TELEMETRY", "1");
      env.put("DISABLE_AUTOUPDATER", "1");
      env.put("DISABLE_ERROR_REPORTING", "1");
      env.put("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");
      env.put("CLAUDE_CODE_MAX_RETRIES", Integer.toString(maxRetries));
      if (root) {
        // Claude Code refuses --dangerously-skip-permissions as root unless told it is sandboxed.
        env.put("IS_SANDBOX", "1");
      }
      return env;
    }
  }

  /**
   * The settings Claude Code gets on its command line for a direct run: an {@code apiKeyHelper}
   * that runs this install's {@code solwebctl token} (Claude Code sends what it prints as
   * {@code x-api-key} and as a bearer token). It names a program, never the token; the helper
   * finds the daemon home from the environment Claude Code passes on ({@code SOLWEBD_HOME}, else
   * {@code $HOME}), as every solweb command does.
   */
  static String directSettings(Path installRoot) {
    String command = shellQuote(installRoot.resolve("bin/solwebctl").toString()) + " token";
    return JSON.createObjectNode().put("apiKeyHelper", command).toString();
  }

  /** One shell word: Claude Code runs the helper through a shell. */
  static String shellQuote(String word) {
    return "'" + word.replace("'", "'\\''") + "'";
  }

  private ClaudeRun() {}

  static Outcome run(Spec spec, Map<String, String> inherited, Path log) throws IOException {
    Files.createDirectories(log.getParent(), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    if (!Files.exists(log)) {
      Files.createFile(log, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    }
    ProcessBuilder builder = new ProcessBuilder(spec.argv())
        .directory(spec.workspace().toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    builder.environment().clear();
    builder.environment().putAll(spec.environment(inherited));
    long started = System.nanoTime();
    Process process = builder.start();
    // If sw itself is stopped, take Claude Code down with it (timeout forwards TERM to its group).
    Thread reaper = new Thread(process::destroy, "sw-stop-claude");
    Runtime.getRuntime().addShutdownHook(reaper);
    JsonNode[] result = new JsonNode[1];
    try (Writer out = Files.newBufferedWriter(log, StandardCharsets.UTF_8, StandardOpenOption.APPEND)) {
      Thread errors = new Thread(() -> pump(process.getErrorStream(), out, "stderr: ", null), "sw-claude-stderr");
      errors.start();
      pump(process.getInputStream(), out, "", result);
      int code = process.waitFor();
      errors.join();
      Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
      // timeout exits 124 when it sent TERM, 137 when it also had to KILL.
      boolean timedOut = (code == 124 || code == 137) && elapsed.toSeconds() >= spec.timeoutSeconds();
      return new Outcome(code, timedOut, result[0], elapsed);
    } catch (InterruptedException e) {
      process.destroy();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while Claude Code ran", e);
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(reaper);
      } catch (IllegalStateException shuttingDown) {
        // The hook is already running.
      }
    }
  }

  private static void pump(InputStream stream, Writer log, String prefix, JsonNode[] result) {
    try (BufferedReader reader = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
      String line;
      while ((line = reader.readLine()) != null) {
        synchronized (log) {
          log.write(prefix + line + "\n");
          log.flush();
        }
        if (result != null && line.startsWith("{") && line.contains("\"result\"")) {
          try {
            JsonNode event = JSON.readTree(line);
            if ("result".equals(event.path("type").asText())) {
              result[0] = event;
            }
          } catch (IOException notJson) {
            // Kept in the log; only result events matter here.
          }
        }
      }
    } catch (IOException e) {
      // The process closed its end; what was read is in the log.
    }
  }
}

package dev.solweb.killgate.gate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.solweb.factory.pi.ChildEnvironment;
import dev.solweb.factory.pi.PiResult;
import dev.solweb.factory.pi.ProcessGroup;
import dev.solweb.factory.pi.RpcEventTracker.Step;
import dev.solweb.factory.pi.RpcEventTracker;
import dev.solweb.factory.session.ClientSession;
import dev.solweb.provider.platform.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One pinned Pi in RPC mode kept open across several prompts of one Pi session, so a second
 * prompt carries the first turn's history (checks 6 and 9) and, with {@code persist}, Pi writes
 * its session file (check 2). Same command line and environment as the factory plugin's
 * {@code PiRunner} (which runs exactly one prompt per process), minus {@code --no-session} when
 * persisting; each prompt's end is decided by the plugin's {@link RpcEventTracker}.
 */
final class PiSession implements AutoCloseable {

  private static final String EOF = "\u0000EOF";

  private final Process process;
  private final OutputStream stdin;
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
  private final List<JsonNode> events = new ArrayList<>();

  PiSession(Rig rig, ClientSession session, boolean persist, Path stderrLog) throws IOException {
    List<String> command = new ArrayList<>(List.of("setsid", "-w", rig.gate.pi.toString(), "--mode", "rpc"));
    if (!persist) {
      command.add("--no-session");
    }
    command.addAll(List.of("--offline", "--model", Rig.MODEL, "--thinking", "off", "--tools", "read,bash,edit,write"));
    Files.createDirectories(stderrLog.getParent());
    ProcessBuilder builder = new ProcessBuilder(command).directory(rig.workspace.toFile())
        .redirectError(stderrLog.toFile());
    builder.environment().clear();
    builder.environment().putAll(ChildEnvironment.build(rig.parentEnv(), rig.accountDir, session,
        Set.of(rig.daemon.token())));
    process = builder.start();
    stdin = process.getOutputStream();
    Thread reader = new Thread(() -> {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = in.readLine()) != null) {
          lines.add(line);
        }
      } catch (IOException e) {
        // Killed.
      } finally {
        lines.add(EOF);
      }
    }, "killgate-pi-" + process.pid());
    reader.setDaemon(true);
    reader.start();
  }

  long pid() {
    return process.pid();
  }

  /** Every RPC event so far, in order. */
  List<JsonNode> events() {
    return List.copyOf(events);
  }

  /** Sends one prompt and follows it to its real end (after retries and compactions). */
  PiResult prompt(String text, Duration timeout) throws IOException {
    RpcEventTracker tracker = new RpcEventTracker();
    Instant started = Instant.now();
    write(RpcEventTracker.promptCommand(text));
    long deadline = System.nanoTime() + timeout.toNanos();
    long reprobeAt = Long.MAX_VALUE;
    while (true) {
      long now = System.nanoTime();
      if (now >= deadline) {
        return tracker.result(PiResult.Outcome.TIMEOUT, null, "gate: prompt exceeded " + timeout.toSeconds() + " s",
            null, started, Instant.now());
      }
      String line;
      try {
        line = lines.poll(Math.max(1, Math.min(deadline, reprobeAt) - now), TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return tracker.result(PiResult.Outcome.CANCELLED, null, "interrupted", null, started, Instant.now());
      }
      if (line == null) {
        if (System.nanoTime() >= reprobeAt && !tracker.probeOutstanding()) {
          reprobeAt = Long.MAX_VALUE;
          write(tracker.nextProbeCommand());
        }
        continue;
      }
      if (line == EOF) {
        return tracker.result(PiResult.Outcome.ERROR, null, "Pi exited before the prompt ended", null, started,
            Instant.now());
      }
      JsonNode event;
      try {
        event = Json.MAPPER.readTree(line);
      } catch (IOException e) {
        continue;
      }
      events.add(event);
      Step step = tracker.accept(event, System.currentTimeMillis());
      switch (step) {
        case PROBE -> write(tracker.nextProbeCommand());
        case PROBE_LATER -> reprobeAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
        case DONE -> {
          return tracker.result(null, null, null, null, started, Instant.now());
        }
        default -> { }
      }
    }
  }

  private void write(String jsonLine) throws IOException {
    stdin.write((jsonLine + "\n").getBytes(StandardCharsets.UTF_8));
    stdin.flush();
  }

  @Override
  public void close() {
    try {
      stdin.close();
    } catch (IOException e) {
      // Gone.
    }
    try {
      process.waitFor(3, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    ProcessGroup.killTree(process.toHandle());
  }
}

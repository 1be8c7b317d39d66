package dev.solweb.factory.pi;

import com.fasterxml.jackson.databind.JsonNode;
import dev.solweb.factory.pi.PiResult.Outcome;
import dev.solweb.factory.pi.RpcEventTracker.Step;
import dev.solweb.factory.receipt.Redactor;
import dev.solweb.provider.failure.ProviderFailure.Kind;
import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.platform.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Runs one Pi phase: the pinned Pi in RPC mode ({@code --mode rpc}; print and json modes exit
 * before a compaction's retry and report success on failure, PI-FACTS §3, §5), in its own session
 * and process group ({@code setsid -w}), in the workspace, with {@link ChildEnvironment}.
 *
 * <p>{@link #run} blocks until the run's real end ({@link RpcEventTracker}), the timeout, or
 * {@link #cancel} from another thread; timeout and cancel kill Pi and every tool subprocess at
 * once ({@link ProcessGroup#killTree}). Failures never throw: they are the result's outcome.
 * The runner is single-use.
 */
public final class PiRunner {

  private static final String EOF = "\u0000EOF";
  private static final long REPROBE_MS = 200;

  private final PiRequest request;
  private final Redactor redactor;
  private volatile Process process;
  private volatile boolean cancelled;
  private volatile Instant cancelledAt;

  public PiRunner(PiRequest request) {
    this.request = request;
    this.redactor = new Redactor(request.knownSecrets());
  }

  /** The argv after the spawn wrapper: no secret is ever in it. */
  public List<String> command() {
    List<String> command = new ArrayList<>(List.of(
        "setsid", "-w", request.piBin().toString(),
        "--mode", "rpc", "--no-session", "--offline",
        "--model", request.model(), "--thinking", "off"));
    if (request.tools().isEmpty()) {
      command.add("--no-tools");
    } else {
      command.add("--tools");
      command.add(String.join(",", request.tools()));
    }
    return command;
  }

  /**
   * Runs the phase to its end.
   *
   * @param progress receives short human-readable notes (tool start/end, retries, compactions)
   * @throws IOException only when Pi cannot be spawned at all (missing binary, bad workspace)
   */
  public PiResult run(Consumer<String> progress) throws IOException {
    Files.createDirectories(request.stderrLog().toAbsolutePath().getParent());
    // Created owner-only before Pi writes to it: a log may hold what a receipt must not.
    Files.deleteIfExists(request.stderrLog());
    Files.createFile(request.stderrLog(),
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    ProcessBuilder builder = new ProcessBuilder(command())
        .directory(request.workspace().toFile())
        .redirectError(request.stderrLog().toFile());
    builder.environment().clear();
    builder.environment().putAll(ChildEnvironment.build(
        request.parentEnv(), request.agentDir(), request.session(), request.knownSecrets()));
    Instant startedAt = Instant.now();
    long deadline = System.nanoTime() + request.timeout().toNanos();
    if (cancelled) {
      return new RpcEventTracker().result(Outcome.CANCELLED, cancelledFailure(), "cancelled before start",
          null, startedAt, Instant.now());
    }
    Process pi = builder.start();
    process = pi;
    if (cancelled) {
      ProcessGroup.killTree(pi.toHandle());
    }
    BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    Thread reader = new Thread(() -> readLines(pi, lines), "pi-rpc-reader-" + pi.pid());
    reader.setDaemon(true);
    reader.start();

    RpcEventTracker tracker = new RpcEventTracker();
    OutputStream stdin = pi.getOutputStream();
    PiResult result;
    try {
      write(stdin, RpcEventTracker.promptCommand(request.task()));
      result = follow(pi, lines, tracker, stdin, deadline, startedAt, progress);
    } finally {
      redactStderr();
    }
    return result;
  }

  private PiResult follow(Process pi, BlockingQueue<String> lines, RpcEventTracker tracker, OutputStream stdin,
      long deadline, Instant startedAt, Consumer<String> progress) {
    long reprobeAt = Long.MAX_VALUE;
    while (true) {
      long now = System.nanoTime();
      if (now >= deadline) {
        ProcessGroup.killTree(pi.toHandle());
        ProviderFailure failure = ProviderFailure.of(Kind.TIMEOUT,
            "Pi phase exceeded " + request.timeout().toSeconds() + "s; Pi and its tools were killed");
        return tracker.result(Outcome.TIMEOUT, failure, failure.detail(), null, startedAt, Instant.now());
      }
      String line;
      try {
        long waitNanos = Math.min(deadline, reprobeAt) - now;
        line = lines.poll(Math.max(1, waitNanos), TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        cancel();
        line = EOF;
      }
      if (line == null) {
        if (System.nanoTime() >= reprobeAt && !tracker.probeOutstanding()) {
          reprobeAt = Long.MAX_VALUE;
          write(stdin, tracker.nextProbeCommand());
        }
        continue;
      }
      if (line == EOF) {
        Integer rc = waitExit(pi, 2000);
        if (cancelled) {
          return tracker.result(Outcome.CANCELLED, cancelledFailure(), "cancelled by the caller; Pi and its tools were killed",
              rc, startedAt, cancelledAt);
        }
        return tracker.result(Outcome.ERROR, null,
            "Pi exited" + (rc == null ? "" : " with rc " + rc) + " before the run ended (see stderr log)",
            rc, startedAt, Instant.now());
      }
      JsonNode event;
      try {
        event = Json.MAPPER.readTree(line);
      } catch (IOException e) {
        continue; // RPC mode owns stdout; a stray non-JSON line is not an event.
      }
      note(event, progress);
      Step step = tracker.accept(event, System.currentTimeMillis());
      switch (step) {
        case PROBE -> write(stdin, tracker.nextProbeCommand());
        case PROBE_LATER -> reprobeAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(REPROBE_MS);
        case DONE -> {
          Instant endedAt = Instant.now();
          Integer rc = shutDown(pi, stdin);
          return tracker.result(null, null, null, rc, startedAt, endedAt);
        }
        case CONTINUE -> { }
        default -> throw new IllegalStateException("Unhandled step: " + step);
      }
    }
  }

  /**
   * Ends the run at once: Pi, its tools and their children are killed; {@link #run} returns
   * {@link Outcome#CANCELLED}. Safe from any thread, any number of times.
   */
  public void cancel() {
    if (!cancelled) {
      cancelledAt = Instant.now();
      cancelled = true;
    }
    Process pi = process;
    if (pi != null) {
      ProcessGroup.killTree(pi.toHandle());
    }
  }

  private static ProviderFailure cancelledFailure() {
    return ProviderFailure.of(Kind.CANCELLED, "cancelled by the caller; Pi and its tools were killed");
  }

  /** Closes stdin (Pi's RPC mode exits on EOF), then makes sure nothing of the run survives. */
  private static Integer shutDown(Process pi, OutputStream stdin) {
    try {
      stdin.close();
    } catch (IOException e) {
      // Pi already gone.
    }
    Integer rc = waitExit(pi, 3000);
    ProcessGroup.killTree(pi.toHandle());
    return rc;
  }

  private static Integer waitExit(Process pi, long millis) {
    try {
      if (pi.waitFor(millis, TimeUnit.MILLISECONDS)) {
        return pi.exitValue();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return null;
  }

  private static void write(OutputStream stdin, String jsonLine) {
    try {
      stdin.write((jsonLine + "\n").getBytes(StandardCharsets.UTF_8));
      stdin.flush();
    } catch (IOException e) {
      // Pi closed stdin: it is exiting, and the reader will see EOF.
    }
  }

  private static void readLines(Process pi, BlockingQueue<String> lines) {
    try (BufferedReader in = new BufferedReader(new InputStreamReader(pi.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null) {
        lines.add(line);
      }
    } catch (IOException e) {
      // Killed: treated as EOF.
    } finally {
      lines.add(EOF);
    }
  }

  private void note(JsonNode event, Consumer<String> progress) {
    String type = event.path("type").asText("");
    switch (type) {
      case "tool_execution_start" -> progress.accept("tool " + event.path("toolName").asText() + " started");
      case "tool_execution_end" -> progress.accept("tool " + event.path("toolName").asText()
          + (event.path("isError").asBoolean(false) ? " failed" : " done"));
      case "auto_retry_start" -> progress.accept("Pi retry " + event.path("attempt").asInt());
      case "compaction_start" -> progress.accept("Pi compaction (" + event.path("reason").asText() + ")");
      case "compaction_end" -> progress.accept("Pi compaction ended");
      default -> { }
    }
  }

  private void redactStderr() {
    Path log = request.stderrLog();
    try {
      if (Files.isRegularFile(log)) {
        String text = Files.readString(log, StandardCharsets.UTF_8);
        String clean = redactor.redact(text);
        if (!clean.equals(text)) {
          Files.writeString(log, clean, StandardCharsets.UTF_8);
        }
      }
    } catch (IOException e) {
      // A log we cannot rewrite is left as Pi wrote it; the receipt still names it.
    }
  }

  /** The Redactor this run uses, for the receipt built from its result. */
  public Redactor redactor() {
    return redactor;
  }
}

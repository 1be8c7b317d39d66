package dev.solweb.factory.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.solweb.factory.SolAttempt;
import dev.solweb.factory.pi.PiBinary;
import dev.solweb.factory.pi.PiResult;
import dev.solweb.factory.pi.PiResult.Outcome;
import dev.solweb.factory.preflight.Preflight;
import dev.solweb.factory.preflight.Refusal;
import dev.solweb.factory.receipt.ReceiptWriter;
import dev.solweb.factory.retry.RetryPolicy;
import dev.solweb.factory.session.ClientSession;
import dev.solweb.provider.ctl.LiveTurns;
import dev.solweb.provider.platform.Json;
import dev.solweb.provider.platform.SolwebHome;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code factory-gpt run}: one Pi phase through Sol without Factory. Preflight, derive the client
 * session, materialize the account agent dir, run Pi in RPC mode while printing progress (elapsed,
 * daemon state, queue, active, and this session's turn as /healthz shows it), then print the final answer, write the receipt and exit non-zero
 * on any failure. SIGINT/SIGTERM cancel the phase (Pi and its tools killed) and still write a
 * {@code cancelled} receipt.
 */
@Command(name = "run", mixinStandardHelpOptions = true,
    description = "Run one Pi phase on ChatGPT Sol in WORKSPACE, print the answer, write the attempt receipt.")
final class RunCommand implements java.util.concurrent.Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = "--effort", defaultValue = "pro", description = "medium, high, xhigh or pro (default ${DEFAULT-VALUE}).")
  String effort;

  @Option(names = "--workspace", required = true, paramLabel = "DIR", description = "Pi's working directory.")
  Path workspace;

  @ArgGroup(exclusive = true, multiplicity = "1")
  TaskSource task;

  static final class TaskSource {
    @Option(names = "--task", paramLabel = "TEXT", description = "The task text.") String text;
    @Option(names = "--task-file", paramLabel = "FILE", description = "A file holding the task text.") Path file;
  }

  @Option(names = "--session-id", paramLabel = "ID",
      description = "Factory session id (hashed into the client session; default: a fresh random id).")
  String sessionId;

  @Option(names = "--attempt", defaultValue = "1", description = "Attempt number for the receipt (default ${DEFAULT-VALUE}).")
  int attemptNumber;

  @Option(names = "--timeout", defaultValue = "1800", paramLabel = "SECONDS",
      description = "Phase budget; past it Pi and its tools are killed (default ${DEFAULT-VALUE}).")
  long timeoutSeconds;

  @Option(names = "--tools", defaultValue = "read,bash,edit,write", split = ",",
      description = "Pi tool allowlist from the agent config (default ${DEFAULT-VALUE}).")
  List<String> tools;

  @Option(names = "--receipts", paramLabel = "DIR", description = "Receipt directory (default ~/.overdeck/factory-gpt/receipts).")
  Path receipts;

  @Option(names = "--agent-dir", paramLabel = "DIR",
      description = "Account PI_CODING_AGENT_DIR to materialize (default ~/.overdeck/factory-gpt/agents/<account>).")
  Path agentDir;

  @Option(names = "--progress", defaultValue = "5", paramLabel = "SECONDS", description = "Progress line interval.")
  long progressSeconds;

  @Option(names = "--cleanup", description = "After the attempt ends, delete its ChatGPT conversation(s) (those of its"
      + " client session) through solwebd: each verified gone, tombstoned in the registry. Default: kept,"
      + " and the receipt names them (conversations); the receipt's cleanup records what was deleted.")
  boolean cleanup;

  private final Map<String, String> env;

  RunCommand(Map<String, String> env) {
    this.env = env;
  }

  @Override
  public Integer call() throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    String taskText;
    if (task.text != null) {
      taskText = task.text;
    } else {
      try {
        taskText = Files.readString(task.file, StandardCharsets.UTF_8);
      } catch (IOException e) {
        err.println("factory-gpt run: cannot read --task-file " + task.file + ": " + e.getMessage());
        return FactoryGptExit.USAGE;
      }
    }
    if (taskText.isBlank()) {
      err.println("factory-gpt run: the task is empty");
      return FactoryGptExit.USAGE;
    }
    if (!Files.isDirectory(workspace)) {
      err.println("factory-gpt run: workspace " + workspace + " is not a directory");
      return FactoryGptExit.USAGE;
    }
    if (sessionId != null) {
      try {
        ClientSession.derive(sessionId); // refuse a bad id before preflight, let alone a spawn
      } catch (IllegalArgumentException e) {
        err.println("factory-gpt run: " + e.getMessage());
        return FactoryGptExit.USAGE;
      }
    }
    Preflight.Passed passed;
    try {
      passed = new Preflight(env, FactoryGpt.ensureTimeout(env)).check(effort);
    } catch (Refusal r) {
      return FactoryGpt.refuse(err, r);
    }
    Optional<Path> pi = PiBinary.locate(env);
    if (pi.isEmpty()) {
      err.println("factory-gpt run: " + PiBinary.missingMessage(env));
      return FactoryGptExit.NOT_INSTALLED;
    }
    Path solwebctl = Preflight.solwebctl(env).orElse(null);
    DaemonView daemon = new DaemonView(env, solwebctl);
    // Pi resolves its key with `!solwebctl token`: the solwebctl preflight used must be the one Pi finds.
    Map<String, String> piEnv = new HashMap<>(env);
    if (solwebctl != null) {
      piEnv.put("PATH", solwebctl.toAbsolutePath().getParent() + File.pathSeparator + env.getOrDefault("PATH", ""));
    }
    Optional<String> token = daemon.token();
    String account = passed.health().account();
    Path state = SolwebHome.userHome(env).resolve(".overdeck/factory-gpt");
    Path accountDir = agentDir != null ? agentDir
        : state.resolve("agents").resolve(account == null ? "unknown" : account.replaceAll("[^A-Za-z0-9._@-]", "_"));
    Path receiptsDir = receipts != null ? receipts : state.resolve("receipts");
    SolAttempt attempt;
    try {
      attempt = SolAttempt.prepare(new SolAttempt.Spec(
          sessionId == null ? "factory-gpt-run-" + UUID.randomUUID() : sessionId, attemptNumber, passed.effort(),
          workspace, taskText, tools, Duration.ofSeconds(timeoutSeconds), pi.get(), passed.managedAgentDir(),
          accountDir, receiptsDir, piEnv,
          token.map(Set::of).orElse(Set.of()), passed.health().host(), account));
    } catch (IllegalArgumentException | IllegalStateException e) {
      err.println("factory-gpt run: " + e.getMessage());
      return FactoryGptExit.USAGE;
    }

    AtomicReference<String> lastNote = new AtomicReference<>("");
    CountDownLatch receiptWritten = new CountDownLatch(1);
    Thread onSignal = new Thread(() -> {
      attempt.cancel();
      try {
        receiptWritten.await(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "factory-gpt-cancel");
    Runtime.getRuntime().addShutdownHook(onSignal);

    out.println("factory-gpt: running Pi on gpt/" + passed.effort().modelId() + " in " + workspace
        + " (client session " + attempt.session().value() + ")");
    out.flush();
    CompletableFuture<SolAttempt.Result> running = CompletableFuture.supplyAsync(() -> {
      try {
        return attempt.run(lastNote::set);
      } catch (IOException e) {
        throw new IllegalStateException("cannot start Pi or write the receipt: " + e.getMessage(), e);
      }
    });
    SolAttempt.Result done;
    try {
      done = awaitWithProgress(running, daemon, passed.baseUrl(), token, attempt.session().value(), System.nanoTime(),
          lastNote, out);
    } catch (ExecutionException e) {
      err.println("factory-gpt run: " + e.getCause().getMessage());
      return FactoryGptExit.NOT_INSTALLED;
    } finally {
      receiptWritten.countDown();
    }
    try {
      Runtime.getRuntime().removeShutdownHook(onSignal);
    } catch (IllegalStateException e) {
      // Already shutting down (signal): the hook is running and has been released above.
    }

    PiResult result = done.pi();
    if (!result.finalText().isEmpty()) {
      out.println(attempt.redactor().redact(result.finalText()));
    }
    Path receiptFile = afterAttempt(done, attempt, daemon, passed.baseUrl(), token, receiptsDir, out, err);
    out.println("receipt: " + receiptFile);
    out.flush();
    if (result.outcome() == Outcome.COMPLETED) {
      return FactoryGptExit.OK;
    }
    RetryPolicy.Decision decision = done.decision();
    err.println("factory-gpt run: " + result.outcome().wireName() + ": "
        + (result.providerFailure() != null ? result.providerFailure().message()
            : attempt.redactor().redact(String.valueOf(result.errorMessage())))
        + "; retry: " + decision.verdict().wireName() + " (" + decision.reason() + ")");
    return result.outcome() == Outcome.CANCELLED ? FactoryGptExit.CANCELLED : FactoryGptExit.ATTEMPT_FAILED;
  }

  /**
   * Names the attempt's conversations in the receipt and, with {@code --cleanup}, deletes them
   * through the daemon; rewrites the receipt with both. A cleanup that did not happen says why
   * in the receipt and on stderr; it never changes the attempt's exit code.
   */
  private Path afterAttempt(SolAttempt.Result done, SolAttempt attempt, DaemonView daemon, String baseUrl,
      Optional<String> token, Path receiptsDir, PrintWriter out, PrintWriter err) throws IOException {
    String session = attempt.session().value();
    List<String> urls = token.flatMap(t -> daemon.conversationsOf(baseUrl, t, session)).map(RunCommand::urls).orElse(null);
    JsonNode report = null;
    if (cleanup) {
      report = token.flatMap(t -> daemon.deleteConversations(baseUrl, t, session)).orElseGet(() ->
          Json.MAPPER.createObjectNode().put("ok", false)
              .put("detail", "solwebd did not answer the delete; the conversations were kept"));
      JsonNode summary = report.path("summary");
      String line = summary.isMissingNode() ? report.path("detail").asText()
          : summary.path("deleted").asInt() + " deleted, " + summary.path("not_found").asInt() + " not found, "
              + summary.path("already_deleted").asInt() + " already deleted, " + summary.path("skipped").asInt()
              + " skipped, " + summary.path("failed").asInt() + " failed";
      (report.path("ok").asBoolean() ? out : err).println("cleanup: " + line);
    } else if (urls != null && !urls.isEmpty()) {
      out.println("conversations kept: " + String.join(" ", urls) + " (factory-gpt run --cleanup deletes them)");
    }
    return new ReceiptWriter(receiptsDir, attempt.redactor()).write(done.receipt().withConversations(urls, report));
  }

  private static List<String> urls(JsonNode listing) {
    List<String> urls = new java.util.ArrayList<>();
    for (JsonNode c : listing.path("data")) {
      if (c.hasNonNull("url")) {
        urls.add(c.path("url").asText());
      }
    }
    return urls;
  }

  private SolAttempt.Result awaitWithProgress(CompletableFuture<SolAttempt.Result> running, DaemonView daemon, String baseUrl,
      Optional<String> token, String clientSession, long started, AtomicReference<String> lastNote, PrintWriter out)
      throws ExecutionException {
    while (true) {
      try {
        return running.get(Math.max(1, progressSeconds), TimeUnit.SECONDS);
      } catch (TimeoutException e) {
        long elapsed = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
        Optional<JsonNode> health = token.flatMap(t -> daemon.healthz(baseUrl, t));
        String daemonState = health.map(RunCommand::describe).orElse("daemon state unknown")
            + health.flatMap(h -> LiveTurns.ofClient(h, clientSession)).map(turn -> "; " + turn.line()).orElse("");
        String note = lastNote.get();
        out.println("[" + elapsed + "s] waiting: " + daemonState + (note.isEmpty() ? "" : "; last: " + note));
        out.flush();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new ExecutionException(e);
      }
    }
  }

  private static String describe(JsonNode h) {
    StringBuilder sb = new StringBuilder("state=" + h.path("state").asText("?"));
    sb.append(" queue=").append(h.path("queue").asInt()).append(" active=").append(h.path("active").asInt())
        .append(" seats=").append(h.path("seats").asInt());
    if (h.hasNonNull("dispatch_wait_s")) {
      sb.append(" dispatch_wait_s=").append(h.path("dispatch_wait_s").asText());
    }
    if (h.hasNonNull("cap_resume_at")) {
      sb.append(" cap_resume_at=").append(h.path("cap_resume_at").asText());
    }
    return sb.toString();
  }
}

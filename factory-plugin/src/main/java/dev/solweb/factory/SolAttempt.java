package dev.solweb.factory;

import dev.solweb.factory.pi.AgentDirMaterializer;
import dev.solweb.factory.pi.PiRequest;
import dev.solweb.factory.pi.PiResult;
import dev.solweb.factory.pi.PiRunner;
import dev.solweb.factory.receipt.AttemptReceipt;
import dev.solweb.factory.receipt.ReceiptWriter;
import dev.solweb.factory.receipt.Redactor;
import dev.solweb.factory.retry.RetryPolicy;
import dev.solweb.factory.session.ClientSession;
import dev.solweb.provider.model.Effort;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The facade Factory calls around each attempt (its {@code agent_pi.run} equivalent): derive the
 * client session, materialize the account agent dir, run Pi on {@code gpt/sol-web-<effort>} to the
 * real end, write the redacted receipt, and say what the retry gate allows. Run
 * {@link dev.solweb.factory.preflight.Preflight} first, once per Factory session.
 *
 * <pre>
 * SolAttempt attempt = SolAttempt.prepare(spec);   // refuses bad ids/efforts before any spawn
 * SolAttempt.Result r = attempt.run(progress::print); // attempt.cancel() from any thread
 * r.receiptFile(); r.decision().mayRetryNow();
 * </pre>
 */
public final class SolAttempt {

  /**
   * One attempt.
   *
   * @param factorySessionId the raw Factory session id; hashed here, never passed on
   * @param managedAgentDir the installed default Pi agent dir (its models.json is the provider)
   * @param accountAgentDir the account's own {@code PI_CODING_AGENT_DIR}, materialized here
   * @param env the parent environment Pi's is derived from (secrets are dropped)
   * @param knownSecrets values to scrub everywhere (the solweb token, when this process holds it)
   * @param host where solwebd runs (from ProviderHealth), for the receipt
   * @param account the ChatGPT account (from ProviderHealth), for the receipt
   */
  public record Spec(String factorySessionId, int attempt, Effort effort, Path workspace, String task,
      List<String> tools, Duration timeout, Path piBin, Path managedAgentDir, Path accountAgentDir,
      Path receiptsDir, Map<String, String> env, Set<String> knownSecrets, String host, String account) {
    public Spec {
      Objects.requireNonNull(effort, "effort");
      Objects.requireNonNull(receiptsDir, "receiptsDir");
      tools = List.copyOf(tools);
    }
  }

  /** What the attempt produced; the receipt is already on disk. */
  public record Result(PiResult pi, AttemptReceipt receipt, Path receiptFile, RetryPolicy.Decision decision) {}

  private final Spec spec;
  private final ClientSession session;
  private final PiRunner runner;
  private final Path stderrLog;

  private SolAttempt(Spec spec, ClientSession session, PiRunner runner, Path stderrLog) {
    this.spec = spec;
    this.session = session;
    this.runner = runner;
    this.stderrLog = stderrLog;
  }

  /**
   * Checks the spec and materializes the agent dir; spawns nothing.
   *
   * @throws IllegalArgumentException for an empty or non-UTF-8 session id, the instant effort, or
   *     an empty task
   * @throws IOException when the agent dir cannot be materialized
   */
  public static SolAttempt prepare(Spec spec) throws IOException {
    if (spec.effort() == Effort.INSTANT) {
      throw new IllegalArgumentException("effort instant is not offered to Factory");
    }
    ClientSession session = ClientSession.derive(spec.factorySessionId());
    AgentDirMaterializer.materialize(spec.managedAgentDir(), spec.accountAgentDir());
    String stamp = Instant.now().toString().replace(":", "").replace("-", "");
    Path stderrLog = spec.receiptsDir().resolve("logs").resolve("pi-" + stamp + "-" + spec.attempt() + ".stderr.log");
    PiRunner runner = new PiRunner(new PiRequest(spec.piBin(), spec.workspace().toAbsolutePath(),
        spec.accountAgentDir(), session, "gpt/" + spec.effort().modelId(), spec.tools(), spec.task(), spec.timeout(),
        stderrLog, spec.env(), spec.knownSecrets()));
    return new SolAttempt(spec, session, runner, stderrLog);
  }

  /** The derived identity Pi sends as {@code X-Overdeck-Client-Session}. */
  public ClientSession session() {
    return session;
  }

  /** The scrubber this attempt applies to logs and receipts (for printing the answer safely). */
  public Redactor redactor() {
    return runner.redactor();
  }

  /**
   * Runs the phase and writes the receipt. Failures of the attempt are in the result, not thrown.
   *
   * @throws IOException when Pi cannot be spawned or the receipt cannot be written
   */
  public Result run(Consumer<String> progress) throws IOException {
    PiResult result = runner.run(progress);
    AttemptReceipt receipt = AttemptReceipt.of(new AttemptReceipt.Context(spec.attempt(), spec.effort(), spec.host(),
        spec.account(), session.value(), stderrLog.toString()), result);
    Path file = new ReceiptWriter(spec.receiptsDir(), runner.redactor()).write(receipt);
    return new Result(result, receipt, file, RetryPolicy.decide(result));
  }

  /** Ends the attempt at once (Pi and every tool process killed); {@link #run} returns cancelled. */
  public void cancel() {
    runner.cancel();
  }
}

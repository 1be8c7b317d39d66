package dev.solweb.factory.receipt;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.JsonNode;
import dev.solweb.factory.pi.Compaction;
import dev.solweb.factory.pi.PiResult;
import dev.solweb.factory.pi.ToolEvent;
import dev.solweb.factory.retry.RetryPolicy;
import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.model.Effort;
import java.time.Duration;
import java.util.List;

/**
 * What one attempt did, as Factory records it in {@code agent_attempt_end} (seed 001,
 * "Typed provider failures" 3, "Observability"). Written as one JSON file per attempt by
 * {@link ReceiptWriter}, which redacts it first.
 *
 * <p>Identity is the derived client session only; the raw Factory session id is never here.
 * Billing is the string {@code "unavailable"}: the provider's usage is an estimate of context
 * occupancy, never a measured cost, so no zero cost is ever shown.
 */
@JsonPropertyOrder({"schema", "attempt", "coding_agent", "provider", "model", "effort", "host", "account",
    "client_session", "pi_session_id", "started_at", "ended_at", "duration_ms", "outcome", "provider_failure",
    "error_message", "retry", "tool_events", "protocol_repairs", "compactions", "context_occupancy", "billing",
    "stderr_log", "report", "report_missing", "final_text", "conversations", "cleanup"})
public record AttemptReceipt(
    @JsonProperty("schema") String schema,
    @JsonProperty("attempt") int attempt,
    @JsonProperty("coding_agent") String codingAgent,
    @JsonProperty("provider") String provider,
    @JsonProperty("model") String model,
    @JsonProperty("effort") String effort,
    @JsonProperty("host") String host,
    @JsonProperty("account") String account,
    @JsonProperty("client_session") String clientSession,
    @JsonProperty("pi_session_id") String piSessionId,
    @JsonProperty("started_at") String startedAt,
    @JsonProperty("ended_at") String endedAt,
    @JsonProperty("duration_ms") long durationMs,
    @JsonProperty("outcome") String outcome,
    @JsonProperty("provider_failure") FailureView providerFailure,
    @JsonProperty("error_message") String errorMessage,
    @JsonProperty("retry") RetryView retry,
    @JsonProperty("tool_events") List<ToolEvent> toolEvents,
    @JsonProperty("protocol_repairs") List<String> protocolRepairs,
    @JsonProperty("compactions") List<Compaction> compactions,
    @JsonProperty("context_occupancy") Occupancy contextOccupancy,
    @JsonProperty("billing") String billing,
    @JsonProperty("stderr_log") String stderrLog,
    @JsonProperty("report") JsonNode report,
    @JsonProperty("report_missing") boolean reportMissing,
    @JsonProperty("final_text") String finalText,
    @JsonProperty("conversations") List<String> conversations,
    @JsonProperty("cleanup") JsonNode cleanup) {

  public static final String SCHEMA = "solweb.factory.attempt_receipt/v1";
  public static final String BILLING_UNAVAILABLE = "unavailable";
  /** solwebd's context window per conversation (seed 001, "Context occupancy"). */
  public static final long WINDOW = 120_000;
  private static final int FINAL_TEXT_BOUND = 20_000;

  /** The typed failure with all four fields present (null when absent). */
  @JsonPropertyOrder({"kind", "detail", "retry_after_seconds", "resume_at"})
  public record FailureView(
      @JsonProperty("kind") String kind,
      @JsonProperty("detail") String detail,
      @JsonProperty("retry_after_seconds") Long retryAfterSeconds,
      @JsonProperty("resume_at") String resumeAt) {
    static FailureView of(ProviderFailure f) {
      return f == null ? null : new FailureView(f.kind().wireName(), f.detail(), f.retryAfterSeconds(), f.resumeAt());
    }
  }

  @JsonPropertyOrder({"verdict", "reason", "resume_at"})
  public record RetryView(
      @JsonProperty("verdict") String verdict,
      @JsonProperty("reason") String reason,
      @JsonProperty("resume_at") String resumeAt) {}

  /** Context occupancy as solwebd estimated it (one token per UTF-8 byte); never measured. */
  @JsonPropertyOrder({"estimated", "input", "output", "window"})
  public record Occupancy(
      @JsonProperty("estimated") boolean estimated,
      @JsonProperty("input") long input,
      @JsonProperty("output") long output,
      @JsonProperty("window") long window) {}

  /** Where the attempt ran and as whom; everything here is already safe to record. */
  public record Context(int attempt, Effort effort, String host, String account, String clientSession,
      String stderrLog) {}

  public static AttemptReceipt of(Context ctx, PiResult result) {
    RetryPolicy.Decision decision = RetryPolicy.decide(result);
    JsonNode report = ReportExtractor.lastTopLevelObject(result.finalText()).orElse(null);
    String finalText = result.finalText();
    if (finalText != null && finalText.length() > FINAL_TEXT_BOUND) {
      finalText = finalText.substring(0, FINAL_TEXT_BOUND) + "...[" + (finalText.length() - FINAL_TEXT_BOUND)
          + " more chars]";
    }
    return new AttemptReceipt(SCHEMA, ctx.attempt(), "pi", "gpt", "gpt/" + ctx.effort().modelId(),
        ctx.effort().suffix(), ctx.host(), ctx.account(), ctx.clientSession(), result.piSessionId(),
        String.valueOf(result.startedAt()), String.valueOf(result.endedAt()),
        Duration.between(result.startedAt(), result.endedAt()).toMillis(), result.outcome().wireName(),
        FailureView.of(result.providerFailure()), result.errorMessage(),
        new RetryView(decision.verdict().wireName(), decision.reason(), decision.resumeAt()),
        result.toolEvents(), result.protocolRepairs(), result.compactions(),
        new Occupancy(true, result.estimatedInput(), result.estimatedOutput(), WINDOW),
        BILLING_UNAVAILABLE, ctx.stderrLog(), report, report == null, finalText, null, null);
  }

  /**
   * This receipt once the attempt ended, naming the ChatGPT conversations of its client session
   * (their URLs, from the daemon's registry; null when the daemon did not say) and what
   * {@code --cleanup} did with them (the daemon's delete report; null when not asked).
   */
  public AttemptReceipt withConversations(List<String> urls, JsonNode cleanupReport) {
    return new AttemptReceipt(schema, attempt, codingAgent, provider, model, effort, host, account, clientSession,
        piSessionId, startedAt, endedAt, durationMs, outcome, providerFailure, errorMessage, retry, toolEvents,
        protocolRepairs, compactions, contextOccupancy, billing, stderrLog, report, reportMissing, finalText,
        urls == null ? null : List.copyOf(urls), cleanupReport);
  }
}

package dev.solweb.factory.pi;

import dev.solweb.provider.failure.ProviderFailure;
import java.time.Instant;
import java.util.List;

/**
 * What one Pi phase produced, read to the real end (after retries and compactions).
 *
 * @param outcome how it ended
 * @param finalText the last assistant message's text ({@code ""} when none)
 * @param toolEvents every tool execution, in order
 * @param protocolRepairs tool calls Pi rejected before execution (unknown tool, invalid
 *     arguments) and answered with a bounded correction
 * @param compactions compactions Pi ran
 * @param retriesSeen {@code auto_retry_start} events (0 with the materialized settings)
 * @param providerFailure the typed failure recovered from Pi's error text, or null
 * @param errorMessage Pi's error text (redacted), or null
 * @param piSessionId Pi's own session id, when Pi reported it
 * @param estimatedInput cumulative estimated input tokens as solwebd reported them (usage)
 * @param estimatedOutput cumulative estimated output tokens
 * @param exitCode Pi's exit code, or null when it was killed
 */
public record PiResult(
    Outcome outcome,
    String finalText,
    List<ToolEvent> toolEvents,
    List<String> protocolRepairs,
    List<Compaction> compactions,
    int retriesSeen,
    ProviderFailure providerFailure,
    String errorMessage,
    String piSessionId,
    long estimatedInput,
    long estimatedOutput,
    Integer exitCode,
    Instant startedAt,
    Instant endedAt) {

  public PiResult {
    toolEvents = List.copyOf(toolEvents);
    protocolRepairs = List.copyOf(protocolRepairs);
    compactions = List.copyOf(compactions);
  }

  /** How a phase ended. Everything but COMPLETED is a failure of the attempt. */
  public enum Outcome {
    /** The final assistant message ended normally. */
    COMPLETED("completed"),
    /** The provider failed (typed when solwebd's metadata reached Pi). */
    FAILED("failed"),
    /** Pi itself failed: exited early, refused the prompt, emitted no final message. */
    ERROR("error"),
    /** The phase budget ran out; the process tree was killed. */
    TIMEOUT("timeout"),
    /** The caller cancelled; the process tree was killed. */
    CANCELLED("cancelled");

    private final String wireName;

    Outcome(String wireName) {
      this.wireName = wireName;
    }

    public String wireName() {
      return wireName;
    }
  }
}

package dev.solweb.factory.pi;

import com.fasterxml.jackson.databind.JsonNode;
import dev.solweb.factory.pi.PiResult.Outcome;
import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.platform.Json;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Follows Pi's RPC event stream for one prompt and decides when the run has REALLY ended.
 *
 * <p>Pi's first {@code agent_end} is not final (PI-FACTS §3-5): a retry emits a fresh
 * {@code agent_start..agent_end}, and a compaction after {@code agent_end} may be followed by a
 * retry of the prompt. Pi writes {@code auto_retry_start}/{@code compaction_start} in the same
 * tick as the {@code agent_end} that caused them, and handles RPC commands in later ticks, so a
 * {@code get_state} sent after reading {@code agent_end} is answered after any such event. The
 * run is over when that answer says idle (not streaming, not compacting) and no retry or
 * compaction is pending from the events seen. Fed one parsed line at a time; no I/O here.
 */
public final class RpcEventTracker {

  /** What the runner must do next. */
  public enum Step { CONTINUE, PROBE, PROBE_LATER, DONE }

  public static final String PROMPT_ID = "prompt-1";

  private final Map<String, Long> toolStarts = new HashMap<>();
  private final Map<String, String> toolArgs = new HashMap<>();
  private final List<ToolEvent> toolEvents = new ArrayList<>();
  private final List<String> protocolRepairs = new ArrayList<>();
  private final List<Compaction> compactions = new ArrayList<>();
  private JsonNode lastAssistant;
  private String promptRefusal;
  private String piSessionId;
  private String pendingCompactionReason;
  private boolean sawAgentEnd;
  private boolean retryPending;
  private boolean compacting;
  private boolean awaitingContinue;
  private int retries;
  private int probeSeq;
  private String outstandingProbe;
  private long estimatedInput;
  private long estimatedOutput;

  /** The prompt command to write on Pi's stdin. */
  public static String promptCommand(String task) {
    return Json.MAPPER.createObjectNode().put("id", PROMPT_ID).put("type", "prompt").put("message", task).toString();
  }

  /** A {@code get_state} probe; remember its id until its response arrives. */
  public String nextProbeCommand() {
    outstandingProbe = "state-" + (++probeSeq);
    return Json.MAPPER.createObjectNode().put("id", outstandingProbe).put("type", "get_state").toString();
  }

  public boolean probeOutstanding() {
    return outstandingProbe != null;
  }

  public Step accept(JsonNode event, long nowMillis) {
    String type = event.path("type").asText("");
    switch (type) {
      case "response" -> {
        return onResponse(event);
      }
      case "agent_start" -> {
        retryPending = false;
        awaitingContinue = false;
      }
      case "agent_end" -> {
        sawAgentEnd = true;
        JsonNode messages = event.path("messages");
        for (int i = messages.size() - 1; i >= 0; i--) {
          if ("assistant".equals(messages.get(i).path("role").asText())) {
            lastAssistant = messages.get(i);
            break;
          }
        }
        return Step.PROBE;
      }
      case "message_end" -> {
        JsonNode message = event.path("message");
        if ("assistant".equals(message.path("role").asText())) {
          lastAssistant = message;
          JsonNode usage = message.path("usage");
          if (usage.path("input").asLong(0) > 0 || usage.path("output").asLong(0) > 0) {
            estimatedInput = usage.path("input").asLong(0);
            estimatedOutput = usage.path("output").asLong(0);
          }
        }
      }
      case "tool_execution_start" -> {
        String id = event.path("toolCallId").asText("");
        toolStarts.put(id, nowMillis);
        toolArgs.put(id, event.path("args").toString());
      }
      case "tool_execution_end" -> onToolEnd(event, nowMillis);
      case "auto_retry_start" -> {
        retries++;
        retryPending = true;
      }
      case "auto_retry_end" -> {
        retryPending = false;
        return Step.PROBE;
      }
      case "compaction_start" -> {
        compacting = true;
        pendingCompactionReason = event.path("reason").asText(null);
      }
      case "compaction_end" -> {
        compacting = false;
        boolean willRetry = event.path("willRetry").asBoolean(false);
        awaitingContinue = willRetry;
        compactions.add(new Compaction(
            event.path("reason").asText(pendingCompactionReason),
            event.path("aborted").asBoolean(false),
            willRetry,
            event.hasNonNull("errorMessage") ? event.path("errorMessage").asText() : null));
        return Step.PROBE;
      }
      default -> {
        // message_update, turn_*, queue_update, extension UI: nothing to decide.
      }
    }
    return Step.CONTINUE;
  }

  private Step onResponse(JsonNode event) {
    String command = event.path("command").asText("");
    if ("prompt".equals(command) && !event.path("success").asBoolean(true)) {
      promptRefusal = event.path("error").asText("prompt refused");
      return Step.DONE;
    }
    if ("get_state".equals(command) && event.path("id").asText("").equals(outstandingProbe)) {
      outstandingProbe = null;
      JsonNode data = event.path("data");
      if (data.hasNonNull("sessionId")) {
        piSessionId = data.path("sessionId").asText();
      }
      boolean piIdle = !data.path("isStreaming").asBoolean(false) && !data.path("isCompacting").asBoolean(false);
      if (!sawAgentEnd) {
        return Step.CONTINUE;
      }
      if (retryPending || compacting || awaitingContinue) {
        return Step.CONTINUE;
      }
      return piIdle ? Step.DONE : Step.PROBE_LATER;
    }
    return Step.CONTINUE;
  }

  private void onToolEnd(JsonNode event, long nowMillis) {
    String id = event.path("toolCallId").asText("");
    long started = toolStarts.getOrDefault(id, nowMillis);
    boolean isError = event.path("isError").asBoolean(false);
    String result = textOf(event.path("result").path("content"));
    String tool = event.path("toolName").asText("");
    toolEvents.add(new ToolEvent(
        id, tool, ToolEvent.bound(toolArgs.getOrDefault(id, event.path("args").toString())),
        ToolEvent.bound(result), isError ? "error" : "ok", nowMillis - started));
    if (isError && (result.startsWith("Tool " + tool + " not found") || result.startsWith("Validation failed for tool"))) {
      protocolRepairs.add(ToolEvent.bound(result));
    }
  }

  private static String textOf(JsonNode content) {
    if (content.isTextual()) {
      return content.asText();
    }
    StringBuilder sb = new StringBuilder();
    for (JsonNode block : content) {
      if ("text".equals(block.path("type").asText())) {
        sb.append(block.path("text").asText());
      }
    }
    return sb.toString();
  }

  /** The result of a run that reached its end (DONE) or was ended by the runner. */
  public PiResult result(Outcome forced, ProviderFailure forcedFailure, String endNote,
      Integer exitCode, Instant startedAt, Instant endedAt) {
    Outcome outcome;
    ProviderFailure failure = null;
    String error = null;
    String finalText = lastAssistant == null ? "" : textOf(lastAssistant.path("content"));
    if (forced != null) {
      outcome = forced;
      failure = forcedFailure;
      error = endNote;
    } else if (promptRefusal != null) {
      outcome = Outcome.ERROR;
      error = "Pi refused the prompt: " + promptRefusal;
    } else if (lastAssistant == null) {
      outcome = Outcome.ERROR;
      error = "Pi ended without an assistant message";
    } else {
      String stop = lastAssistant.path("stopReason").asText("");
      switch (stop) {
        case "error" -> {
          error = lastAssistant.path("errorMessage").asText("");
          failure = FailureText.parse(error).orElse(null);
          outcome = Outcome.FAILED;
        }
        case "aborted" -> {
          outcome = Outcome.CANCELLED;
          error = "Pi reported the request aborted";
        }
        default -> outcome = Outcome.COMPLETED;
      }
    }
    return new PiResult(outcome, finalText, toolEvents, protocolRepairs, compactions, retries, failure, error,
        piSessionId, estimatedInput, estimatedOutput, exitCode, startedAt, endedAt);
  }
}

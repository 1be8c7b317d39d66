package dev.solweb.provider.sw;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.platform.Json;

/**
 * The single status line sw prints on stdout, built up as the run goes. Fields in a fixed order:
 * status, exit_code, task_slug, model, workspace, session_id, log, duration_s, then what applies:
 * resume_at and retry_after_seconds (capped), num_turns and result (Claude Code's final event; not
 * for a cap),
 * detail (why, when not completed). Never the solwebd token or the ccr key.
 */
final class RunStatus {
  private static final ObjectMapper JSON = Json.MAPPER;
  private static final int MAX_RESULT_CHARS = 4000;

  private final ObjectNode node = JSON.createObjectNode();

  RunStatus(String taskSlug, String model, String workspace) {
    node.putNull("status");
    node.putNull("exit_code");
    node.put("task_slug", taskSlug);
    node.put("model", model);
    node.put("workspace", workspace);
  }

  RunStatus sessionId(String id) {
    node.put("session_id", id);
    return this;
  }

  RunStatus log(String path) {
    node.put("log", path);
    return this;
  }

  RunStatus duration(double seconds) {
    node.put("duration_s", Math.round(seconds * 10) / 10.0);
    return this;
  }

  RunStatus cap(String resumeAt, long retryAfterSeconds) {
    node.put("resume_at", resumeAt);
    node.put("retry_after_seconds", retryAfterSeconds);
    return this;
  }

  RunStatus result(int numTurns, String text) {
    node.put("num_turns", numTurns);
    if (text != null) {
      node.put("result", text.length() > MAX_RESULT_CHARS ? text.substring(0, MAX_RESULT_CHARS) + "…" : text);
    }
    return this;
  }

  RunStatus detail(String detail) {
    node.put("detail", detail);
    return this;
  }

  /** Sets status and exit code; returns the line to print. */
  String finish(int exitCode) {
    if (exitCode == SwExit.CAPPED) {
      // Claude Code's text for a cap is ccr's wrapper around the 429 (with a JS stack trace);
      // resume_at is the fact, read from solwebd.
      node.remove("result");
    }
    node.put("status", SwExit.statusName(exitCode));
    node.put("exit_code", exitCode);
    return node.toString();
  }
}

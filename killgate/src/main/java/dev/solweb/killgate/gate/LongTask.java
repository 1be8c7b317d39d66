package dev.solweb.killgate.gate;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.factory.pi.Compaction;
import dev.solweb.factory.pi.PiResult;
import dev.solweb.factory.session.ClientSession;
import dev.solweb.provider.scenario.ScenarioPlayer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Issue 16's proof: a 40-turn task (39 tool calls, then the final answer) in ONE Pi prompt, as a
 * Factory phase runs it ({@code PiRunner}, RPC mode), whose tool results include nine file reads
 * of 40-50 KB (Pi's own read tool stops at 50 KB), two and three of them back to back, and a
 * stretch of eleven ~10 KB test logs whose check marks and box drawing make them about 1.3 UTF-8
 * bytes per character (Pi counts characters, solwebd bytes). Its new content is about five times
 * solwebd's 104000-token budget, so the task only completes if every
 * compaction Pi makes brings the next request under that budget: solwebd refuses (context_overflow,
 * nothing typed), Pi compacts and continues, solwebd replays into a fresh conversation.
 *
 * <p>The scripted model cannot read what it is sent, so it is keyed by what a conversation's first
 * text holds: every file starts with its marker {@code <<K16-Rnn>>}, and a replay takes the script
 * that continues after the newest marker it carries (scripts are ordered newest first). Summary
 * requests (Pi's "context summarization assistant") take a fixed, realistically long summary.
 *
 * <p>Three scripts of the same task (issue 24): {@link Script#SINGLE}, one call per reply;
 * {@link Script#BATCHED}, the reads made together as a model that listed the files (and their
 * sizes) makes them: up to {@link #BATCH} per reply while their results stay under
 * {@link #BATCH_CHARS}, a large file alone; and {@link Script#BATCHED_BLIND}, {@link #BATCH}
 * consecutive reads per reply whatever their size. A replay resumes after the newest reply's
 * calls it carries.
 */
final class LongTask {

  /** How the scripted model makes its 39 calls. */
  enum Script {
    /** One call per reply: 39 tool turns. */
    SINGLE,
    /** Up to {@link #BATCH} reads per reply, their results under {@link #BATCH_CHARS} together. */
    BATCHED,
    /** {@link #BATCH} consecutive reads per reply, two 45 KB files together too. */
    BATCHED_BLIND
  }

  /** Calls per reply of the batched scripts. */
  static final int BATCH = 4;
  /**
   * What one reply's results may hold in the size-aware script: two thirds of what Pi keeps at a
   * compaction (keepRecentTokens 15000, about 60000 characters), so a compaction right after the
   * reply keeps all of its results, as it keeps one large read. A reply whose results are over
   * that window is summarized away whole (measured with {@link Script#BATCHED_BLIND}).
   */
  static final int BATCH_CHARS = 40_000;

  static final int TURNS = 40;
  static final Set<Integer> LARGE = Set.of(5, 6, 12, 17, 18, 19, 33, 34, 37);
  static final int LOGS_FROM = 21;
  static final int LOGS_TO = 31;
  static final String TASK = "K16-TASK: read the files f01.txt to f39.txt of this workspace in order, one per"
      + " step, then report what you read.";
  static final String REPORT = "{\"status\":\"done\",\"files_changed\":[]}";
  static final String FINAL = "K16 done: read 39 files.\n" + REPORT;
  static final String SUMMARIZER = "You are a context summarization assistant";
  /** How many summary requests the scenario can answer (a split-turn compaction makes two). */
  static final int SUMMARIES = 24;

  private LongTask() {}

  /** What one run measured. */
  record Outcome(boolean completed, String summary, ObjectNode evidence, List<Integer> typed) {}

  static String marker(int step) {
    return String.format("<<K16-R%02d>>", step);
  }

  /** A file read of 40-50 KB (ASCII source text). */
  static boolean large(int step) {
    return LARGE.contains(step);
  }

  /** A test log of about 10 KB with check marks and box drawing (UTF-8: more bytes than characters). */
  static boolean log(int step) {
    return step >= LOGS_FROM && step <= LOGS_TO;
  }

  static String fileText(int step) {
    String head = marker(step) + "\n";
    if (large(step)) {
      return head + Check09Compaction.blob(40_000 + (step * 1_237) % 9_500, (char) ('a' + step));
    }
    if (log(step)) {
      return head + testLog(9_000 + (step * 397) % 1_500, step);
    }
    return head + Check09Compaction.blob(1_000 + (step * 211) % 2_000, (char) ('a' + step));
  }

  /**
   * What a test runner prints: a box-drawn header per suite, then a check-marked line per test;
   * about 1.3 UTF-8 bytes per character, so solwebd (bytes) counts more than Pi (characters).
   */
  static String testLog(int size, int seed) {
    StringBuilder sb = new StringBuilder(size + 2_000);
    for (int suite = 0; sb.length() < size; suite++) {
      sb.append("\u256d").append("\u2500".repeat(58)).append("\u256e\n");
      sb.append(String.format("\u2502 suite %02d-%03d %-45s\u2502%n", seed, suite, "src/module" + suite + ".test.ts"));
      sb.append("\u2570").append("\u2500".repeat(58)).append("\u256f\n");
      for (int test = 0; test < 20; test++) {
        sb.append(String.format(" \u2713 src/module%d.test.ts > parses case %d (%d ms)%n", suite, test,
            (seed * 7 + test) % 40));
      }
    }
    return sb.toString();
  }

  /** The one-call-per-reply scenario with instant answers. */
  static String scenario() {
    return scenario(Script.SINGLE, 0);
  }

  /**
   * The scenario: summaries first, then one script per resume point (newest first: after the
   * last call of each reply), then the task.
   *
   * @param delayMs how long every answer takes (0: at once)
   */
  static String scenario(Script script, int delayMs) {
    ObjectNode scenario = Scenarios.scenario();
    for (int i = 0; i < SUMMARIES; i++) {
      Scenarios.script(scenario, SUMMARIZER, delayed(Scenarios.fin(summaryText()), delayMs));
    }
    List<List<Integer>> replies = replies(script);
    for (int r = replies.size() - 1; r >= 1; r--) {
      List<Integer> before = replies.get(r - 1);
      Scenarios.script(scenario, marker(before.get(before.size() - 1)), steps(replies.subList(r, replies.size()), delayMs));
    }
    Scenarios.script(scenario, "K16-TASK", steps(replies, delayMs));
    return scenario.toString();
  }

  /** The steps each tool reply of {@code script} calls, in order. */
  static List<List<Integer>> replies(Script script) {
    List<List<Integer>> replies = new ArrayList<>();
    List<Integer> current = new ArrayList<>();
    long chars = 0;
    for (int step = 1; step < TURNS; step++) {
      int size = fileText(step).length();
      boolean full = switch (script) {
        case SINGLE -> !current.isEmpty();
        case BATCHED -> current.size() == BATCH || chars + size > BATCH_CHARS;
        case BATCHED_BLIND -> current.size() == BATCH;
      };
      if (full && !current.isEmpty()) {
        replies.add(List.copyOf(current));
        current.clear();
        chars = 0;
      }
      current.add(step);
      chars += size;
    }
    replies.add(List.copyOf(current));
    return replies;
  }

  private static ObjectNode delayed(ObjectNode reply, int delayMs) {
    return delayMs > 0 ? reply.put("delay_ms", delayMs) : reply;
  }

  private static ObjectNode[] steps(List<List<Integer>> replies, int delayMs) {
    List<ObjectNode> answers = new ArrayList<>();
    for (List<Integer> steps : replies) {
      List<ObjectNode> calls = steps.stream().map(LongTask::call).toList();
      answers.add(delayed(calls.size() == 1 ? Scenarios.blocks(calls.get(0).toString()) : batch(calls), delayMs));
    }
    answers.add(delayed(Scenarios.fin(FINAL), delayMs));
    return answers.toArray(ObjectNode[]::new);
  }

  /** Step {@code step}'s call: a read, every fourth a bash cat. */
  private static ObjectNode call(int step) {
    String file = String.format("f%02d.txt", step);
    ObjectNode call = Scenarios.args().put("tool", step % 4 == 3 ? "bash" : "read");
    call.set("arguments", step % 4 == 3 ? Scenarios.args().put("command", "cat " + file) : Scenarios.args().put("path", file));
    return call;
  }

  private static ObjectNode batch(List<ObjectNode> calls) {
    ObjectNode block = Scenarios.args();
    calls.forEach(block.putArray("calls")::add);
    return Scenarios.blocks(block.toString());
  }

  /** About 4 KB: the shape Pi asks for, the length a real summary of such a task has. */
  static String summaryText() {
    StringBuilder sb = new StringBuilder("## Goal\nK16-SUMMARY: read f01.txt to f39.txt in order, one per step, "
        + "then report.\n\n## Constraints & Preferences\n- one file per step\n\n## Progress\n### Done\n");
    for (int i = 1; i <= 39; i++) {
      sb.append(String.format("- [x] f%02d.txt read: its marker line and its data lines noted%n", i));
    }
    sb.append("\n### In Progress\n- [ ] the next file in order\n\n## Key Decisions\n- **Order**: strictly by name\n"
        + "\n## Next Steps\n1. Continue with the next file\n\n## Critical Context\n");
    while (sb.length() < 4_000) {
      sb.append("- files are plain text or test logs, one marker line each, then data lines\n");
    }
    return sb.toString();
  }

  /** Writes f01..f39 into {@code workspace}; returns their total size in characters. */
  static long writeFiles(Path workspace) throws Exception {
    long total = 0;
    for (int step = 1; step < TURNS; step++) {
      String text = fileText(step);
      Files.writeString(workspace.resolve(String.format("f%02d.txt", step)), text);
      total += text.length();
    }
    return total;
  }

  /**
   * Runs the task once.
   *
   * @param agentDir the Pi agent dir (the materialized one: shipped settings; or Pi's defaults)
   */
  static Outcome run(Rig rig, String name, Path agentDir) throws Exception {
    return run(rig, name, agentDir, Duration.ofSeconds(600));
  }

  /** As {@link #run(Rig, String, Path)}, the Pi phase bounded by {@code timeout}. */
  static Outcome run(Rig rig, String name, Path agentDir, Duration timeout) throws Exception {
    long contentChars = writeFiles(rig.workspace) + TASK.length();
    long t0 = System.currentTimeMillis();
    ClientSession session = ClientSession.derive("killgate-" + name);
    Rig.Run run = rig.run(rig.runner(session, TASK, timeout, agentDir), session);
    long wall = System.currentTimeMillis() - t0;
    PiResult r = run.result();
    List<ScenarioPlayer.Send> sends = rig.sends();
    List<RecordingProxy.Exchange> requests = rig.proxy.completions();

    Set<String> taskConversations = new LinkedHashSet<>();
    long typed = 0;
    long largestFresh = 0;
    int summaryRequests = 0;
    String previous = null;
    for (ScenarioPlayer.Send send : sends) {
      typed += send.text().length();
      boolean summary = send.text().contains(SUMMARIZER);
      if (summary) {
        summaryRequests++;
      } else if (!send.conversationId().equals(previous) && taskConversations.add(send.conversationId())) {
        largestFresh = Math.max(largestFresh, send.text().getBytes(StandardCharsets.UTF_8).length);
      }
      previous = summary ? previous : send.conversationId();
    }
    int replays = Math.max(0, taskConversations.size() - 1);
    long refused = requests.stream().filter(x -> x.responseText().contains("context_overflow")).count();
    int toolsOk = (int) r.toolEvents().stream().filter(t -> t.status().equals("ok")).count();
    boolean completed = r.outcome() == PiResult.Outcome.COMPLETED && FINAL.equals(r.finalText())
        && toolsOk == TURNS - 1;
    long occupancy = r.estimatedInput() + r.estimatedOutput();

    ObjectNode evidence = Gate.evidence();
    evidence.put("completed", completed).put("outcome", r.outcome().wireName())
        .put("final_text", String.valueOf(r.finalText())).put("error", String.valueOf(r.errorMessage()))
        .put("tool_calls_ok", toolsOk).put("requests", requests.size())
        .put("refused_context_overflow", refused).put("compactions", r.compactions().size())
        .put("summary_requests", summaryRequests).put("replays_into_fresh_conversations", replays)
        .put("chars_typed", typed).put("task_new_content_chars", contentChars)
        .put("largest_fresh_replay_bytes", largestFresh)
        .put("final_occupancy_estimate", occupancy).put("final_estimated_input", r.estimatedInput())
        .put("final_estimated_output", r.estimatedOutput()).put("wall_ms", wall)
        .put("page_turns", sends.size()).put("tool_turns", sends.size() - summaryRequests);
    ArrayNode c = evidence.putArray("pi_compactions");
    for (Compaction x : r.compactions()) {
      c.addObject().put("reason", x.reason()).put("will_retry", x.willRetry()).put("aborted", x.aborted())
          .put("error", x.error());
    }
    ArrayNode s = evidence.putArray("seat_sends");
    for (ScenarioPlayer.Send send : sends) {
      s.add(send.conversationId().substring(0, 8) + " " + send.text().length() + "ch/"
          + send.text().getBytes(StandardCharsets.UTF_8).length + "B"
          + (send.text().contains(SUMMARIZER) ? " summary-request" : ""));
    }
    ArrayNode sizes = evidence.putArray("request_bytes_status");
    requests.forEach(x -> sizes.add(x.body.length() + ":" + x.status
        + (x.responseText().contains("context_overflow") ? ":overflow" : "")));
    String summary = (completed ? "completed" : "did not complete (" + r.outcome().wireName() + ": "
        + r.errorMessage() + ")") + "; " + toolsOk + " tool calls; " + r.compactions().size() + " compactions; "
        + replays + " replays; " + sends.size() + " page turns (" + summaryRequests + " summaries); typed " + typed
        + " of " + contentChars + " new chars; final occupancy " + occupancy
        + "; " + wall / 1000 + " s";
    return new Outcome(completed, summary, evidence, Checks.typed(sends));
  }
}

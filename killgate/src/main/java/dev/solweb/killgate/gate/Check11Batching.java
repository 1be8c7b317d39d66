package dev.solweb.killgate.gate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.factory.pi.PiResult;
import dev.solweb.factory.pi.ToolEvent;
import dev.solweb.factory.session.ClientSession;
import dev.solweb.provider.scenario.ScenarioPlayer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * 11. Several tool calls in one reply (issue 24): the same task (read three files, write what they
 * hold, report) solved twice by Pi, once by a model that makes one call per reply and once by one
 * that makes the three reads in one reply ({@code {"calls": [...]}}). Both must be correct (every
 * read ran and returned its file, the written file and the Report right), the batched run's three
 * results must reach the page in ONE send, in call order, under their TOOL RESULT headers, and it
 * must take fewer page turns. Control: batching broken, as a daemon that allows one call per reply
 * ({@code SOLWEBD_MAX_CALLS=1}) breaks it: the same batched model must fail the check.
 */
final class Check11Batching implements GateCheck {

  static final String[] FILES = {"k11-a.txt", "k11-b.txt", "k11-c.txt"};
  static final String[] CONTENTS = {"K11-ALPHA first file\n", "K11-BETA second file\n", "K11-GAMMA third file\n"};
  static final String OUT = "k11-out.txt";
  static final String OUT_CONTENT = "ALPHA BETA GAMMA\n";
  static final String REPORT = "{\"status\":\"done\",\"files_changed\":[\"k11-out.txt\"]}";
  static final String TASK = "K11: read k11-a.txt, k11-b.txt and k11-c.txt, write their first words to k11-out.txt, report";

  @Override
  public int number() {
    return 11;
  }

  @Override
  public String title() {
    return "Several tool calls in one reply -> every result in one page turn, fewer turns";
  }

  @Override
  public CheckResult run(Gate gate) throws Exception {
    long t0 = System.currentTimeMillis();
    Outcome single = solve(gate, "check11-single", singleCalls(), GateDaemon.Settings.shipped());
    Outcome batched = solve(gate, "check11-batched", batchedCalls(), GateDaemon.Settings.shipped());
    boolean fewer = batched.turns < single.turns;
    boolean passed = single.correct && batched.correct && batched.resultsInOneSend && fewer;
    ObjectNode evidence = Gate.evidence();
    evidence.set("single_calls", single.evidence);
    evidence.set("batched_calls", batched.evidence);
    evidence.put("page_turns_single", single.turns).put("page_turns_batched", batched.turns)
        .put("chars_typed_single", single.typedChars).put("chars_typed_batched", batched.typedChars);
    String summary = "single calls: " + single.summary + "; batched: " + batched.summary + "; page turns "
        + single.turns + " -> " + batched.turns;

    GateDaemon.Settings broken = GateDaemon.Settings.shipped().maxCalls(gate.isBroken(11) ? 8 : 1);
    Outcome control = solve(gate, "check11-control", batchedCalls(), broken);
    boolean controlPasses = single.correct && control.correct && control.resultsInOneSend && control.turns < single.turns;
    List<Integer> typed = new ArrayList<>(single.typed);
    typed.addAll(batched.typed);
    typed.addAll(control.typed);
    return new CheckResult(number(), title(), passed, summary, evidence,
        "the batched model against a daemon that allows one call per reply (SOLWEBD_MAX_CALLS=" + broken.maxCalls() + ")",
        !controlPasses, control.summary, control.evidence, 1, System.currentTimeMillis() - t0,
        single.requests + batched.requests + control.requests, typed);
  }

  private static ObjectNode read(int i) {
    return Scenarios.args().put("path", FILES[i]);
  }

  private static ObjectNode[] tail() {
    return new ObjectNode[] {Scenarios.tool("write", Scenarios.args().put("path", OUT).put("content", OUT_CONTENT)),
        Scenarios.fin("Wrote k11-out.txt.\n" + REPORT)};
  }

  static String singleCalls() {
    ObjectNode[] tail = tail();
    return Scenarios.defaults(Scenarios.tool("read", read(0)), Scenarios.tool("read", read(1)),
        Scenarios.tool("read", read(2)), tail[0], tail[1]);
  }

  static String batchedCalls() {
    ObjectNode block = Gate.evidence();
    ArrayNode calls = block.putArray("calls");
    for (int i = 0; i < FILES.length; i++) {
      calls.addObject().put("tool", "read").set("arguments", read(i));
    }
    ObjectNode[] tail = tail();
    return Scenarios.defaults(Scenarios.blocks(block.toString()), tail[0], tail[1]);
  }

  private record Outcome(boolean correct, boolean resultsInOneSend, int turns, long typedChars, int requests,
      String summary, ObjectNode evidence, List<Integer> typed) {}

  private static Outcome solve(Gate gate, String name, String scenario, GateDaemon.Settings settings) throws Exception {
    try (Rig rig = gate.rig(name, scenario, settings)) {
      for (int i = 0; i < FILES.length; i++) {
        Files.writeString(rig.workspace.resolve(FILES[i]), CONTENTS[i]);
      }
      Rig.Run run = rig.run(ClientSession.derive("killgate-" + name), TASK, Duration.ofSeconds(120));
      PiResult r = run.result();
      List<ToolEvent> tools = r.toolEvents();
      boolean readsOk = true;
      for (int i = 0; i < FILES.length; i++) {
        String expected = CONTENTS[i].strip();
        readsOk &= tools.stream().filter(t -> t.tool().equals("read") && t.status().equals("ok")
            && t.result().contains(expected)).count() == 1;
      }
      Path out = rig.workspace.resolve(OUT);
      String written = Files.isRegularFile(out) ? Files.readString(out) : null;
      JsonNode report = run.receipt().path("report");
      boolean reportOk = report.toString().equals(REPORT) && !run.receipt().path("report_missing").asBoolean(true);
      boolean correct = r.outcome() == PiResult.Outcome.COMPLETED && readsOk && OUT_CONTENT.equals(written) && reportOk;

      List<ScenarioPlayer.Send> sends = rig.sends();
      int inOneSend = -1;
      for (int s = 0; s < sends.size(); s++) {
        if (inCallOrder(sends.get(s).text())) {
          inOneSend = s;
        }
      }
      long typedChars = sends.stream().mapToLong(send -> send.text().length()).sum();
      int requests = rig.proxy.completions().size();
      // What Pi sends back after a reply with several calls: how many tool messages per request.
      ArrayNode toolMessages = Gate.evidence().arrayNode();
      for (RecordingProxy.Exchange x : rig.proxy.completions()) {
        JsonNode messages = dev.solweb.provider.platform.Json.MAPPER.readTree(x.body).path("messages");
        int count = 0;
        for (JsonNode message : messages) {
          count += message.path("role").asText().equals("tool") ? 1 : 0;
        }
        toolMessages.add(count);
      }
      ObjectNode evidence = Gate.evidence();
      evidence.put("outcome", r.outcome().wireName()).put("error", String.valueOf(r.errorMessage()))
          .put("reads_ok", readsOk).put("k11_out", written == null ? "(absent)" : written.strip())
          .put("page_turns", sends.size()).put("chars_typed", typedChars).put("requests", requests)
          .put("three_results_in_one_send_in_call_order", inOneSend >= 0)
          .put("max_calls_per_reply", settings.maxCalls());
      evidence.set("tool_messages_per_request", toolMessages);
      evidence.set("receipt_report", report);
      evidence.set("receipt_provider_failure", run.receipt().path("provider_failure"));
      ArrayNode events = evidence.putArray("tool_events");
      tools.forEach(t -> events.addObject().put("tool", t.tool()).put("status", t.status()).put("args", t.args()));
      ArrayNode sent = evidence.putArray("seat_sends");
      sends.forEach(send -> sent.add(send.text().length() + " chars: " + firstLine(send.text())));
      String summary = (correct ? "correct" : "NOT correct (" + r.outcome().wireName() + ", reads " + readsOk
          + ", k11-out.txt " + (written == null ? "absent" : "\"" + written.strip() + "\"") + ", report " + reportOk + ")")
          + ", " + sends.size() + " page turns, " + requests + " requests, " + typedChars + " chars typed"
          + (inOneSend >= 0 ? ", the three results in send " + (inOneSend + 1) : "");
      return new Outcome(correct, inOneSend >= 0, sends.size(), typedChars, requests, summary, evidence,
          Checks.typed(sends));
    }
  }

  /** One typed text holding every file's content, each under a TOOL RESULT header, in call order. */
  static boolean inCallOrder(String text) {
    int at = -1;
    for (String content : CONTENTS) {
      int found = text.indexOf("]\n" + content.strip());
      if (found <= at || text.lastIndexOf("TOOL RESULT [", found) < at) {
        return false;
      }
      at = found;
    }
    return true;
  }

  private static String firstLine(String text) {
    int newline = text.indexOf('\n');
    return newline < 0 ? text : text.substring(0, newline);
  }
}

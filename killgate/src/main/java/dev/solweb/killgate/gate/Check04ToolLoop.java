package dev.solweb.killgate.gate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.factory.pi.PiResult;
import dev.solweb.factory.pi.ToolEvent;
import dev.solweb.factory.session.ClientSession;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * 4. Tool call, tool result, final Report: Pi executes a {@code write} and a {@code bash} tool and
 * the final text carries a Report JSON the receipt parses. Also measures Pi's tool-step overhead:
 * from the end of the response carrying a tool call to the start of the next request, minus the
 * tool's own run time. Control: a Malformed reply twice must give a typed {@code protocol}
 * failure and no Report.
 */
final class Check04ToolLoop implements GateCheck {

  static final String REPORT = "{\"status\":\"done\",\"files_changed\":[\"k4.txt\"]}";

  @Override
  public int number() {
    return 4;
  }

  @Override
  public String title() {
    return "Tool call -> tool result -> final Report (write + bash)";
  }

  @Override
  public CheckResult run(Gate gate) throws Exception {
    long t0 = System.currentTimeMillis();
    String good = Scenarios.defaults(
        Scenarios.tool("write", Scenarios.args().put("path", "k4.txt").put("content", "alpha\n")),
        Scenarios.tool("bash", Scenarios.args().put("command", "cat k4.txt && echo BASH_OK")),
        Scenarios.fin("Wrote and checked k4.txt.\n" + REPORT));
    String bad = gate.isBroken(4) ? good : Scenarios.defaults(Scenarios.malformed(), Scenarios.malformed());
    Outcome main = runOnce(gate, "check4", good);
    Outcome control = runOnce(gate, "check4-control", bad);
    List<Integer> typed = new ArrayList<>(main.typed);
    typed.addAll(control.typed);
    String controlKind = control.receipt.path("provider_failure").path("kind").asText("none");
    boolean controlFailed = !control.passed && controlKind.equals("protocol");
    main.evidence.set("tool_step_overhead_ms", main.overhead);
    return new CheckResult(number(), title(), main.passed, main.summary, main.evidence,
        "a Malformed reply (two fenced blocks) twice", controlFailed,
        "no Report; receipt provider_failure.kind=" + controlKind + " after " + control.requests + " request(s)",
        control.evidence, 1, System.currentTimeMillis() - t0, main.requests + control.requests, typed);
  }

  private record Outcome(boolean passed, String summary, ObjectNode evidence, JsonNode receipt, int requests,
      List<Integer> typed, ArrayNode overhead) {}

  private static Outcome runOnce(Gate gate, String name, String scenario) throws Exception {
    try (Rig rig = gate.rig(name, scenario)) {
      Rig.Run run = rig.run(ClientSession.derive("killgate-" + name), "K4: write k4.txt, check it, report",
          Duration.ofSeconds(120));
      PiResult r = run.result();
      Path file = rig.workspace.resolve("k4.txt");
      String content = Files.isRegularFile(file) ? Files.readString(file) : null;
      List<ToolEvent> tools = r.toolEvents();
      boolean writeOk = tools.size() >= 1 && tools.get(0).tool().equals("write") && tools.get(0).status().equals("ok");
      boolean bashOk = tools.size() >= 2 && tools.get(1).tool().equals("bash") && tools.get(1).status().equals("ok")
          && tools.get(1).result().contains("BASH_OK");
      JsonNode report = run.receipt().path("report");
      boolean reportOk = report.toString().equals(REPORT) && !run.receipt().path("report_missing").asBoolean(true);
      List<RecordingProxy.Exchange> requests = rig.proxy.completions();
      boolean passed = r.outcome() == PiResult.Outcome.COMPLETED && writeOk && bashOk && "alpha\n".equals(content)
          && reportOk && requests.size() == 3;
      ObjectNode evidence = Gate.evidence();
      evidence.put("requests", requests.size()).put("outcome", r.outcome().wireName())
          .put("k4_txt", content == null ? "(absent)" : content.strip());
      ArrayNode events = evidence.putArray("tool_events");
      tools.forEach(t -> events.addObject().put("tool", t.tool()).put("status", t.status())
          .put("duration_ms", t.durationMs()).put("result", t.result().length() > 80 ? t.result().substring(0, 80) : t.result()));
      evidence.set("receipt_report", report);
      evidence.set("receipt_provider_failure", run.receipt().path("provider_failure"));
      evidence.put("seat_sends", rig.sends().size());
      ArrayNode overhead = Gate.evidence().arrayNode();
      for (int i = 0; i + 1 < requests.size() && i < tools.size(); i++) {
        long between = requests.get(i + 1).startedAtMillis - requests.get(i).endedAtMillis;
        overhead.add(between - tools.get(i).durationMs());
      }
      String summary = requests.size() + " requests; tools " + tools.stream().map(t -> t.tool() + ":" + t.status()).toList()
          + "; receipt report " + report;
      return new Outcome(passed, summary, evidence, run.receipt(), requests.size(), Checks.typed(rig.sends()), overhead);
    }
  }
}

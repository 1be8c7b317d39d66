package dev.solweb.killgate.gate;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.factory.cli.FactoryGpt;
import dev.solweb.factory.session.ClientSession;
import dev.solweb.provider.platform.Json;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * 10. Billing: Pi's usage carries cost 0 (models.json schema metadata), yet no receipt the gate
 * wrote (this check's own run and every earlier check's) and no {@code factory-gpt status} output
 * shows a measured zero cost; billing reads {@code unavailable}. Runs last. Control: one of those
 * receipts with {@code "cost": 0} added must be flagged. (The report describes that control in
 * words, since report.md itself is audited for a zero cost.)
 */
final class Check10Billing implements GateCheck {

  @Override
  public int number() {
    return 10;
  }

  @Override
  public String title() {
    return "Billing unavailable, never a measured zero";
  }

  @Override
  public CheckResult run(Gate gate) throws Exception {
    long t0 = System.currentTimeMillis();
    ObjectNode evidence = Gate.evidence();
    List<String> findings = new ArrayList<>();
    int requests;
    List<Integer> typed;
    String status;
    try (Rig rig = gate.rig("check10", Scenarios.defaults(Scenarios.fin("billing probe {\"status\":\"done\"}")))) {
      Rig.Run run = rig.run(ClientSession.derive("killgate-check10"), "K10: say done", Duration.ofSeconds(60));
      evidence.put("pi_outcome", run.result().outcome().wireName());
      requests = rig.proxy.completions().size();
      typed = Checks.typed(rig.sends());
      Map<String, String> env = new java.util.HashMap<>(rig.parentEnv());
      env.put("PI_CODING_AGENT_DIR", rig.managedDir.toString());
      env.put("SOLWEBCTL_BIN", gate.repo.resolve("bin/solwebctl").toString());
      StringWriter out = new StringWriter();
      var cl = FactoryGpt.commandLine(env);
      cl.setOut(new PrintWriter(out));
      cl.setErr(new PrintWriter(new StringWriter()));
      int rc = cl.execute("status", "--receipts", rig.receipts.toString());
      status = out.toString();
      evidence.put("status_exit", rc);
      evidence.put("status_billing_line", status.lines().filter(l -> l.startsWith("billing")).findFirst().orElse("(none)"));
      findings.addAll(BillingAudit.text("factory-gpt status", status));
    }
    List<Path> receipts;
    try (Stream<Path> walk = Files.walk(gate.root)) {
      receipts = walk.filter(p -> p.getFileName().toString().startsWith("attempt-") && p.toString().endsWith(".json"))
          .sorted().toList();
    }
    ArrayNode audited = evidence.putArray("receipts_audited");
    for (Path file : receipts) {
      List<String> f = BillingAudit.receipt(Json.MAPPER.readTree(file.toFile()));
      audited.add(gate.root.relativize(file) + (f.isEmpty() ? ": billing unavailable" : ": " + f));
      findings.addAll(f);
    }
    evidence.put("receipts", receipts.size());
    ArrayNode found = evidence.putArray("findings");
    findings.forEach(found::add);
    boolean passed = !receipts.isEmpty() && findings.isEmpty() && status.contains("billing: unavailable");

    ObjectNode control = (ObjectNode) Json.MAPPER.readTree(receipts.get(receipts.size() - 1).toFile());
    if (!gate.isBroken(10)) {
      control.put("cost", 0);
    }
    List<String> flagged = BillingAudit.receipt(control);
    ObjectNode controlEvidence = Gate.evidence();
    ArrayNode cf = controlEvidence.putArray("findings");
    flagged.forEach(cf::add);
    return new CheckResult(number(), title(), passed,
        receipts.size() + " receipts audited, " + findings.size() + " measured-zero findings; status line \""
            + evidence.path("status_billing_line").asText() + "\"", evidence,
        "a real receipt with a cost field of numeric zero added", !flagged.isEmpty(),
        flagged.isEmpty() ? "not flagged" : "flagged: " + flagged, controlEvidence, 1,
        System.currentTimeMillis() - t0, requests, typed);
  }
}

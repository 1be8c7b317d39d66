package dev.solweb.killgate.gate;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.factory.pi.AgentDirMaterializer;
import dev.solweb.provider.platform.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * 1. Provider discovery: {@code pi --list-models} resolves all four Factory model ids of provider
 * gpt in the default agent dir ({@code ~/.pi/agent}, PI_CODING_AGENT_DIR unset) and in an
 * account dir the factory plugin materialized from it. Control: a models.json without
 * sol-web-xhigh must be caught.
 */
final class Check01Discovery implements GateCheck {

  static final List<String> REQUIRED = List.of("sol-web-medium", "sol-web-high", "sol-web-xhigh", "sol-web-pro");

  @Override
  public int number() {
    return 1;
  }

  @Override
  public String title() {
    return "Provider discovery (default + account-composed dir)";
  }

  @Override
  public CheckResult run(Gate gate) throws Exception {
    long t0 = System.currentTimeMillis();
    Path dir = Files.createDirectories(gate.root.resolve("check1"));
    Path home = dir.resolve("home");
    Path managed = Files.createDirectories(home.resolve(".pi/agent"));
    Rig.writeModels(gate.repo.resolve("models.json"), managed.resolve("models.json"), "http://127.0.0.1:9/v1");
    Path account = AgentDirMaterializer.materialize(managed, dir.resolve("accounts/a1/agent"));

    ObjectNode evidence = Gate.evidence();
    Set<String> inDefault = listModels(gate, home, null, evidence.putObject("default_dir"));
    Set<String> inAccount = listModels(gate, home, account, evidence.putObject("account_dir"));
    boolean passed = inDefault.containsAll(REQUIRED) && inAccount.containsAll(REQUIRED);

    // Control: the same discovery over a models.json that lacks sol-web-xhigh.
    Path controlHome = dir.resolve("control-home");
    Path controlManaged = Files.createDirectories(controlHome.resolve(".pi/agent"));
    Rig.writeModels(gate.repo.resolve("models.json"), controlManaged.resolve("models.json"), "http://127.0.0.1:9/v1");
    if (!gate.isBroken(1)) {
      ObjectNode models = (ObjectNode) Json.MAPPER.readTree(controlManaged.resolve("models.json").toFile());
      ArrayNode list = (ArrayNode) models.path("providers").path("gpt").path("models");
      for (int i = list.size() - 1; i >= 0; i--) {
        if ("sol-web-xhigh".equals(list.get(i).path("id").asText())) {
          list.remove(i);
        }
      }
      Files.writeString(controlManaged.resolve("models.json"), models.toString());
    }
    Path controlAccount = AgentDirMaterializer.materialize(controlManaged, dir.resolve("accounts/control/agent"));
    ObjectNode controlEvidence = Gate.evidence();
    Set<String> controlDefault = listModels(gate, controlHome, null, controlEvidence.putObject("default_dir"));
    Set<String> controlAcct = listModels(gate, controlHome, controlAccount, controlEvidence.putObject("account_dir"));
    boolean controlPassed = controlDefault.containsAll(REQUIRED) && controlAcct.containsAll(REQUIRED);
    Set<String> missing = new TreeSet<>(REQUIRED);
    missing.removeAll(controlAcct);
    controlEvidence.put("missing_detected", String.join(",", missing));

    return new CheckResult(number(), title(), passed,
        "default dir: " + inDefault + "; account dir: " + inAccount, evidence,
        "models.json without sol-web-xhigh", !controlPassed,
        controlPassed ? "control passed: all four found (it should not)" : "caught: missing " + missing,
        controlEvidence, 1, System.currentTimeMillis() - t0, 0, List.of());
  }

  /** Runs {@code pi --list-models}; its table goes to stderr when stdin is not a TTY (PI-FACTS §2). */
  private static Set<String> listModels(Gate gate, Path home, Path agentDir, ObjectNode out) throws Exception {
    Map<String, String> env = new HashMap<>(System.getenv());
    env.put("HOME", home.toString());
    env.put("PI_OFFLINE", "1");
    env.remove("PI_CODING_AGENT_DIR");
    if (agentDir != null) {
      env.put("PI_CODING_AGENT_DIR", agentDir.toString());
    }
    Proc proc = Proc.run(List.of(gate.pi.toString(), "--list-models", "--offline"), env, home, 60);
    Set<String> ids = new TreeSet<>();
    for (String line : (proc.stdout() + "\n" + proc.stderr()).split("\n")) {
      String[] cols = line.trim().split("\\s+");
      if (cols.length >= 2 && cols[0].equals("gpt")) {
        ids.add(cols[1]);
      }
    }
    out.put("agent_dir", agentDir == null ? home.resolve(".pi/agent") + " (PI_CODING_AGENT_DIR unset)" : agentDir.toString());
    out.put("exit", proc.exit());
    ArrayNode found = out.putArray("gpt_models");
    ids.forEach(found::add);
    return ids;
  }
}

package dev.solweb.killgate.gate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.platform.Json;
import dev.solweb.provider.scenario.ScenarioPlayer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * 12. Claude Code straight at solwebd (issue 30): the pinned Claude Code 2.1.337
 * ({@code tools/ccr}) with no router in between, its key only from an {@code apiKeyHelper} that
 * runs {@code solwebctl token}, creates a file through a Write tool call and changes it through an
 * Edit (which Claude Code echoes back with {@code "replace_all": false} added: issue 38). Passes when
 * the file holds what was asked, the run ends without error, every request solwebd saw was an
 * authenticated {@code POST /v1/messages} (three: two calls and the final answer; no side request),
 * and the seat typed three turns into one conversation, each after the first only the tool result. Control:
 * the helper prints a wrong key; the same run must fail (401, nothing typed).
 */
final class Check12ClaudeCode implements GateCheck {

  static final String FILE = "k12.txt";
  static final String TASK = "K12: create k12.txt containing hi";

  @Override
  public int number() {
    return 12;
  }

  @Override
  public String title() {
    return "Claude Code straight at /v1/messages: a Write and an Edit, the key from solwebctl token";
  }

  @Override
  public CheckResult run(Gate gate) throws Exception {
    long t0 = System.currentTimeMillis();
    String scenario = Scenarios.defaults(
        Scenarios.tool("Write", Scenarios.args().put("file_path", FILE).put("content", "hello")),
        Scenarios.tool("Edit", Scenarios.args().put("file_path", FILE).put("old_string", "hello").put("new_string", "hi")),
        Scenarios.fin("Created k12.txt."));
    String helper = "'" + gate.repo.resolve("bin/solwebctl") + "' token";
    RunOutcome main = runOnce(gate, "check12", scenario, helper);
    RunOutcome control = runOnce(gate, "check12-control", scenario, gate.isBroken(12) ? helper : "echo not-the-token");
    return RunOutcome.verdict(this, main, "the apiKeyHelper prints a wrong key", control, control.summary(), 1, t0);
  }

  private static RunOutcome runOnce(Gate gate, String name, String scenario, String helper) throws Exception {
    Path claude = gate.repo.resolve("tools/ccr/node_modules/.bin/claude");
    ObjectNode evidence = Gate.evidence();
    if (!Files.isExecutable(claude)) {
      return new RunOutcome(false, "Claude Code is not installed at " + claude + " (npm ci --prefix tools/ccr)", evidence, 0,
          List.of());
    }
    try (Rig rig = gate.rig(name, scenario)) {
      String settings = Json.MAPPER.createObjectNode().put("apiKeyHelper", helper).toString();
      Proc run = Proc.run(List.of(claude.toString(), "--settings", settings, "-p", "--output-format", "stream-json",
          "--verbose", "--dangerously-skip-permissions", "--model", Rig.EFFORT.modelId(), "--", TASK),
          environment(rig), rig.workspace, 240);
      JsonNode result = null;
      for (String line : run.stdout().lines().toList()) {
        if (line.startsWith("{") && line.contains("\"type\":\"result\"")) {
          result = Json.MAPPER.readTree(line);
        }
      }
      Path file = rig.workspace.resolve(FILE);
      String content = Files.isRegularFile(file) ? Files.readString(file) : null;
      List<RecordingProxy.Exchange> exchanges = rig.proxy.exchanges();
      boolean allMessages = exchanges.stream().allMatch(x -> x.method.equals("POST") && x.path.startsWith("/v1/messages")
          && x.authorizationPresent && x.status == 200);
      List<ScenarioPlayer.Send> sends = rig.sends();
      boolean typedDelta = sends.size() == 3 && sends.stream().allMatch(s -> s.conversationId().equals(
          sends.get(0).conversationId())) && sends.subList(1, 3).stream().allMatch(s -> s.text().startsWith("TOOL RESULT ["));
      boolean ok = run.exit() == 0 && result != null && !result.path("is_error").asBoolean(true);
      boolean passed = ok && "hi".equals(content) && exchanges.size() == 3 && allMessages && typedDelta;
      evidence.put("exit", run.exit()).put("k12_txt", content == null ? "(absent)" : content)
          .put("result", result == null ? "(none)" : result.path("result").asText())
          .put("api_error_status", result == null ? 0 : result.path("api_error_status").asInt(0))
          .put("api_key_source", apiKeySource(run.stdout()));
      ArrayNode requests = evidence.putArray("requests_at_solwebd");
      exchanges.forEach(x -> requests.addObject().put("method", x.method).put("path", x.path).put("status", x.status)
          .put("authorization_present", x.authorizationPresent));
      evidence.put("seat_sends", sends.size());
      String summary = "exit " + run.exit() + "; " + exchanges.size() + " request(s) "
          + exchanges.stream().map(x -> x.method + " " + x.path + " " + x.status).distinct().toList()
          + "; k12.txt " + (content == null ? "absent" : "'" + content + "'") + "; " + sends.size() + " page turn(s)";
      return new RunOutcome(passed, summary, evidence, exchanges.size(), Checks.typed(sends));
    }
  }

  /** The caller's environment for Claude Code: no ANTHROPIC_* of theirs, the base URL at the rig's proxy. */
  static Map<String, String> environment(Rig rig) {
    Map<String, String> env = new HashMap<>();
    rig.parentEnv().forEach((k, v) -> {
      if (!k.startsWith("ANTHROPIC_")) {
        env.put(k, v);
      }
    });
    env.put("ANTHROPIC_BASE_URL", "http://127.0.0.1:" + rig.proxy.port());
    env.put("DISABLE_TELEMETRY", "1");
    env.put("DISABLE_AUTOUPDATER", "1");
    env.put("DISABLE_ERROR_REPORTING", "1");
    env.put("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");
    env.put("CLAUDE_CODE_MAX_RETRIES", "0");
    // Claude Code refuses --dangerously-skip-permissions as root unless told it is sandboxed.
    env.put("IS_SANDBOX", "1");
    return env;
  }

  private static String apiKeySource(String stdout) {
    int at = stdout.indexOf("\"apiKeySource\":\"");
    if (at < 0) {
      return "(not reported)";
    }
    int start = at + "\"apiKeySource\":\"".length();
    return stdout.substring(start, stdout.indexOf('"', start));
  }
}

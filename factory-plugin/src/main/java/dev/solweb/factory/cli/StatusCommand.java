package dev.solweb.factory.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.factory.preflight.Preflight;
import dev.solweb.factory.receipt.AttemptReceipt;
import dev.solweb.factory.receipt.ReceiptWriter;
import dev.solweb.factory.session.ClientSession;
import dev.solweb.provider.ctl.LiveTurns;
import dev.solweb.provider.dispatch.LiveTurn;
import dev.solweb.provider.platform.HostName;
import dev.solweb.provider.platform.Json;
import dev.solweb.provider.platform.SolwebHome;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code factory-gpt status [--json]}: seed 001's Observability fields from three read-only
 * sources: {@code solwebctl health --json}, the daemon's {@code /healthz} (dispatch wait,
 * occupancy, the turns running now, and {@code turn}: this Factory session's, as a progress line) and the newest attempt receipts (model, effort, identity, tool events, failures).
 * Exit 0 when the daemon is ok, 1 otherwise; it never starts or changes anything.
 */
@Command(name = "status", mixinStandardHelpOptions = true,
    description = "Show provider/model/effort, host, account, identity, daemon readiness, queue, cap, tools, failures.")
final class StatusCommand implements Callable<Integer> {

  private static final int RECENT = 10;

  @Spec CommandSpec spec;

  @Option(names = "--json", description = "Print JSON.")
  boolean json;

  @Option(names = "--receipts", paramLabel = "DIR", description = "Receipt directory (default ~/.overdeck/factory-gpt/receipts).")
  Path receipts;

  @Option(names = "--session-id", paramLabel = "ID",
      description = "Factory session id whose running turn `turn` shows (default: the newest receipt's client session).")
  String sessionId;

  private final Map<String, String> env;

  StatusCommand(Map<String, String> env) {
    this.env = env;
  }

  @Override
  public Integer call() throws IOException {
    DaemonView daemon = new DaemonView(env, Preflight.solwebctl(env).orElse(null));
    Optional<JsonNode> health = daemon.ctlJson("health");
    String baseUrl = baseUrl().orElse(null);
    Optional<JsonNode> healthz = baseUrl == null ? Optional.empty()
        : daemon.token().flatMap(t -> daemon.healthz(baseUrl, t));
    Path dir = receipts != null ? receipts
        : SolwebHome.userHome(env).resolve(".overdeck/factory-gpt/receipts");
    List<Path> recent = ReceiptWriter.recent(dir, RECENT);
    JsonNode last = recent.isEmpty() ? null : Json.MAPPER.readTree(recent.get(0).toFile());

    ObjectNode s = Json.MAPPER.createObjectNode();
    s.put("coding_agent", "pi");
    s.put("provider", "gpt");
    s.put("model", last == null ? null : last.path("model").asText(null));
    s.put("effort", last == null ? null : last.path("effort").asText(null));
    s.put("host", health.map(h -> h.path("host").asText(null)).orElse(HostName.get().orElse(null)));
    s.put("account", health.map(h -> h.path("account").asText(null)).orElse(null));
    s.put("client_session", last == null ? null : last.path("client_session").asText(null));
    s.put("pi_session_id", last == null ? null : last.path("pi_session_id").asText(null));
    ObjectNode d = s.putObject("daemon");
    d.put("reachable", health.isPresent());
    d.put("ok", health.map(h -> h.path("ok").asBoolean(false)).orElse(false));
    d.put("state", health.map(h -> h.path("state").asText(null)).orElse("unreachable"));
    d.put("endpoint", health.map(h -> h.path("endpoint").asText(null)).orElse(baseUrl));
    d.put("seats", health.map(h -> h.path("seats").asInt()).orElse(0));
    d.put("active", health.map(h -> h.path("active").asInt()).orElse(0));
    d.put("queue", health.map(h -> h.path("queue").asInt()).orElse(0));
    d.set("dispatch_wait_s", healthz.map(h -> h.get("dispatch_wait_s")).orElse(null));
    d.set("turn_p50_s", healthz.map(h -> h.get("turn_p50_s")).orElse(null));
    d.put("cap_resume_at", health.map(h -> h.path("cap_resume_at").asText(null)).orElse(null));
    d.put("version", health.map(h -> h.path("version").asText(null)).orElse(null));
    d.set("turns", healthz.map(h -> h.get("turns")).orElse(null));
    String own;
    try {
      own = sessionId != null ? ClientSession.derive(sessionId).value()
          : last == null ? null : last.path("client_session").asText(null);
    } catch (IllegalArgumentException e) {
      spec.commandLine().getErr().println("factory-gpt status: " + e.getMessage());
      return FactoryGptExit.USAGE;
    }
    s.put("turn", own == null || !ClientSession.isValid(own) ? null
        : healthz.flatMap(h -> LiveTurns.ofClient(h, own)).map(LiveTurn.View::line).orElse(null));
    s.set("recent_tool_events", last == null ? Json.MAPPER.createArrayNode() : last.path("tool_events"));
    ArrayNode failures = s.putArray("failures");
    for (Path p : recent) {
      JsonNode r = Json.MAPPER.readTree(p.toFile());
      if (r.hasNonNull("provider_failure") || !"completed".equals(r.path("outcome").asText())) {
        ObjectNode f = failures.addObject();
        f.put("at", r.path("ended_at").asText(null));
        f.put("outcome", r.path("outcome").asText(null));
        f.set("provider_failure", r.get("provider_failure"));
        f.put("stderr_log", r.path("stderr_log").asText(null));
      }
    }
    ObjectNode occ = s.putObject("context_occupancy");
    occ.put("estimated", true);
    occ.set("daemon", healthz.map(h -> h.get("occupancy")).orElse(null));
    occ.set("last_attempt", last == null ? null : last.get("context_occupancy"));
    s.put("billing", AttemptReceipt.BILLING_UNAVAILABLE);
    s.put("receipts", dir.toString());
    s.put("last_receipt", recent.isEmpty() ? null : recent.get(0).toString());

    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.println(Json.MAPPER.copy().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(s));
    } else {
      print(out, "", s);
    }
    out.flush();
    return d.path("ok").asBoolean() ? FactoryGptExit.OK : FactoryGptExit.ATTEMPT_FAILED;
  }

  private Optional<String> baseUrl() {
    try {
      JsonNode models = Json.MAPPER.readTree(Preflight.managedAgentDir(env).resolve("models.json").toFile());
      return Optional.ofNullable(models.path("providers").path("gpt").path("baseUrl").asText(null));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private static void print(PrintWriter out, String prefix, JsonNode node) {
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      JsonNode v = e.getValue();
      if (v != null && v.isObject() && !e.getKey().equals("provider_failure")) {
        print(out, prefix + e.getKey() + ".", v);
      } else if (v != null && v.isArray()) {
        out.println(prefix + e.getKey() + ": " + (v.isEmpty() ? "none" : ""));
        for (JsonNode item : v) {
          out.println("  - " + item);
        }
      } else {
        out.println(prefix + e.getKey() + ": " + (v == null || v.isNull() ? "-" : v.isTextual() ? v.asText() : v.toString()));
      }
    }
  }
}

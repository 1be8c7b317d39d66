package dev.solweb.killgate.gate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.factory.pi.AgentDirMaterializer;
import dev.solweb.factory.pi.PiRequest;
import dev.solweb.factory.pi.PiResult;
import dev.solweb.factory.pi.PiRunner;
import dev.solweb.factory.receipt.AttemptReceipt;
import dev.solweb.factory.receipt.ReceiptWriter;
import dev.solweb.factory.receipt.Redactor;
import dev.solweb.factory.session.ClientSession;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.platform.Json;
import dev.solweb.provider.scenario.Scenario;
import dev.solweb.provider.scenario.ScenarioPlayer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Everything one check runs against, under its own directory: a {@link GateDaemon}, the
 * {@link RecordingProxy} in front of it, a managed Pi agent dir whose models.json is the
 * repository's with {@code baseUrl} pointed at the proxy, the account {@code PI_CODING_AGENT_DIR}
 * the factory plugin materializes from it (retries off, PI-FACTS §4), a workspace and receipts.
 */
final class Rig implements AutoCloseable {

  static final Effort EFFORT = Effort.HIGH;
  static final String MODEL = "gpt/" + EFFORT.modelId();

  final Gate gate;
  final Path dir;
  final GateDaemon daemon;
  final RecordingProxy proxy;
  final Path managedDir;
  final Path accountDir;
  final Path workspace;
  final Path receipts;
  private final AtomicInteger attempts = new AtomicInteger();

  private Rig(Gate gate, Path dir, GateDaemon daemon, RecordingProxy proxy, Path managedDir, Path accountDir,
      Path workspace, Path receipts) {
    this.gate = gate;
    this.dir = dir;
    this.daemon = daemon;
    this.proxy = proxy;
    this.managedDir = managedDir;
    this.accountDir = accountDir;
    this.workspace = workspace;
    this.receipts = receipts;
  }

  static Rig start(Gate gate, String name, String scenarioJson, GateDaemon.Settings settings) throws Exception {
    Path dir = Files.createDirectories(gate.root.resolve(name));
    Scenario scenario = gate.dom == null ? Scenario.parse(scenarioJson) : Scenario.parse(scenarioJson).withDom(gate.dom);
    GateDaemon daemon = GateDaemon.start(gate.seat, scenario, dir.resolve("solwebd-home"),
        settings, gate.chromium);
    RecordingProxy proxy = new RecordingProxy(daemon.port);
    Path managed = Files.createDirectories(dir.resolve("home/.pi/agent"));
    writeModels(gate.repo.resolve("models.json"), managed.resolve("models.json"), proxy.baseUrl());
    Path account = AgentDirMaterializer.materialize(managed, dir.resolve("accounts/gate/agent"));
    Path workspace = Files.createDirectories(dir.resolve("workspace"));
    return new Rig(gate, dir, daemon, proxy, managed, account, workspace, dir.resolve("receipts"));
  }

  /** The repository's models.json with provider gpt's baseUrl moved to {@code baseUrl}. */
  static void writeModels(Path repoModels, Path target, String baseUrl) throws Exception {
    ObjectNode models = (ObjectNode) Json.MAPPER.readTree(repoModels.toFile());
    ((ObjectNode) models.path("providers").path("gpt")).put("baseUrl", baseUrl);
    Files.writeString(target, Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(models) + "\n");
  }

  /**
   * An agent dir with the same models.json but none of the shipped settings (Pi's defaults:
   * agent and SDK retries on); check 7's control.
   */
  Path defaultSettingsAgentDir() throws Exception {
    return agentDirWith("pi-defaults", null);
  }

  /** An agent dir with the same models.json and exactly {@code settingsJson} as settings.json (null: none). */
  Path agentDirWith(String name, String settingsJson) throws Exception {
    Path plain = Files.createDirectories(dir.resolve("accounts/" + name + "/agent"));
    Path link = plain.resolve("models.json");
    if (!Files.exists(link)) {
      Files.createSymbolicLink(link, managedDir.resolve("models.json").toRealPath());
    }
    if (settingsJson != null) {
      Files.writeString(plain.resolve("settings.json"), settingsJson);
    }
    return plain;
  }

  /** The environment the caller hands Pi (ChildEnvironment filters it as for Factory). */
  Map<String, String> parentEnv() {
    Map<String, String> env = new HashMap<>(System.getenv());
    env.remove("PI_CODING_AGENT_DIR");
    env.put("HOME", dir.resolve("home").toString());
    env.put("SOLWEBD_HOME", daemon.home.toString());
    env.put("PATH", gate.repo.resolve("bin") + ":" + System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
    env.put("NO_PROXY", "127.0.0.1,localhost");
    env.remove("HTTP_PROXY");
    env.remove("HTTPS_PROXY");
    env.remove("http_proxy");
    env.remove("https_proxy");
    return env;
  }

  PiRunner runner(ClientSession session, String task, Duration timeout) {
    return runner(session, task, timeout, accountDir);
  }

  PiRunner runner(ClientSession session, String task, Duration timeout, Path agentDir) {
    int n = attempts.incrementAndGet();
    return new PiRunner(new PiRequest(gate.pi, workspace, agentDir, session, MODEL, PiRequest.DEFAULT_TOOLS, task,
        timeout, dir.resolve("logs/pi-" + n + ".stderr.log"), parentEnv(), Set.of(daemon.token())));
  }

  /** Runs one Pi phase the way factory-gpt does (PiRunner, RPC mode) and writes its receipt. */
  Run run(ClientSession session, String task, Duration timeout) throws Exception {
    return run(runner(session, task, timeout), session);
  }

  Run run(PiRunner runner, ClientSession session) throws Exception {
    PiResult result = runner.run(note -> { });
    return new Run(result, receipt(session, result));
  }

  JsonNode receipt(ClientSession session, PiResult result) throws Exception {
    AttemptReceipt receipt = AttemptReceipt.of(new AttemptReceipt.Context(attempts.get(), EFFORT, "workstation",
        daemon.player.scenario().account(), session.value(), dir.resolve("logs").toString()), result);
    Path file = new ReceiptWriter(receipts, new Redactor(Set.of(daemon.token()))).write(receipt);
    return Json.MAPPER.readTree(file.toFile());
  }

  /** A Pi phase's result and its receipt as written. */
  record Run(PiResult result, JsonNode receipt) {}

  List<ScenarioPlayer.Send> sends() {
    return daemon.sends();
  }

  /**
   * Records, under the rig's name in the gate's log, every request solwebd received (status,
   * headers present, client session, Authorization present, body size, SSE frames, keep-alives)
   * and every send the seat typed; copies the receipts next to the report.
   */
  private void log() throws Exception {
    ObjectNode entry = Json.MAPPER.createObjectNode();
    com.fasterxml.jackson.databind.node.ArrayNode requests = entry.putArray("requests_at_solwebd");
    for (RecordingProxy.Exchange x : proxy.exchanges()) {
      ObjectNode r = requests.addObject();
      r.put("method", x.method).put("path", x.path).put("status", x.status)
          .put("authorization_present", x.authorizationPresent)
          .put("client_session", x.clientSession() == null ? "(absent)" : x.clientSession())
          .put("retry_count_header", x.headers.getOrDefault("x-stainless-retry-count", "(absent)"))
          .put("body_bytes", x.body.length()).put("sse_frames", x.frames.size())
          .put("keepalives", x.keepAlives().size());
      com.fasterxml.jackson.databind.node.ArrayNode names = r.putArray("headers_present");
      x.headers.keySet().forEach(names::add);
    }
    com.fasterxml.jackson.databind.node.ArrayNode typed = entry.putArray("seat_typed");
    for (ScenarioPlayer.Send send : sends()) {
      typed.addObject().put("conversation", send.conversationId()).put("effort_label", send.effortLabel())
          .put("chars", send.text().length());
    }
    entry.put("browser_conversations_opened", daemon.conversationsOpened());
    synchronized (gate.rigLog) { // a check may run rigs side by side (check 7)
      gate.rigLog.set(dir.getFileName().toString(), entry);
    }
    if (gate.evidenceDir != null && Files.isDirectory(receipts)) {
      Path target = Files.createDirectories(gate.evidenceDir.resolve("receipts").resolve(dir.getFileName().toString()));
      try (java.util.stream.Stream<Path> files = Files.list(receipts)) {
        for (Path file : files.filter(f -> f.getFileName().toString().startsWith("attempt-")).toList()) {
          Files.copy(file, target.resolve(file.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
  }

  @Override
  public void close() throws Exception {
    try {
      log();
    } finally {
      proxy.close();
      daemon.close();
    }
  }
}

package dev.solweb.killgate.gate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.factory.pi.PiBinary;
import dev.solweb.factory.session.ClientSession;
import dev.solweb.provider.platform.Cli;
import dev.solweb.provider.platform.Json;
import dev.solweb.provider.platform.Poll;
import dev.solweb.provider.scenario.ScenarioPlayer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bin/bench-continuity} (issue 38): each pinned real client through a 12-step task with its
 * own tools and their defaults, on solwebd's scripted seat (or the Playwright seat on fakesol with
 * {@code --seat fakesol}); per client the steps, the page's Sends, the conversations they went to, the
 * replays solwebd counted and the characters typed. One conversation and Sends = steps is the
 * goal: a client's echo of solwebd's own answer must never replay. The scripted seat answers
 * every new conversation from its first step, so a replay shows as a restarted task (and a client
 * that loops is cut by its time limit). Two controls post through chat completions: a rewritten
 * user message and a compaction, each to replay exactly once, counted by {@code /healthz}.
 */
@Command(name = "bench-continuity", mixinStandardHelpOptions = true, description = {
    "Runs each pinned client through a 12-step task against solwebd and prints, per client: steps, page sends,"
        + " conversations, replays (/healthz), typed characters.",
    "The goal: sends = steps, 1 conversation, 0 replays; the controls replay once each."})
public final class ContinuityBench implements Callable<Integer> {

  enum Client { CLAUDE_CODE, CODEX, PI, OPENCODE, OPENAI_SDK }

  /** One row of the table. {@code replays} is -1 where /healthz does not count replays (before issue 38). */
  record Row(String client, int steps, int sends, long conversations, long replays, long typed, String ended) {
    String line() {
      return String.format(Locale.ROOT, "%-12s %5d %6d %13d %7s %9d  %s", client, steps, sends, conversations,
          replays < 0 ? "n/a" : Long.toString(replays), typed, ended);
    }
  }

  static final int STEPS = 12;
  static final String TASK = "CB: tidy notes.txt and make todo.txt as your plan says";
  private static final String NOTES = "alpha\nbeta\nbeta\ngamma\n";

  @Option(names = "--clients", split = ",", description = "the clients to run, in order (default: all of"
      + " ${COMPLETION-CANDIDATES})")
  List<Client> clients = new ArrayList<>(List.of(Client.values()));

  @Option(names = "--seat", description = "scripted or fakesol (default ${DEFAULT-VALUE})")
  String seatName = "scripted";

  @Option(names = "--no-controls", negatable = false, description = "leave out the two controls (a rewritten user"
      + " message and a compaction, each of which must replay once)")
  boolean noControls;

  @Option(names = "--keep", description = "leave the work directory (homes, workspaces, logs) for a look")
  boolean keep;

  public static void main(String[] args) {
    Cli.exit(Cli.of(new ContinuityBench(), "bench-continuity", 1).setCaseInsensitiveEnumValuesAllowed(true), args);
  }

  @Override
  public Integer call() throws Exception {
    Path repo = Path.of(System.getProperty("solweb.root", ".")).toAbsolutePath();
    GateDaemon.SeatKind seat = GateDaemon.SeatKind.valueOf(seatName.toUpperCase(Locale.ROOT));
    boolean controls = !noControls;
    Path root = Files.createTempDirectory("bench-continuity-");
    Path pi = PiBinary.locate(Map.of(PiBinary.ROOT_ENV, repo.toString())).orElse(repo.resolve("tools/pi/node_modules/.bin/pi"));
    Gate gate = new Gate(repo, root, pi, seat, Path.of("/usr/bin/chromium"), Set.of());
    List<Row> rows = new ArrayList<>();
    for (Client client : clients) {
      Row row = run(gate, client);
      rows.add(row);
      System.out.println("bench-continuity: " + row.line());
    }
    if (controls) {
      rows.add(control(gate, false));
      rows.add(control(gate, true));
    }
    System.out.println();
    System.out.println("bench-continuity (" + seat.name().toLowerCase(Locale.ROOT) + " seat"
        + (keep ? "; work dir " + root : "") + ")");
    System.out.println(String.format(Locale.ROOT, "%-12s %5s %6s %13s %7s %9s  %s", "client", "steps", "sends",
        "conversations", "replays", "typed", "ended"));
    rows.forEach(row -> System.out.println(row.line()));
    if (!keep) {
      try (java.util.stream.Stream<Path> files = Files.walk(root)) {
        for (Path file : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(file);
        }
      }
    }
    return 0;
  }

  /** One client through its task; the row as counted once solwebd is idle. */
  static Row run(Gate gate, Client client) throws Exception {
    String name = "continuity-" + client.name().toLowerCase(Locale.ROOT).replace('_', '-');
    Path workspace = gate.root.resolve(name).resolve("workspace");
    try (Rig rig = gate.rig(name, scenario(client, workspace), GateDaemon.Settings.shipped())) {
      Files.writeString(rig.workspace.resolve("notes.txt"), NOTES);
      String ended = switch (client) {
        case CLAUDE_CODE -> last(claudeCode(rig));
        case CODEX -> last(RealClients.codex(rig, TASK, 300));
        case PI -> {
          Rig.Run run = rig.run(ClientSession.derive("continuity-" + rig.dir.getFileName()), TASK, Duration.ofSeconds(300));
          yield run.result().outcome().wireName();
        }
        case OPENCODE -> last(RealClients.opencode(rig, TASK, 300));
        case OPENAI_SDK -> last(Proc.run(List.of("node", rig.gate.repo.resolve("tools/openai-sdk/loop.mjs").toString(),
            rig.proxy.baseUrl(), rig.daemon.home.resolve(dev.solweb.provider.platform.TokenFile.NAME).toString(),
            Rig.EFFORT.modelId(), TASK), Map.of("PATH", "/usr/bin:/bin", "HOME", rig.dir.toString()), rig.workspace, 300));
      };
      JsonNode health = awaitIdle(rig);
      return row(client.name().toLowerCase(Locale.ROOT), rig, health, ended);
    }
  }

  private static Row row(String client, Rig rig, JsonNode health, String ended) {
    List<ScenarioPlayer.Send> sends = rig.sends();
    long conversations = sends.stream().map(ScenarioPlayer.Send::conversationId).distinct().count();
    long typed = sends.stream().mapToLong(send -> send.text().length()).sum();
    long replays = -1;
    if (health.has("replays")) {
      replays = 0;
      for (JsonNode n : health.path("replays")) {
        replays += n.asLong();
      }
    }
    return new Row(client, STEPS, sends.size(), conversations, replays, typed, ended);
  }

  /**
   * A control through chat completions on a 2-step script: a first turn, then the same history
   * with the second user message rewritten (or, for a compaction, summed up into one), which must
   * replay exactly once; /healthz must count it under its cause.
   */
  static Row control(Gate gate, boolean compaction) throws Exception {
    String name = compaction ? "control-compaction" : "control-rewrite";
    String scenario = Scenarios.defaults(Scenarios.tool("read", Scenarios.args().put("path", "notes.txt")),
        Scenarios.fin("done"), Scenarios.fin("again"));
    try (Rig rig = gate.rig(name, scenario, GateDaemon.Settings.shipped())) {
      ObjectNode body = Json.MAPPER.createObjectNode().put("model", Rig.EFFORT.modelId());
      body.putArray("tools").addObject().put("type", "function").putObject("function").put("name", "read")
          .putObject("parameters").put("type", "object");
      ArrayNode messages = body.putArray("messages");
      messages.addObject().put("role", "user").put("content", "CB control: read notes.txt");
      messages.addObject().put("role", "user").put("content", "then say done");
      JsonNode call = post(rig, body).path("choices").path(0).path("message").path("tool_calls").path(0);
      messages.add(Json.MAPPER.createObjectNode().put("role", "assistant").putNull("content")
          .set("tool_calls", Json.MAPPER.createArrayNode().add(call)));
      messages.addObject().put("role", "tool").put("tool_call_id", call.path("id").asText()).put("content", NOTES);
      post(rig, body); // one conversation, two Sends so far
      if (compaction) {
        while (messages.size() > 1) {
          messages.remove(messages.size() - 1);
        }
        messages.addObject().put("role", "user").put("content", "Summary: notes.txt was read. Say done again.");
      } else {
        ((ObjectNode) messages.get(1)).put("content", "then say done, twice");
        messages.add(Json.MAPPER.createObjectNode().put("role", "assistant").put("content", "done"));
        messages.addObject().put("role", "user").put("content", "and again");
      }
      post(rig, body);
      JsonNode health = awaitIdle(rig);
      String cause = compaction ? "compacted" : "rewritten";
      Row row = row("(" + cause + ")", rig, health, "replays." + cause + " = " + health.path("replays").path(cause).asLong());
      return new Row(row.client(), 3, row.sends(), row.conversations(), row.replays(), row.typed(), row.ended());
    }
  }

  private static JsonNode post(Rig rig, ObjectNode body) throws Exception {
    HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + rig.daemon.port + "/v1/chat/completions"))
        .header("Authorization", "Bearer " + rig.daemon.token()).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build(), HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IllegalStateException("control request failed: " + response.statusCode() + " " + response.body());
    }
    return Json.MAPPER.readTree(response.body());
  }

  /** /healthz once nothing runs or waits: every turn the client caused has ended. */
  private static JsonNode awaitIdle(Rig rig) throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    HttpRequest health = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + rig.daemon.port + "/healthz"))
        .header("Authorization", "Bearer " + rig.daemon.token()).build();
    Optional<JsonNode> idle = Poll.until(Duration.ofSeconds(60), Duration.ofMillis(100), () -> {
      JsonNode h = Json.MAPPER.readTree(http.send(health, HttpResponse.BodyHandlers.ofString()).body());
      return h.path("active").asInt(-1) == 0 && h.path("queue").asInt(-1) == 0 ? Optional.of(h) : Optional.empty();
    });
    return idle.orElseThrow(() -> new IllegalStateException("solwebd did not go idle within 60 s"));
  }

  /**
   * Claude Code as check 12 runs it: its key from {@code solwebctl token}, its tools allowed
   * ({@code --dangerously-skip-permissions}; in {@code -p} mode an unallowed Edit is refused and
   * never touches the file).
   */
  private static Proc claudeCode(Rig rig) throws Exception {
    String helper = "'" + rig.gate.repo.resolve("bin/solwebctl") + "' token";
    String settings = Json.MAPPER.createObjectNode().put("apiKeyHelper", helper).toString();
    return Proc.run(List.of(rig.gate.repo.resolve("tools/ccr/node_modules/.bin/claude").toString(), "--settings", settings,
        "-p", "--dangerously-skip-permissions", "--model", Rig.EFFORT.modelId(), "--", TASK),
        Check12ClaudeCode.environment(rig), rig.workspace, 300);
  }

  private static String last(Proc run) {
    List<String> out = run.stdout().replaceAll("\u001b\\[[0-9;]*m", "").lines().filter(l -> !l.isBlank()).toList();
    List<String> err = run.stderr().replaceAll("\u001b\\[[0-9;]*m", "").lines().filter(l -> !l.isBlank()).toList();
    List<String> lines = out.isEmpty() ? err : out;
    String line = lines.isEmpty() ? "" : lines.get(lines.size() - 1).strip();
    return "exit " + run.exit() + ": " + (line.length() > 60 ? line.substring(0, 59) + "…" : line);
  }

  // ---- each client's 12 steps, with its own tools and their defaults -----------------------------

  static String scenario(Client client, Path workspace) {
    List<ObjectNode> steps = switch (client) {
      case CLAUDE_CODE -> claudeCode(workspace);
      case CODEX -> codex();
      case PI -> pi();
      case OPENCODE -> opencode(workspace);
      case OPENAI_SDK -> openaiSdk();
    };
    if (steps.size() != STEPS) {
      throw new IllegalStateException(client + " has " + steps.size() + " steps, not " + STEPS);
    }
    return Scenarios.defaults(steps.toArray(ObjectNode[]::new));
  }

  private static ObjectNode call(String tool, ObjectNode args) {
    return Scenarios.tool(tool, args);
  }

  private static ObjectNode args() {
    return Scenarios.args();
  }

  /** Claude Code 2.1.332: Read, Edit with and without replace_all, Write, Bash, TodoWrite (it offers no MultiEdit). */
  private static List<ObjectNode> claudeCode(Path ws) {
    String notes = ws.resolve("notes.txt").toString();
    String todo = ws.resolve("todo.txt").toString();
    return List.of(
        call("TodoWrite", todos("in_progress")),
        call("Read", args().put("file_path", notes)),
        call("Edit", args().put("file_path", notes).put("old_string", "alpha").put("new_string", "ALPHA")),
        call("Edit", args().put("file_path", notes).put("old_string", "beta").put("new_string", "BETA")
            .put("replace_all", true)),
        call("Write", args().put("file_path", todo).put("content", "one\ntwo\n")),
        call("Read", args().put("file_path", todo)),
        call("Edit", args().put("file_path", todo).put("old_string", "two").put("new_string", "three")),
        call("Bash", args().put("command", "cat notes.txt todo.txt").put("description", "Show both files")),
        call("Edit", args().put("file_path", notes).put("old_string", "gamma").put("new_string", "GAMMA")),
        call("Bash", args().put("command", "wc -l notes.txt").put("description", "Count lines")),
        call("TodoWrite", todos("completed")),
        Scenarios.fin("notes.txt tidied, todo.txt made."));
  }

  private static ObjectNode todos(String status) {
    ObjectNode args = args();
    args.putArray("todos").addObject().put("content", "Tidy notes.txt").put("status", status)
        .put("activeForm", "Tidying notes.txt");
    return args;
  }

  /** Codex 0.171 offers exec_command (apply_patch runs through it, as Codex itself intercepts it) but no update_plan here. */
  private static List<ObjectNode> codex() {
    List<ObjectNode> steps = new ArrayList<>();
    steps.add(call("exec_command", args().put("cmd", "cat notes.txt")));
    steps.add(call("exec_command", args().put("cmd", "apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: notes.txt\n"
        + "@@\n-alpha\n+ALPHA\n*** End Patch\nEOF")));
    steps.add(call("exec_command", args().put("cmd", "sed -i s/beta/BETA/g notes.txt")));
    steps.add(call("exec_command", args().put("cmd", "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: todo.txt\n"
        + "+one\n+two\n*** End Patch\nEOF")));
    steps.add(call("exec_command", args().put("cmd", "cat todo.txt")));
    steps.add(call("exec_command", args().put("cmd", "sed -i s/two/three/ todo.txt")));
    steps.add(call("exec_command", args().put("cmd", "cat notes.txt todo.txt")));
    steps.add(call("exec_command", args().put("cmd", "sed -i s/gamma/GAMMA/ notes.txt")));
    steps.add(call("exec_command", args().put("cmd", "wc -l notes.txt")));
    steps.add(call("exec_command", args().put("cmd", "ls")));
    steps.add(call("exec_command", args().put("cmd", "cat notes.txt")));
    steps.add(Scenarios.fin("notes.txt tidied, todo.txt made."));
    return steps;
  }

  /** Pi 0.73: read, edit (its edits list), bash, write. */
  private static List<ObjectNode> pi() {
    return List.of(
        call("read", args().put("path", "notes.txt")),
        call("edit", piEdit("notes.txt", "alpha", "ALPHA")),
        call("bash", args().put("command", "sed -i s/beta/BETA/g notes.txt")),
        call("write", args().put("path", "todo.txt").put("content", "one\ntwo\n")),
        call("read", args().put("path", "todo.txt")),
        call("edit", piEdit("todo.txt", "two", "three")),
        call("bash", args().put("command", "cat notes.txt todo.txt")),
        call("edit", piEdit("notes.txt", "gamma", "GAMMA")),
        call("bash", args().put("command", "wc -l notes.txt")),
        call("read", args().put("path", "notes.txt")),
        call("bash", args().put("command", "ls")),
        Scenarios.fin("notes.txt tidied, todo.txt made."));
  }

  private static ObjectNode piEdit(String path, String oldText, String newText) {
    ObjectNode args = args().put("path", path);
    args.putArray("edits").addObject().put("oldText", oldText).put("newText", newText);
    return args;
  }

  /** opencode 1.18: read, edit (replaceAll left out, then set), bash, todowrite, write. */
  private static List<ObjectNode> opencode(Path ws) {
    String notes = ws.resolve("notes.txt").toString();
    String todo = ws.resolve("todo.txt").toString();
    return List.of(
        call("todowrite", opencodeTodos("in_progress")),
        call("read", args().put("filePath", notes)),
        call("edit", args().put("filePath", notes).put("oldString", "alpha").put("newString", "ALPHA")),
        call("edit", args().put("filePath", notes).put("oldString", "beta").put("newString", "BETA").put("replaceAll", true)),
        call("write", args().put("filePath", todo).put("content", "one\ntwo\n")),
        call("read", args().put("filePath", todo)),
        call("edit", args().put("filePath", todo).put("oldString", "two").put("newString", "three")),
        call("bash", args().put("command", "cat notes.txt todo.txt").put("description", "Show both files")),
        call("edit", args().put("filePath", notes).put("oldString", "gamma").put("newString", "GAMMA")),
        call("bash", args().put("command", "wc -l notes.txt").put("description", "Count lines")),
        call("todowrite", opencodeTodos("completed")),
        Scenarios.fin("notes.txt tidied, todo.txt made."));
  }

  /** tools/openai-sdk/loop.mjs, an application on the official SDK: read, edit (replace_all defaulted), bash, write. */
  private static List<ObjectNode> openaiSdk() {
    return List.of(
        call("read", args().put("path", "notes.txt")),
        call("edit", args().put("path", "notes.txt").put("old_text", "alpha").put("new_text", "ALPHA")),
        call("edit", args().put("path", "notes.txt").put("old_text", "beta").put("new_text", "BETA").put("replace_all", true)),
        call("write", args().put("path", "todo.txt").put("content", "one\ntwo\n")),
        call("read", args().put("path", "todo.txt")),
        call("edit", args().put("path", "todo.txt").put("old_text", "two").put("new_text", "three")),
        call("bash", args().put("command", "cat notes.txt todo.txt")),
        call("edit", args().put("path", "notes.txt").put("old_text", "gamma").put("new_text", "GAMMA")),
        call("bash", args().put("command", "wc -l notes.txt")),
        call("read", args().put("path", "notes.txt")),
        call("bash", args().put("command", "ls")),
        Scenarios.fin("notes.txt tidied, todo.txt made."));
  }

  private static ObjectNode opencodeTodos(String status) {
    ObjectNode args = args();
    args.putArray("todos").addObject().put("content", "Tidy notes.txt").put("status", status).put("priority", "high")
        .put("id", "1");
    return args;
  }
}

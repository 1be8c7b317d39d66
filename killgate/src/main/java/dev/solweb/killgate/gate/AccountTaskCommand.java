package dev.solweb.killgate.gate;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.factory.pi.PiBinary;
import dev.solweb.factory.session.ClientSession;
import dev.solweb.killgate.fakesol.FakeSol;
import dev.solweb.provider.dispatch.AccountPacing;
import dev.solweb.provider.dispatch.SendBudget;
import dev.solweb.provider.dispatch.SendGate;
import dev.solweb.provider.platform.Cli;
import dev.solweb.provider.scenario.ScenarioPlayer;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bin/bench-account}: issue 32's figures for the owner's account. A long task (N turns: N-1
 * tool calls, then the final answer) with the pinned Pi and the pinned Codex, each through its own
 * solwebd on the Playwright seat over fakesol in headless Chromium, paced as shipped (the 2 s Send
 * gap of a page seat), while fakesol applies REAL-PAGE row 52's burst rule to the history and
 * stream-status requests it receives. Prints, per client: the page's Sends, history requests per
 * turn (p50, max, counted between one Send and the next), stream-status requests, and the modals
 * the burst rule showed (which must be 0).
 */
@Command(name = "bench-account", mixinStandardHelpOptions = true,
    description = {
      "Runs an N-turn task (N-1 tool calls, then the final answer) with the pinned Pi and the pinned Codex, each "
          + "against its own solwebd on 127.0.0.1 driving fakesol in headless Chromium, paced as shipped, with "
          + "fakesol's burst rule on, and prints per client: page Sends, history requests per turn (p50, max), "
          + "stream-status requests, modals shown. Every home is a temporary directory; nothing reaches chatgpt.com.",
      "",
      "Exit codes: 0 ran and no modal was shown, 1 a run failed or showed a modal, 2 usage, 4 not installed (Pi), "
          + "6 internal."
    })
public final class AccountTaskCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = "--turns", paramLabel = "N", defaultValue = "60", description = "Turns of the task (default ${DEFAULT-VALUE}).")
  int turns;

  @Option(names = "--clients", paramLabel = "pi|codex", split = ",", defaultValue = "pi,codex",
      description = "Which clients run the task, one after another (default ${DEFAULT-VALUE}).")
  List<String> clients;

  @Option(names = "--burst", paramLabel = "REQUESTS/SECONDS", defaultValue = "6/10",
      description = "fakesol's burst rule: more than REQUESTS history or stream-status requests within SECONDS answer 429 "
          + "and show the \"Too many requests\" modal (default ${DEFAULT-VALUE}).")
  String burst;

  @Option(names = "--send-gap-ms", paramLabel = "MS", description = "solwebd's Send gap (default: the shipped "
      + "SOLWEBD_SEND_GAP_MS of a page seat, 2000).")
  Long sendGapMs;

  @Option(names = "--chromium", paramLabel = "PATH", defaultValue = "/usr/bin/chromium",
      description = "Chromium (default ${DEFAULT-VALUE}).")
  Path chromium;

  private final Map<String, String> env;

  public AccountTaskCommand(Map<String, String> env) {
    this.env = env;
  }

  public static void main(String[] args) {
    Cli.exit(Cli.of(new AccountTaskCommand(System.getenv()), "bench-account", 1), args);
  }

  /** What one client's task did. */
  record Outcome(String client, boolean completed, int sends, List<Integer> historyPerTurn, int statusRequests, int modals,
      long wallMs, String last) {

    String line() {
      List<Integer> sorted = new ArrayList<>(historyPerTurn);
      Collections.sort(sorted);
      int p50 = sorted.isEmpty() ? 0 : sorted.get(sorted.size() / 2);
      int max = sorted.isEmpty() ? 0 : sorted.get(sorted.size() - 1);
      return String.format("bench-account: %-6s %s: page Sends %d, history requests per turn p50 %d max %d"
          + " (all %d), stream-status requests %d, modals %d, %.0f s", client, completed ? "completed" : "FAILED (" + last + ")",
          sends, p50, max, historyPerTurn.stream().mapToInt(Integer::intValue).sum(), statusRequests, modals, wallMs / 1000.0);
    }
  }

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    String[] rule = burst.split("/");
    if (turns < 2 || rule.length != 2 || !rule[0].matches("\\d+") || !rule[1].matches("\\d+")
        || clients.stream().anyMatch(c -> !c.matches("pi|codex")) || (sendGapMs != null && sendGapMs < 0)) {
      err.println("bench-account: bad --turns (at least 2), --burst (REQUESTS/SECONDS), --clients (pi, codex) or "
          + "--send-gap-ms value");
      return KillGate.USAGE;
    }
    Optional<Path> pi = PiBinary.locate(new HashMap<>(env));
    String root = env.getOrDefault("SOLWEB_ROOT", "");
    if (root.isBlank() || pi.isEmpty()) {
      err.println("bench-account: " + PiBinary.missingMessage(new HashMap<>(env)));
      return KillGate.NOT_INSTALLED;
    }
    Path dir = Files.createTempDirectory("solweb-bench-account-");
    Gate gate = new Gate(Path.of(root), dir, pi.get(), GateDaemon.SeatKind.FAKESOL, chromium, Set.of());
    Duration gap = sendGapMs == null ? SendGate.DEFAULT_GAP : Duration.ofMillis(sendGapMs);
    GateDaemon.Settings settings = GateDaemon.Settings.shipped()
        .pacing(new AccountPacing.Settings(gap, SendBudget.NONE));
    out.println("bench-account: " + turns + " turns per task, Send gap " + gap.toMillis() + " ms, burst rule more than "
        + rule[0] + " history/status requests in " + rule[1] + " s");
    out.flush();
    boolean clean = true;
    try {
      for (String client : clients) {
        Outcome outcome = run(gate, client, settings, Integer.parseInt(rule[0]), Duration.ofSeconds(Long.parseLong(rule[1])));
        out.println(outcome.line());
        out.flush();
        clean &= outcome.completed() && outcome.modals() == 0 && outcome.sends() == turns;
      }
    } finally {
      try (var walk = Files.walk(dir)) {
        walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
    return clean ? KillGate.OK : 1;
  }

  private Outcome run(Gate gate, String client, GateDaemon.Settings settings, int requests, Duration window)
      throws Exception {
    ObjectNode[] replies = new ObjectNode[turns];
    for (int i = 0; i < turns - 1; i++) {
      replies[i] = client.equals("pi")
          ? Scenarios.tool("bash", Scenarios.args().put("command", "echo step-" + (i + 1)))
          : Scenarios.tool("exec_command", Scenarios.args().put("cmd", "echo step-" + (i + 1)));
    }
    replies[turns - 1] = Scenarios.fin("All " + (turns - 1) + " steps ran.");
    String task = "KA: run the " + (turns - 1) + " steps, one at a time";
    try (Rig rig = gate.rig("account-" + client, Scenarios.defaults(replies), settings)) {
      FakeSol sol = rig.daemon.fakesol();
      sol.burstRule(requests, window);
      long t0 = System.currentTimeMillis();
      boolean completed;
      String last;
      if (client.equals("pi")) {
        ClientSession session = ClientSession.derive("bench-account-pi");
        Rig.Run run = rig.run(session, task, Duration.ofSeconds(60L * turns));
        completed = run.result().outcome().wireName().equals("completed");
        last = run.result().outcome().wireName();
      } else {
        Proc run = RealClients.codex(rig, task, 60L * turns);
        completed = run.exit() == 0 && run.stdout().contains("All " + (turns - 1) + " steps ran.");
        last = "exit " + run.exit();
      }
      long wall = System.currentTimeMillis() - t0;
      List<ScenarioPlayer.Send> sends = rig.sends();
      return new Outcome(client, completed, sends.size(), perTurn(sends, sol.historyRequestTimes()), sol.statusRequests(),
          sol.modals(), wall, last);
    }
  }

  /** History requests between one Send and the next (the last turn's: to the end). */
  private static List<Integer> perTurn(List<ScenarioPlayer.Send> sends, List<Instant> history) {
    List<Integer> counts = new ArrayList<>();
    for (int i = 0; i < sends.size(); i++) {
      Instant from = sends.get(i).at();
      Instant to = i + 1 < sends.size() ? sends.get(i + 1).at() : Instant.MAX;
      counts.add((int) history.stream().filter(t -> !t.isBefore(from) && t.isBefore(to)).count());
    }
    return counts;
  }

}

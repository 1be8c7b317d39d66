package dev.solweb.killgate.gate;

import dev.solweb.factory.pi.PiBinary;
import dev.solweb.provider.platform.Cli;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
import picocli.CommandLine;

/**
 * {@code bin/killgate-long}: runs issue 16's 40-turn task ({@link LongTask}) with the pinned Pi once
 * per compaction setting and script (one call per reply, or batched reads) and prints what each
 * did; how docs/compaction.md was measured.
 */
@Command(name = "killgate-long", mixinStandardHelpOptions = true,
    description = {
      "Runs the 40-turn long task (40-50 KB reads, test logs) with the pinned Pi against its own solwebd on "
          + "127.0.0.1, once per --compaction value, and prints: completed, tool calls, compactions, replays, "
          + "largest replay (bytes), characters typed, final occupancy. Every home is a temporary directory.",
      "",
      "Exit codes: 0 ran (whatever the task did), 2 usage, 4 not installed (Pi), 6 internal."
    })
public final class LongTaskCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = "--seat", paramLabel = "scripted|fakesol", defaultValue = "scripted",
      description = "scripted (default) or fakesol (the Playwright seat on fakesol, headless).")
  String seat;

  @Option(names = "--compaction", paramLabel = "shipped|default|KEEP/RESERVE", split = ",",
      defaultValue = "shipped,default",
      description = "Settings to run with: shipped (the factory plugin's materialized settings.json), default "
          + "(no settings.json: Pi's defaults), or keepRecentTokens/reserveTokens with retries off (default "
          + "${DEFAULT-VALUE}).")
  List<String> variants;

  @Option(names = "--script", paramLabel = "single|batched|batched-blind", split = ",", defaultValue = "single",
      description = "How the scripted model makes its 39 calls: single (one per reply), batched (up to "
          + LongTask.BATCH + " reads per reply while their results stay under " + LongTask.BATCH_CHARS
          + " characters, a large file alone) or batched-blind (" + LongTask.BATCH + " consecutive reads per reply);"
          + " several run one after another (default ${DEFAULT-VALUE}).")
  List<String> scripts;

  @Option(names = "--answer-delay-ms", paramLabel = "MS", defaultValue = "0",
      description = "How long every scripted answer takes, as a real page turn does (default ${DEFAULT-VALUE}: at once).")
  int answerDelayMs;

  @Option(names = "--chromium", paramLabel = "PATH", defaultValue = "/usr/bin/chromium",
      description = "Chromium for --seat fakesol (default ${DEFAULT-VALUE}).")
  Path chromium;

  @Option(names = "--evidence", paramLabel = "DIR", description = "Write each run's evidence JSON here.")
  Path evidence;

  private final Map<String, String> env;

  public LongTaskCommand(Map<String, String> env) {
    this.env = env;
  }

  public static void main(String[] args) {
    Cli.exit(Cli.of(new LongTaskCommand(System.getenv()), "killgate-long", 1), args);
  }

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    GateDaemon.SeatKind kind = switch (seat) {
      case "scripted" -> GateDaemon.SeatKind.SCRIPTED;
      case "fakesol" -> GateDaemon.SeatKind.FAKESOL;
      default -> null;
    };
    if (kind == null || variants.stream().anyMatch(v -> !v.matches("shipped|default|\\d+/\\d+"))
        || scripts.stream().anyMatch(v -> !v.matches("single|batched|batched-blind")) || answerDelayMs < 0) {
      spec.commandLine().getErr().println("killgate-long: bad --seat, --compaction, --script or --answer-delay-ms value");
      return KillGate.USAGE;
    }
    String rootVar = env.getOrDefault("SOLWEB_ROOT", "");
    Map<String, String> piEnv = new HashMap<>(env);
    Optional<Path> pi = PiBinary.locate(piEnv);
    if (rootVar.isBlank() || pi.isEmpty()) {
      spec.commandLine().getErr().println("killgate-long: " + PiBinary.missingMessage(piEnv));
      return KillGate.NOT_INSTALLED;
    }
    Path root = Files.createTempDirectory("solweb-killgate-long-");
    Gate gate = new Gate(Path.of(rootVar), root, pi.get(), kind, chromium, Set.of());
    try {
      int n = 0;
      for (String script : scripts) {
        for (String variant : variants) {
          runOne(gate, "long-" + (++n), script, variant, out);
        }
      }
    } finally {
      try (var walk = Files.walk(root)) {
        walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
    return KillGate.OK;
  }

  /** One run of the task: {@code script} (single|batched|batched-blind) under the compaction {@code variant}. */
  private void runOne(Gate gate, String name, String script, String variant, PrintWriter out) throws Exception {
    LongTask.Script kind = LongTask.Script.valueOf(script.replace('-', '_').toUpperCase(java.util.Locale.ROOT));
    try (Rig rig = gate.rig(name, LongTask.scenario(kind, answerDelayMs))) {
      Path agentDir = switch (variant) {
        case "shipped" -> rig.accountDir;
        case "default" -> rig.defaultSettingsAgentDir();
        default -> rig.agentDirWith(name, "{\"retry\":{\"enabled\":false,\"provider\":{\"maxRetries\":0}},"
            + "\"compaction\":{\"keepRecentTokens\":" + variant.split("/")[0] + ",\"reserveTokens\":"
            + variant.split("/")[1] + "}}");
      };
      // Up to 80 page turns (compactions included) of the answer delay, on top of the instant task's bound.
      Duration timeout = Duration.ofSeconds(600).plusMillis(80L * answerDelayMs);
      LongTask.Outcome outcome = LongTask.run(rig, name, agentDir, timeout);
      out.println("killgate-long: " + seat + " " + script + " " + variant + ": "
          + outcome.summary().lines().findFirst().orElse("") + "; largest replay "
          + outcome.evidence().path("largest_fresh_replay_bytes").asLong() + " bytes");
      out.flush();
      if (evidence != null) {
        Files.createDirectories(evidence);
        Files.writeString(evidence.resolve(seat + "-" + script + "-" + variant.replace('/', '_') + ".json"),
            outcome.evidence().toPrettyString() + "\n");
      }
    }
  }
}

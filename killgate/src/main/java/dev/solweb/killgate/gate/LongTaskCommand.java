package dev.solweb.killgate.gate;

import dev.solweb.factory.pi.PiBinary;
import dev.solweb.provider.platform.Cli;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bin/killgate-long}: runs issue 16's 40-turn task ({@link LongTask}) with the pinned Pi once
 * per compaction setting and prints what each did; how docs/compaction.md was measured.
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
    Cli.exit(new CommandLine(new LongTaskCommand(System.getenv())), args);
  }

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    GateDaemon.SeatKind kind = switch (seat) {
      case "scripted" -> GateDaemon.SeatKind.SCRIPTED;
      case "fakesol" -> GateDaemon.SeatKind.FAKESOL;
      default -> null;
    };
    if (kind == null || variants.stream().anyMatch(v -> !v.matches("shipped|default|\\d+/\\d+"))) {
      spec.commandLine().getErr().println("killgate-long: bad --seat or --compaction value");
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
      for (String variant : variants) {
        String name = "long-" + (++n);
        try (Rig rig = gate.rig(name, LongTask.scenario())) {
          Path agentDir = switch (variant) {
            case "shipped" -> rig.accountDir;
            case "default" -> rig.defaultSettingsAgentDir();
            default -> rig.agentDirWith(name, "{\"retry\":{\"enabled\":false,\"provider\":{\"maxRetries\":0}},"
                + "\"compaction\":{\"keepRecentTokens\":" + variant.split("/")[0] + ",\"reserveTokens\":"
                + variant.split("/")[1] + "}}");
          };
          LongTask.Outcome outcome = LongTask.run(rig, name, agentDir);
          out.println("killgate-long: " + seat + " " + variant + ": " + outcome.summary().lines().findFirst().orElse("")
              + "; largest replay " + outcome.evidence().path("largest_fresh_replay_bytes").asLong() + " bytes");
          out.flush();
          if (evidence != null) {
            Files.createDirectories(evidence);
            Files.writeString(evidence.resolve(seat + "-" + variant.replace('/', '_') + ".json"),
                outcome.evidence().toPrettyString() + "\n");
          }
        }
      }
    } finally {
      try (var walk = Files.walk(root)) {
        walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
    return KillGate.OK;
  }
}

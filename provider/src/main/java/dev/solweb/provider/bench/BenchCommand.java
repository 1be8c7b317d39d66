package dev.solweb.provider.bench;

import dev.solweb.provider.platform.Cli;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code bin/bench}: the command line of {@link ShimBench}. */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = {
      "Shim overhead with a scripted seat that answers instantly, against a real solwebd process on",
      "127.0.0.1 in a temporary home: per-turn latency of the largest accepted first turn (230 tool",
      "schemas) and of the refused 145 KB one, the 2 KB delta turn on chat completions and on",
      "Responses (SESSIONS conversations of TURNS turns each), SSE time to first byte, requests per",
      "second through one seat, and the daemon's RSS. Prints p50/p99 per measure; never talks to chatgpt.com.",
      "",
      "Exit codes: 0 measured, 1 the run failed, 2 usage."},
    subcommands = BenchCommand.Messages.class)
public final class BenchCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Parameters(index = "0", arity = "0..1", defaultValue = "25", paramLabel = "SESSIONS",
      description = "Delta-turn conversations per wire (default ${DEFAULT-VALUE}).")
  int sessions;

  @Parameters(index = "1", arity = "0..1", defaultValue = "40", paramLabel = "TURNS",
      description = "2 KB delta turns in each conversation (default ${DEFAULT-VALUE}).")
  int turns;

  public static void main(String[] args) {
    Cli.exit(Cli.of(new BenchCommand(), "bench", 1), args);
  }

  @Override
  public Integer call() throws Exception {
    if (sessions < 1 || turns < 1) {
      throw new ParameterException(spec.commandLine(), "SESSIONS and TURNS must be at least 1, got: " + sessions + " " + turns);
    }
    ShimBench.measure(sessions, turns);
    return 0;
  }

  /** {@code bin/bench messages}: the Anthropic wire straight, through ccr, and chat completions ({@link MessagesBench}). */
  @Command(
      name = "messages",
      mixinStandardHelpOptions = true,
      description = {
        "The 2 KB delta turn three ways in the same window, request by request: POST /v1/messages straight at",
        "solwebd, the same request through the pinned claude-code-router 2.0.0, and POST /v1/chat/completions.",
        "Prints p50/p99 per path; needs tools/ccr (npm ci --prefix tools/ccr).",
        "",
        "Exit codes: 0 measured, 1 the run failed, 2 usage, 4 ccr not installed."})
  static final class Messages implements Callable<Integer> {

    @Spec CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", defaultValue = "10", paramLabel = "SESSIONS",
        description = "Conversations per path (default ${DEFAULT-VALUE}).")
    int sessions;

    @Parameters(index = "1", arity = "0..1", defaultValue = "20", paramLabel = "TURNS",
        description = "2 KB delta turns in each conversation (default ${DEFAULT-VALUE}).")
    int turns;

    @Override
    public Integer call() throws Exception {
      if (sessions < 1 || turns < 1) {
        throw new ParameterException(spec.commandLine(), "SESSIONS and TURNS must be at least 1, got: " + sessions + " " + turns);
      }
      return MessagesBench.measure(sessions, turns) ? 0 : 4;
    }
  }
}

package dev.solweb.provider.sw;

import dev.solweb.provider.model.Effort;
import dev.solweb.provider.platform.Cli;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code sw}: runs Claude Code on a task with the ChatGPT web session as its model, straight at
 * solwebd's Messages API, or through claude-code-router with {@code --via-ccr} (seed 000 section
 * 5, the wrapper contract). This class parses and
 * validates; {@link SwRun} does the work. {@link #main} is the one exit ({@code Cli.exit}).
 */
@Command(
    name = "sw",
    mixinStandardHelpOptions = true,
    version = "sw 0.1.0",
    subcommands = {InstallCcrCommand.class},
    description = {
      "Run Claude Code on a task with solwebd, the local ChatGPT web session, as its model: Claude",
      "Code talks to solwebd's Anthropic Messages API itself, its key from an apiKeyHelper that",
      "runs `solwebctl token`. Order: ensure solwebd (solwebctl ensure), run Claude Code in the",
      "foreground under timeout -k 5, stdin /dev/null. The raw stream goes to a per-run log file;",
      "stdout is only the final status JSON line.",
      "--via-ccr routes through claude-code-router 2.0.0 instead (seed 000's path): ensure ccr",
      "(start it if its port is free) before the run; `sw install-ccr` registers solweb there (once).",
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:Claude Code ran to completion",
      "1:Claude Code ended with an error that is not a cap and not an unreachable provider",
      "2:bad or missing arguments",
      "3:solwebd (or, with --via-ccr, ccr) unreachable or unstartable, ChatGPT logged out, tools or registration missing",
      "75:ChatGPT usage cap (resume_at in the status line); nothing more is sent until then",
      "124:--timeout elapsed; Claude Code was stopped (TERM, KILL after 5 s)",
    },
    footer = {
      "",
      "Environment: SOLWEBD_HOME, SOLWEBD_PORT (see solwebctl), CCR_CONFIG, SW_LOG_DIR, SW_SEAT",
      "(seat for a daemon ensure starts; default playwright), SW_CHAT_URL, SW_CHROMIUM, SW_CLAUDE, SW_CCR,",
      "SW_CLAUDE_MAX_RETRIES (2), SW_CCR_START_TIMEOUT_S (30).",
    })
public final class Sw implements Callable<Integer> {
  static final String SLUG_PATTERN = "[A-Za-z0-9][A-Za-z0-9._-]{0,63}";
  static final String UUID_PATTERN = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";

  final SwEnv env;

  @Spec CommandSpec spec;

  @Option(names = "--workspace", paramLabel = "DIR", description = "Directory Claude Code works in (must exist).")
  Path workspace;

  @Option(names = "--trust", paramLabel = "PROMPT", description = "The task prompt (passed as one argv element, never through a shell).")
  String prompt;

  @Option(names = "--task-slug", paramLabel = "SLUG", description = "Names the run's log file; " + SLUG_PATTERN + ".")
  String taskSlug;

  @Option(names = "--model", paramLabel = "sol-web-<effort>", defaultValue = "sol-web-medium",
      description = "instant, medium, high, xhigh or pro (default ${DEFAULT-VALUE}).")
  String model;

  @Option(names = "--timeout", paramLabel = "SECS", defaultValue = "3600",
      description = "Stop Claude Code after SECS (default ${DEFAULT-VALUE}; a tool step takes 10-20 s).")
  long timeoutSeconds;

  @Option(names = "--session-id", paramLabel = "UUID", description = "Claude Code session id for this run (a UUID).")
  String sessionId;

  @Option(names = "--health", description = "Check that a run could start (ensure solwebd; with --via-ccr also registration and ccr); sends no turn.")
  boolean health;

  @Option(names = "--via-ccr", description = "Route Claude Code through claude-code-router 2.0.0 instead of straight to solwebd.")
  boolean viaCcr;

  @Option(names = "--list-models", description = "Print the model ids, one per line.")
  boolean listModels;

  public Sw(SwEnv env) {
    this.env = env;
  }

  public static void main(String[] args) {
    String root = System.getProperty("solweb.root");
    SwEnv env = SwEnv.of(System.getenv(), root == null || root.isEmpty() ? null : Path.of(root));
    Cli.exit(commandLine(env), args);
  }

  /** Runs one command line; tests call this with captured writers. */
  static int execute(SwEnv env, PrintWriter out, PrintWriter err, String... args) {
    return Cli.execute(commandLine(env), out, err, args);
  }

  private static CommandLine commandLine(SwEnv env) {
    CommandLine commandLine = Cli.of(new Sw(env), "sw", SwExit.FAILED);
    // A usage error still prints sw's one status line on stdout, as every run does.
    commandLine.setParameterExceptionHandler((e, parsed) -> {
      String why = e.getMessage();
      e.getCommandLine().getErr().println(Cli.usageLine(e));
      e.getCommandLine().getOut().println(new RunStatus(null, null, null).detail(why).finish(SwExit.USAGE));
      return SwExit.USAGE;
    });
    return commandLine;
  }

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (listModels) {
      Effort.modelIds().forEach(out::println);
      return SwExit.COMPLETED;
    }
    Effort effort = Effort.fromModelId(model).orElse(null);
    String invalid = effort == null ? "--model must be one of " + String.join(", ", Effort.modelIds()) + ", got: " + model
        : null;
    if (invalid == null && !health) {
      invalid = validateRun();
    }
    if (invalid != null) {
      err.println("sw: " + invalid);
      out.println(new RunStatus(taskSlug, model, workspace == null ? null : workspace.toString())
          .detail(invalid).finish(SwExit.USAGE));
      return SwExit.USAGE;
    }
    SwRun run = new SwRun(env, out, err);
    if (health) {
      return run.health(effort, viaCcr);
    }
    return run.run(new SwRun.Task(workspace.toAbsolutePath().normalize(), prompt, taskSlug, effort, timeoutSeconds,
        sessionId, viaCcr));
  }

  private String validateRun() {
    if (workspace == null) {
      return "--workspace DIR is required";
    }
    if (!workspace.toFile().isDirectory()) {
      return "--workspace " + workspace + " is not a directory";
    }
    if (prompt == null || prompt.isBlank()) {
      return "--trust PROMPT is required and must not be empty";
    }
    if (taskSlug == null) {
      return "--task-slug SLUG is required";
    }
    if (!taskSlug.matches(SLUG_PATTERN)) {
      return "--task-slug must match " + SLUG_PATTERN + ", got: " + taskSlug;
    }
    if (timeoutSeconds < 1) {
      return "--timeout must be at least 1 second, got: " + timeoutSeconds;
    }
    if (sessionId != null && !sessionId.matches(UUID_PATTERN)) {
      return "--session-id must be a UUID (Claude Code's session id format), got: " + sessionId;
    }
    return null;
  }

}

package dev.solweb.provider.ask;

import dev.solweb.provider.ctl.CtlEnv;
import dev.solweb.provider.daemon.SeatMixin;
import dev.solweb.provider.dispatch.TurnRequest;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.platform.Cli;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ask-gpt "PROMPT" [--attach FILE]... [--out DIR] [--effort E]}: one question to the
 * ChatGPT web session (seed 000 section 7). solwebd up: through {@code POST /v1/ask}, queued with
 * agentic turns. Down: a seat of its own under the profile lock. The same output either way.
 */
@Command(
    name = "ask-gpt",
    mixinStandardHelpOptions = true,
    version = "ask-gpt 0.1.0",
    description = {
      "Ask the ChatGPT web session one question; prints the answer, then `image: <path>` for each",
      "image of the reply saved into --out. With solwebd running the ask goes through it (POST /v1/ask,",
      "the same queue as agentic turns); without, ask-gpt opens its own seat under the profile lock",
      "(<profile>.lock) and releases it at exit. A held lock is reported at once, never waited for.",
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:answered", "1:the ask failed (protocol, timeout, cancelled, too long)", "2:bad arguments",
      "3:unavailable: logged out, no seat, daemon refused, profile busy", "75:usage cap (resume_at in the message)",
    },
    footer = {"", "Environment: SOLWEBD_HOME, SOLWEBD_PROFILE, ASK_GPT_SEAT (direct path seat; default playwright),",
        "SOLWEBD_TURN_TIMEOUT (300 s)."})
public final class AskGpt implements Callable<Integer> {

  private final CtlEnv env;

  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "PROMPT", description = "The question.")
  String prompt;

  @Option(names = "--attach", paramLabel = "FILE", description = "A file to attach (repeatable).")
  List<Path> attachments = new ArrayList<>();

  @Option(names = "--out", paramLabel = "DIR", description = "Where images of the reply are saved (default: the current directory).")
  Path out;

  @Option(names = "--effort", paramLabel = "E", defaultValue = "medium",
      description = "instant, medium, high, xhigh or pro (default ${DEFAULT-VALUE}).")
  String effort;

  /** The direct path's seat; {@code --seat} defaults to $ASK_GPT_SEAT, else playwright. */
  @Mixin SeatMixin seat;

  public AskGpt(CtlEnv env) {
    this.env = env;
  }

  public static void main(String[] args) {
    Cli.exit(Cli.of(new AskGpt(CtlEnv.fromSystem()), "ask-gpt", AskResult.FAILED), args);
  }

  /** Runs one command line; tests call this with captured writers. */
  public static int execute(CtlEnv env, PrintWriter out, PrintWriter err, String... args) {
    return Cli.execute(Cli.of(new AskGpt(env), "ask-gpt", AskResult.FAILED), out, err, args);
  }

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    Optional<Effort> chosen = Effort.fromSuffix(effort).or(() -> Effort.fromModelId(effort));
    if (chosen.isEmpty()) {
      err.println("ask-gpt: --effort must be instant, medium, high, xhigh or pro, got: " + effort);
      return AskResult.USAGE;
    }
    if (prompt.isBlank()) {
      err.println("ask-gpt: the prompt is empty");
      return AskResult.USAGE;
    }
    Path cwd = Path.of(System.getProperty("user.dir"));
    List<Path> files = new ArrayList<>();
    for (Path attachment : attachments) {
      Path absolute = cwd.resolve(attachment).normalize();
      if (!Files.isRegularFile(absolute) || !Files.isReadable(absolute)) {
        err.println("ask-gpt: --attach " + attachment + " is not a readable file");
        return AskResult.USAGE;
      }
      files.add(absolute);
    }
    Path outputDir = cwd.resolve(out == null ? Path.of(".") : out).normalize();
    TurnRequest.Ask ask = TurnRequest.Ask.of(chosen.get(), prompt, files, outputDir);
    Duration turnTimeout = Duration.ofMillis(Math.round(1000 * Double.parseDouble(
        env.env().getOrDefault("SOLWEBD_TURN_TIMEOUT", "300"))));

    // The daemon's queue can hold the ask a while before the turn starts; allow for it.
    Optional<AskResult> viaDaemon = new DaemonAsk(env, turnTimeout.multipliedBy(4)).ask(ask);
    AskResult result = viaDaemon.orElseGet(() -> {
      String seatSpec = seat.seatOr(env.env().getOrDefault("ASK_GPT_SEAT", SeatMixin.DEFAULT_SEAT));
      return new DirectAsk(seatSpec, seat.options(env.home(), env.profileDir()), turnTimeout).ask(ask);
    });
    return AskResult.print(result, spec.commandLine().getOut(), err);
  }
}

package dev.solweb.provider.ctl;

import dev.solweb.provider.platform.Cli;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * solwebctl: service control for solwebd (seed 001, "Canonical solwebctl"). One Callable per
 * verb; this class only wires them and names the exit codes in --help; its main is the one exit ({@code Cli.exit}).
 */
@Command(
    name = "solwebctl",
    mixinStandardHelpOptions = true,
    version = "solwebctl 0.1.0",
    description = {
      "Service control for solwebd, the local ChatGPT Sol provider.",
      "Home: $SOLWEBD_HOME, else ~/.overdeck/gptbridge (token, identity.json, state file, lock, logs).",
      "Profile: $SOLWEBD_PROFILE, else <home>/profile. Port for a new daemon: $SOLWEBD_PORT, else 8791.",
    },
    subcommands = {
      LoginCommand.class, EnrollCommand.class, EnsureCommand.class, HealthCommand.class, TokenCommand.class, StopCommand.class,
      DoctorCommand.class, CaptureCommand.class, ConversationsCommand.class, OpenCommand.class, ModelsCommand.class,
      CommandLine.HelpCommand.class
    },
    exitCodeListHeading = "%nExit codes (every verb):%n",
    exitCodeList = {
      "0:ok: the verb did what it says (ensure/health: the provider is ok; doctor: every check passed)",
      "1:not ready: not running, starting, logged out, capped, degraded, not authenticated,"
          + " required models missing, or fewer seats than --seats; login: timed out, window closed, interrupted;"
          + " doctor: a check failed; open: solwebd is not running or does not answer",
      "2:usage: bad arguments",
      "3:refused: token file (missing, not regular, wrong owner, mode not 0600, empty, malformed),"
          + " not enrolled, identity/account/profile/machine mismatch, ambiguous machine id,"
          + " non-local profile or topology, logged-out profile at enroll; login: the profile held by solwebd"
          + " or another process, a logged-in account other than the enrolled one; doctor/capture: the page"
          + " could not be opened (Chromium, the URL, a profile in use, the daemon refused);"
          + " conversations delete: an ID that is not a managed conversation, the profile in use;"
          + " open: the daemon refused the token",
      "4:ownership: stale state file (pid gone or reused with other start ticks), a process that is"
          + " not our solwebd, health from another instance, malformed state or health. Fails closed.",
      "5:start failed: the daemon could not start, did not answer, or was not ready in time;"
          + " login: the window could not open (no display, Chromium missing or failing)",
      "6:internal error",
      "7:incomplete: conversations delete skipped (in use) or failed to delete some conversations",
    })
public final class Solwebctl implements Callable<Integer> {

  final CtlEnv env;

  @Spec CommandSpec spec;

  public Solwebctl(CtlEnv env) {
    this.env = env;
  }

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return ExitCodes.USAGE;
  }

  public static void main(String[] args) {
    Cli.exit(commandLine(CtlEnv.fromSystem()), args);
  }

  /** Runs one command line; tests call this with captured writers. */
  public static int execute(CtlEnv env, PrintWriter out, PrintWriter err, String... args) {
    return Cli.execute(commandLine(env), out, err, args);
  }

  private static CommandLine commandLine(CtlEnv env) {
    return Cli.of(new Solwebctl(env), "solwebctl", ExitCodes.INTERNAL);
  }

  /** Prints a ProviderHealth outcome: JSON (or one line) on stdout, the reason on stderr when not OK. */
  static int print(CommandSpec spec, String verb, boolean json, Outcome outcome) {
    ProviderHealth health = outcome.health();
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.println(health.toJson());
    } else {
      out.println((health.ok() ? "ok " : "not ok ") + health.state() + " " + health.endpoint()
          + (health.pid() == null ? "" : " pid " + health.pid()) + " seats " + health.seats()
          + (health.account() == null ? "" : " account " + health.account())
          + (health.detail() == null ? "" : " (" + health.detail() + ")"));
    }
    if (outcome.exitCode() != ExitCodes.OK) {
      spec.commandLine().getErr().println("solwebctl " + verb + ": " + health.detail());
    }
    out.flush();
    return outcome.exitCode();
  }
}

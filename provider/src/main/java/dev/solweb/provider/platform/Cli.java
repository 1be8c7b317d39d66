package dev.solweb.provider.platform;

import java.io.PrintWriter;
import picocli.CommandLine;

/**
 * What every command-line main does, once: a picocli {@link CommandLine} whose unexpected
 * exceptions print {@code <name>: internal error: <exception>} and exit with the command's own
 * internal-error code, whose bad arguments print one line ({@link #usageLine}) and exit 2, never a
 * usage screen or a trace, and whose help is shaped alike for every verb ({@link HelpText}); one
 * run with writers a test can capture, and the process's only {@code System.exit}. A main is
 * {@code Cli.exit(Cli.of(command, name, internalExit), args)}.
 */
public final class Cli {
  private Cli() {}

  /** {@code command}'s command line, reporting a bug as {@code <name>: internal error: ...} and {@code internalExit}. */
  public static CommandLine of(Object command, String name, int internalExit) {
    return configure(new CommandLine(command), name, internalExit);
  }

  /** As {@link #of}, for a command line built with its own factory. */
  public static CommandLine configure(CommandLine commandLine, String name, int internalExit) {
    commandLine.setExecutionExceptionHandler((e, cl, parsed) -> {
      cl.getErr().println(name + ": internal error: " + e);
      return internalExit;
    });
    commandLine.setParameterExceptionHandler((e, args) -> {
      e.getCommandLine().getErr().println(usageLine(e));
      return e.getCommandLine().getCommandSpec().exitCodeOnInvalidInput();
    });
    HelpText.shape(commandLine);
    return commandLine;
  }

  /** A bad argument in one line: what was wrong and where the help is, e.g. {@code solwebctl login: Unknown option: '--x' (try `solwebctl login --help`)}. */
  public static String usageLine(CommandLine.ParameterException e) {
    String command = e.getCommandLine().getCommandSpec().qualifiedName();
    String why = String.valueOf(e.getMessage()).strip().replaceAll("\\s*\\R\\s*", "; ");
    return command + ": " + why + " (try `" + command + " --help`)";
  }

  /** Runs {@code args} with these writers and flushes both: the exit code (tests pass captured writers). */
  public static int execute(CommandLine commandLine, PrintWriter out, PrintWriter err, String... args) {
    commandLine.setOut(out);
    commandLine.setErr(err);
    int code = commandLine.execute(args);
    out.flush();
    err.flush();
    return code;
  }

  /** Runs {@code args} on the process's own stdout and stderr, then exits with the command's code. */
  public static void exit(CommandLine commandLine, String... args) {
    System.exit(execute(commandLine, new PrintWriter(System.out, true), new PrintWriter(System.err, true), args));
  }
}

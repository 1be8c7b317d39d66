package dev.solweb.factory.cli;

import dev.solweb.factory.preflight.Preflight;
import dev.solweb.factory.preflight.Refusal;
import dev.solweb.factory.preset.PresetLoader;
import dev.solweb.provider.platform.Cli;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * The front door: {@code factory-gpt [--effort medium|high|xhigh|pro] [-- FACTORY_ARGS...]}.
 * Preflight, then the installed {@code factory --preset gpt-sol-<effort> FACTORY_ARGS...} in the
 * foreground with this process's stdio; its exit code is returned unchanged and SIGINT/SIGTERM
 * are forwarded to it. No secret is passed, no other effort or provider is ever tried.
 */
@Command(
    name = "factory-gpt",
    mixinStandardHelpOptions = true,
    subcommands = {RunCommand.class, StatusCommand.class},
    description = {
      "Run Factory with its Pi agents on ChatGPT Sol (provider gpt, model gpt/sol-web-<effort>).",
      "",
      "Preflight first: effort, local topology, browser profile, `solwebctl ensure --seats 1 --json`. "
          + "Any refusal exits 3 and creates nothing. Then runs `factory --preset gpt-sol-<effort> ARGS` "
          + "($FACTORY_BIN overrides `factory` on PATH) and exits with its code.",
      "",
      "Exit codes: 0 ok, 1 attempt failed, 2 usage, 3 preflight refused, 4 not installed, 5 cancelled, "
          + "6 internal; in wrapper mode, Factory's own code once it started."
    })
public final class FactoryGpt implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = "--effort", defaultValue = "pro", paramLabel = "EFFORT",
      description = "medium, high, xhigh or pro (default ${DEFAULT-VALUE}).")
  String effort;

  @Parameters(paramLabel = "FACTORY_ARGS", arity = "0..*", description = "Passed to factory after `--`.")
  List<String> factoryArgs = new ArrayList<>();

  final Map<String, String> env;

  public FactoryGpt(Map<String, String> env) {
    this.env = env;
  }

  public static void main(String[] args) {
    Cli.exit(commandLine(System.getenv()), args);
  }

  /** The configured command line; tests call this with their own environment and writers. */
  public static CommandLine commandLine(Map<String, String> env) {
    return Cli.configure(new CommandLine(new FactoryGpt(env), new EnvFactory(env)), "factory-gpt", FactoryGptExit.INTERNAL);
  }

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    Preflight.Passed passed;
    try {
      passed = new Preflight(env, ensureTimeout(env)).check(effort);
      checkPreset(env, effort);
    } catch (Refusal r) {
      return refuse(err, r);
    }
    Optional<Path> factory = factoryBin(env);
    if (factory.isEmpty()) {
      err.println("factory-gpt: Factory is not installed: no `factory` on PATH and FACTORY_BIN is not set"
          + (env.get("FACTORY_BIN") == null ? "" : " to an executable (" + env.get("FACTORY_BIN") + ")"));
      return FactoryGptExit.NOT_INSTALLED;
    }
    List<String> command = new ArrayList<>(List.of(factory.get().toString(), "--preset",
        "gpt-sol-" + passed.effort().suffix()));
    command.addAll(factoryArgs);
    try {
      return ForegroundChild.run(command, env);
    } catch (IOException e) {
      err.println("factory-gpt: cannot start " + factory.get() + ": " + e.getMessage());
      return FactoryGptExit.NOT_INSTALLED;
    }
  }

  static int refuse(PrintWriter err, Refusal r) {
    err.println("factory-gpt: refused (" + r.kind().wireName() + "): " + r.getMessage());
    return FactoryGptExit.REFUSED;
  }

  static Duration ensureTimeout(Map<String, String> env) {
    return Duration.ofSeconds(Long.parseLong(env.getOrDefault("FACTORY_GPT_ENSURE_TIMEOUT_S", "150")));
  }

  /** The shipped preset for the effort must exist and validate before Factory starts. */
  static void checkPreset(Map<String, String> env, String effort) throws Refusal {
    Path dir = presetsDir(env);
    Path file = dir.resolve("gpt-sol-" + effort + ".yaml");
    if (!Files.isRegularFile(file)) {
      throw new Refusal(Refusal.Kind.MISSING_PRESET, "preset gpt-sol-" + effort + " is not installed (" + file + ")");
    }
    try {
      PresetLoader.load(file);
    } catch (IOException | IllegalArgumentException e) {
      throw new Refusal(Refusal.Kind.MISSING_PRESET, e.getMessage());
    }
  }

  /**
   * {@code SOLWEB_PRESETS_DIR}, else Factory's own {@code FACTORY_PRESETS_DIR} (where bin/install
   * links the presets and Factory loads them), else {@code <SOLWEB_ROOT>/presets}.
   */
  static Path presetsDir(Map<String, String> env) {
    for (String variable : new String[] {"SOLWEB_PRESETS_DIR", "FACTORY_PRESETS_DIR"}) {
      String explicit = env.get(variable);
      if (explicit != null && !explicit.isBlank()) {
        return Path.of(explicit);
      }
    }
    return Path.of(env.getOrDefault("SOLWEB_ROOT", "."), "presets");
  }

  static Optional<Path> factoryBin(Map<String, String> env) {
    String explicit = env.get("FACTORY_BIN");
    if (explicit != null && !explicit.isBlank()) {
      Path bin = Path.of(explicit);
      return Files.isExecutable(bin) && !Files.isDirectory(bin) ? Optional.of(bin) : Optional.empty();
    }
    for (String dir : env.getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "factory"))) {
        return Optional.of(Path.of(dir, "factory"));
      }
    }
    return Optional.empty();
  }

  /** Gives subcommands the same environment map the top command got. */
  private record EnvFactory(Map<String, String> env) implements CommandLine.IFactory {
    @Override
    public <K> K create(Class<K> cls) throws Exception {
      if (cls == RunCommand.class) {
        return cls.cast(new RunCommand(env));
      }
      if (cls == StatusCommand.class) {
        return cls.cast(new StatusCommand(env));
      }
      return CommandLine.defaultFactory().create(cls);
    }
  }
}

package dev.solweb.install;

import dev.solweb.provider.daemon.SeatStartFailure;
import dev.solweb.provider.platform.Cli;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code bin/install}: install the distribution it runs from, take it back, or prove the installed one works. */
@Command(
    name = "install",
    usageHelpWidth = 112,
    description = {
      "Installs the solweb distribution this runs from into PREFIX (default ~/.local/share/solweb) and",
      "wires it in: launchers linked into BIN_DIR (default ~/.local/bin); Pi's models.json",
      "($PI_CODING_AGENT_DIR, else ~/.pi/agent) becomes a symlink to PREFIX/models.json, or, when it is",
      "your own file with other providers, gets provider gpt merged in; Factory presets linked into",
      "$FACTORY_PRESETS_DIR (default ~/.config/factory/presets) and the factory-plugin jar into",
      "$FACTORY_PLUGIN_DIR (default ~/.config/factory/plugins); ccr's $CCR_CONFIG (default",
      "~/.claude-code-router/config.json) gets provider solweb through `sw install-ccr`; the Codex CLI's",
      "$CODEX_HOME/config.toml (default ~/.codex) gets [model_providers.solweb] (its token from",
      "`solwebctl token`, never in the file) and $CODEX_HOME/solweb.config.toml, so `codex -p solweb` works;",
      "Claude Code gets $CLAUDE_CONFIG_DIR/solweb-settings.json (default ~/.claude; its key from",
      "`solwebctl token`), so `claude --settings ~/.claude/solweb-settings.json` works; settings.json is not touched;",
      "opencode gets $XDG_CONFIG_HOME/opencode/solweb.json (default ~/.config/opencode; its key read from the token",
      "file, its title agent off), so `OPENCODE_CONFIG=~/.config/opencode/solweb.json opencode` works.",
      "Idempotent; every step is printed; anything of yours it changes is backed up first under",
      "PREFIX/backups, and PREFIX/install-manifest.json records what it did, so --uninstall removes",
      "exactly that and restores the backups byte for byte. It never creates or rewrites identity.json.",
      "",
      "Exit codes: 0 done, 1 a step (or a verify check) failed, 2 usage, 6 internal error.",
    })
public final class Install implements Callable<Integer> {
  static final int OK = 0;
  static final int FAILED = 1;
  static final int USAGE = 2;
  static final int INTERNAL = 6;

  @Spec CommandSpec spec;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
  boolean help;

  @Option(names = "--prefix", paramLabel = "DIR", description = "Install tree location (default " + Layout.PREFIX_DEFAULT + ").")
  String prefix;

  @Option(names = "--bin-dir", paramLabel = "DIR", description = "Where the launchers are linked (default ~/.local/bin).")
  String binDir;

  @Option(names = "--dry-run", description = "Print every step without changing anything.")
  boolean dryRun;

  @Option(names = "--uninstall", description = "Remove what the manifest records and restore the backups.")
  boolean uninstall;

  @Option(names = "--verify", description = "Prove the installed launchers work (pi --list-models, solwebctl health, one turn).")
  boolean verify;

  @Option(names = "--pi", paramLabel = "PATH", description = "The Pi that --verify runs (default: $PI_BIN, PREFIX/tools/pi, pi on PATH).")
  String pi;

  private final Map<String, String> env;
  private final Path source;

  public Install(Map<String, String> env, Path source) {
    this.env = env;
    this.source = source;
  }

  public static void main(String[] args) {
    String root = System.getProperty("solweb.root");
    Cli.exit(Cli.of(new Install(System.getenv(), root == null ? null : Path.of(root)), "install", INTERNAL), args);
  }

  @Override
  public Integer call() throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (source == null) {
      err.println("install: run through bin/install (it sets -Dsolweb.root)");
      return USAGE;
    }
    if (uninstall && verify) {
      err.println("install: --uninstall and --verify do not go together");
      return USAGE;
    }
    Layout layout = Layout.resolve(env, source, prefix, binDir);
    if (verify) {
      if (Manifest.read(layout.prefix()).isEmpty()) {
        err.println("install: nothing is installed at " + layout.prefix() + " (no " + Manifest.FILE_NAME + ")");
        return FAILED;
      }
      List<String> failed = new Verifier(layout, out, pi).run();
      out.println("verify: " + (failed.isEmpty() ? "all steps passed" : failed.size() + " failed: " + failed));
      return failed.isEmpty() ? OK : FAILED;
    }
    return uninstall ? uninstall(layout, out) : install(layout, out);
  }

  private int install(Layout layout, PrintWriter out) throws IOException {
    Instant start = Instant.now();
    String version = version(layout.source());
    Optional<Manifest> existing = Manifest.read(layout.prefix());
    Manifest manifest = existing.orElseGet(() -> new Manifest(version));
    out.println("install: solweb " + version + " from " + layout.source() + " into " + layout.prefix()
        + (existing.isPresent() ? " (over " + existing.get().version() + ")" : "") + (dryRun ? " [dry run]" : ""));
    Changes changes = new Changes(out, dryRun, manifest, layout);
    new Installer(layout, changes, manifest, out).run();
    if (!dryRun) {
      manifest.version(version);
      if (Files.isDirectory(layout.prefix())) {
        manifest.write(layout.prefix());
      }
    }
    out.println("install: " + (dryRun ? "dry run: " + changes.changed() + " changes would be made"
        : changes.changed() + " changed, " + changes.unchanged() + " unchanged")
        + (changes.failures().isEmpty() ? "" : ", " + changes.failures().size() + " FAILED")
        + " in " + Duration.between(start, Instant.now()).toMillis() + " ms");
    if (!dryRun && changes.failures().isEmpty()) {
      // Without a display `login` is refused; `login --web` shows its window in a browser instead.
      String login = SeatStartFailure.hasDisplay(env)
          ? " login` (once: log in to ChatGPT in the window it opens; it enrolls the account)"
          : " login --web` (once: no display here, so it prints a one-time URL that shows the login window in a"
              + " browser; log in there; it enrolls the account)";
      out.println("install: next: `" + layout.binDir().resolve("solwebctl") + login
          + ", then `solwebctl ensure`; `bin/install --verify` checks the install" + (layout.binDir().equals(Path.of(env.get("HOME"), ".local/bin"))
          ? "" : "; put " + layout.binDir() + " on PATH"));
    }
    return changes.failures().isEmpty() ? OK : FAILED;
  }

  private int uninstall(Layout layout, PrintWriter out) throws IOException {
    Optional<Manifest> read = Manifest.read(layout.prefix());
    if (read.isEmpty()) {
      out.println("install: nothing to uninstall at " + layout.prefix() + " (no " + Manifest.FILE_NAME + ")");
      return OK;
    }
    Manifest manifest = read.get();
    out.println("install: uninstalling solweb " + manifest.version() + " from " + layout.prefix() + (dryRun ? " [dry run]" : ""));
    Undo undo = new Undo(out, dryRun);
    List<Entry> entries = new ArrayList<>(manifest.entries());
    Collections.reverse(entries);
    List<Entry> left = new ArrayList<>();
    for (Entry entry : entries) {
      if (entry.kind() != Entry.Kind.DIR && !undo.undo(entry)) {
        left.add(0, entry);
      }
    }
    if (!dryRun) {
      if (left.isEmpty()) {
        Files.deleteIfExists(layout.manifestFile());
      } else {
        Manifest remaining = new Manifest(manifest.version());
        left.forEach(remaining::put);
        entries.stream().filter(e -> e.kind() == Entry.Kind.DIR).forEach(remaining::put);
        remaining.write(layout.prefix());
      }
    }
    for (Entry entry : entries) {
      if (entry.kind() == Entry.Kind.DIR) {
        undo.undo(entry);
      }
    }
    out.println("install: " + (left.isEmpty() && undo.warnings() == 0 ? "uninstalled" : "uninstalled with "
        + undo.warnings() + " warning(s); " + left.size() + " item(s) left in place (see above)"));
    return left.isEmpty() && undo.warnings() == 0 ? OK : FAILED;
  }

  static String version(Path tree) throws IOException {
    Properties properties = new Properties();
    Path file = tree.resolve("solweb-version.properties");
    if (!Files.isRegularFile(file)) {
      return "unknown";
    }
    try (InputStream in = Files.newInputStream(file)) {
      properties.load(in);
    }
    String commit = properties.getProperty("commit", "");
    String version = properties.getProperty("version", "dev");
    return commit.isBlank() || commit.startsWith("$") ? version : version + "+" + commit;
  }
}

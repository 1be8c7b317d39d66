package dev.solweb.install;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.solweb.provider.platform.SolwebHome;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The install steps, in order; each prints what it does and records it in the manifest:
 * <ol>
 *   <li>the tree (bin/, lib/, models.json, presets/, adapters/) copied under the prefix;
 *   <li>the Playwright driver unpacked once into {@code <prefix>/playwright-driver} (when the tree has Playwright);
 *   <li>{@code <prefix>/tools/pi} and {@code tools/ccr} linked to the source repo's pinned tools (a repo build);
 *   <li>the launchers linked into the bin dir;
 *   <li>Pi's models.json: the managed symlink, or provider gpt merged into the user's own file;
 *   <li>Pi's settings.json: the shipped pi-settings.json (compaction) merged in key by key;
 *   <li>Factory: the presets and the factory-plugin jar linked into Factory's directories;
 *   <li>ccr: the solweb provider merged into ccr's config by {@code sw install-ccr};
 *   <li>Codex: {@code [model_providers.solweb]} merged into {@code $CODEX_HOME/config.toml} and the
 *       profile {@code solweb.config.toml} beside it ({@link CodexConfig});
 *   <li>Claude Code: {@code solweb-settings.json} in its config dir, for {@code claude --settings}
 *       straight at solwebd ({@link ClaudeSettings});
 *   <li>opencode: {@code solweb.json} in its config dir, for {@code OPENCODE_CONFIG=... opencode}
 *       ({@link OpencodeConfig});
 *   <li>whatever an earlier install put in place and this one no longer ships is taken back.
 * </ol>
 * Never touched: the enrollment ({@code identity.json}), the token, the browser profile.
 */
final class Installer {
  static final List<String> LAUNCHERS = List.of("solwebd", "solwebctl", "factory-gpt", "sw", "ask-gpt");
  static final String PLUGIN_LINK = "solweb-factory-plugin.jar";
  private static final ObjectMapper JSON = InstallerJson.MAPPER;

  private final Layout layout;
  private final Changes changes;
  private final Manifest prior;
  private final PrintWriter out;

  Installer(Layout layout, Changes changes, Manifest prior, PrintWriter out) {
    this.layout = layout;
    this.changes = changes;
    this.prior = prior;
    this.out = out;
  }

  void run() throws IOException {
    step(this::tree);
    step(this::playwrightDriver);
    step(this::pinnedTools);
    step(this::launchers);
    step(this::piModels);
    step(this::piSettings);
    step(this::factory);
    step(this::ccr);
    step(this::codex);
    step(this::claude);
    step(this::opencode);
    if (changes.failures().isEmpty()) {
      stale();
    } else {
      changes.note("a step failed: nothing of an earlier install is taken back this time");
    }
  }

  private interface Step {
    void run() throws IOException, StepFailed;
  }

  private void step(Step step) throws IOException {
    try {
      step.run();
    } catch (StepFailed e) {
      changes.fail(e);
    }
  }

  /** Where a tree file comes from: the source tree, or (dry run, or re-run from the prefix) the prefix. */
  private Path shipped(String relative) {
    return layout.source().resolve(relative);
  }

  private void tree() throws IOException, StepFailed {
    if (layout.runsInstalled()) {
      changes.note("running from the installed tree " + layout.prefix() + ": nothing to copy");
      prior.entries().stream().filter(e -> e.kind() == Entry.Kind.FILE).forEach(e -> changes.keep(e.path()));
      return;
    }
    changes.mkdirs(layout.prefix());
    List<Path> files;
    try (Stream<Path> walk = Files.walk(layout.source())) {
      files = walk.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)).sorted().toList();
    }
    for (Path file : files) {
      Path relative = layout.source().relativize(file);
      if (relative.startsWith("backups") || relative.startsWith("playwright-driver")
          || relative.toString().equals(Manifest.FILE_NAME)) {
        continue;
      }
      changes.copyFile(file, layout.prefix().resolve(relative));
    }
  }

  private void playwrightDriver() throws IOException, StepFailed {
    Path lib = shipped("lib");
    Optional<Path> bundle;
    try (Stream<Path> jars = Files.list(lib)) {
      bundle = jars.filter(p -> p.getFileName().toString().startsWith("driver-bundle-")).findFirst();
    }
    Path dir = layout.prefix().resolve("playwright-driver");
    if (bundle.isEmpty()) {
      changes.say("skip", dir, "this distribution has no Playwright driver");
      return;
    }
    String stamp = bundle.get().getFileName() + ":" + Files.size(bundle.get());
    Optional<Entry> before = prior.get(dir);
    if (before.isPresent() && stamp.equals(before.get().target()) && Files.isDirectory(dir)) {
      changes.say("unchanged", dir, "Playwright driver " + bundle.get().getFileName());
      changes.recordExternal(before.get());
      return;
    }
    if (Files2.exists(dir) && before.isEmpty()) {
      throw new StepFailed(dir + " exists and was not made by the installer; move it away, then install again");
    }
    changes.say("unpack", dir, "Playwright driver from " + bundle.get().getFileName()
        + " (once; the launchers set PLAYWRIGHT_DRIVER_DIR to it)");
    if (!changes.dryRun()) {
      if (Files.isDirectory(dir)) {
        Undo.deleteTree(dir);
      }
      String classpath = Files.readString(layout.prefix().resolve("lib/provider.classpath"), StandardCharsets.UTF_8)
          .strip().replace("@LIB@", layout.prefix().resolve("lib").toString());
      Path java = Path.of(System.getProperty("java.home"), "bin", "java");
      run(List.of(java.toString(), "-cp", classpath, "com.microsoft.playwright.CLI", "install-driver", dir.toString()),
          "Playwright install-driver");
    }
    changes.recordExternal(new Entry(Entry.Kind.TREE, dir, null, stamp, null));
  }

  /**
   * The pinned npm tools (tools/pi: Pi; tools/ccr: Claude Code and ccr) are 200+ MB of node_modules
   * each, so they are not copied: a repo build links {@code <prefix>/tools/<tool>} to the repo's
   * (installed there by {@code npm ci --prefix tools/<tool>}); PI_BIN, SW_CLAUDE and SW_CCR override.
   */
  private void pinnedTools() throws IOException, StepFailed {
    for (String tool : List.of("pi", "ccr")) {
      Path link = layout.prefix().resolve("tools").resolve(tool);
      if (layout.runsInstalled()) {
        prior.get(link).ifPresent(e -> changes.keep(link));
        continue;
      }
      Path pinned = repoOf(layout.source()).map(r -> r.resolve("tools").resolve(tool)).orElse(null);
      if (pinned == null || !Files.isDirectory(pinned.resolve("node_modules/.bin"))) {
        changes.say("skip", link, "no pinned tools/" + tool + " next to this distribution"
            + (tool.equals("pi") ? "; set PI_BIN for factory-gpt and --verify" : "; set SW_CLAUDE and SW_CCR for sw"));
        prior.get(link).ifPresent(e -> changes.keep(link));
        continue;
      }
      changes.link(link, pinned);
    }
  }

  /** The repo a dist/target/solweb-VERSION tree was built in. */
  static Optional<Path> repoOf(Path tree) {
    Path target = tree.getParent();
    Path dist = target == null ? null : target.getParent();
    Path repo = dist == null ? null : dist.getParent();
    if (repo != null && target.getFileName().toString().equals("target") && dist.getFileName().toString().equals("dist")
        && Files.isRegularFile(repo.resolve("pom.xml"))) {
      return Optional.of(repo);
    }
    return Optional.empty();
  }

  private void launchers() throws IOException, StepFailed {
    for (String name : LAUNCHERS) {
      Path launcher = layout.prefix().resolve("bin").resolve(name);
      if (Files.isExecutable(shipped("bin/" + name))) {
        changes.link(layout.binDir().resolve(name), launcher);
      }
    }
  }

  private void piModels() throws IOException, StepFailed {
    Path file = layout.piAgentDir().resolve("models.json");
    Optional<Entry> before = prior.get(file);
    boolean ourLink = before.isPresent() && before.get().kind() == Entry.Kind.LINK && Files2.stillOurs(before.get());
    PiModels.Plan plan = PiModels.plan(file, changes.dryRun() && !Files.exists(layout.models())
        ? shipped("models.json") : layout.models(), ourLink);
    if (plan instanceof PiModels.Merge m) {
      changes.rewrite(file, m.bytes(), m.replacesTheirs()
          ? "your own models.json: provider gpt replaced by the managed one, other providers kept"
          : "your own models.json: provider gpt added, other providers kept");
    } else if (plan instanceof PiModels.AlreadyMerged) {
      changes.say("unchanged", file, "your own models.json; provider gpt already merged");
      before.ifPresent(changes::recordExternal);
    } else {
      changes.link(file, layout.models());
    }
  }

  /**
   * Pi reads its compaction settings only from settings.json (global or project), not per provider:
   * direct {@code pi} use gets the values the factory plugin materializes for Factory phases.
   */
  private void piSettings() throws IOException, StepFailed {
    Path file = layout.piAgentDir().resolve("settings.json");
    Optional<Entry> before = prior.get(file).filter(e -> e.kind() == Entry.Kind.SETTINGS);
    Path ours = shipped("pi-settings.json");
    if (!Files.isRegularFile(ours)) {
      changes.say("skip", file, "this distribution ships no pi-settings.json");
      before.ifPresent(e -> changes.keep(file));
      return;
    }
    PiSettings.Plan plan = PiSettings.plan(file, ours, before.orElse(null));
    if (plan instanceof PiSettings.Create c) {
      changes.mergeKeys(file, c.bytes(), c.record(), "Pi's compaction settings for solwebd's budget (docs/compaction.md)");
    } else if (plan instanceof PiSettings.Merge m) {
      changes.mergeKeys(file, m.bytes(), m.record(), "Pi's compaction settings merged, your other settings kept"
          + (m.replaced().isEmpty() ? "" : "; replaced " + String.join(", ", m.replaced())));
    } else {
      changes.say("unchanged", file, "Pi's compaction settings already merged");
      before.ifPresent(changes::recordExternal);
    }
  }

  private void factory() throws IOException, StepFailed {
    List<Path> presets;
    try (Stream<Path> list = Files.list(shipped("presets"))) {
      presets = list.filter(p -> p.getFileName().toString().endsWith(".yaml")).sorted().toList();
    }
    for (Path preset : presets) {
      changes.link(layout.presetsDir().resolve(preset.getFileName().toString()),
          layout.prefix().resolve("presets").resolve(preset.getFileName().toString()));
    }
    Optional<Path> jar;
    try (Stream<Path> list = Files.list(shipped("lib"))) {
      jar = list.filter(p -> p.getFileName().toString().matches("solweb-factory-plugin-.*\\.jar")).findFirst();
    }
    if (jar.isPresent()) {
      changes.link(layout.pluginDir().resolve(PLUGIN_LINK), layout.prefix().resolve("lib").resolve(jar.get().getFileName()));
    }
  }

  /**
   * ccr's provider entry is {@code sw install-ccr}'s job (issue 7); the installer backs the config
   * up first so uninstall can restore it byte for byte. sw needs solwebd's token: on a machine where
   * solwebd never ran there is none yet, and the step is skipped with what to do.
   */
  private void ccr() throws IOException, StepFailed {
    Path config = layout.ccrConfig();
    Path sw = layout.prefix().resolve("bin/sw");
    Optional<Entry> before = prior.get(config);
    before.ifPresent(e -> changes.keep(config));
    if (!Files.isExecutable(shipped("bin/sw"))) {
      changes.say("skip", config, "this distribution has no sw (ccr registration comes with it)");
      return;
    }
    Path token = solwebdHome().resolve("solwebd.token");
    if (!Files.exists(token)) {
      changes.say("skip", config, "no solwebd token yet (" + token + "); after `solwebctl enroll` and `solwebctl ensure`,"
          + " run bin/install again");
      return;
    }
    if (changes.dryRun()) {
      changes.say("run", config, sw + " install-ccr");
      return;
    }
    boolean existed = Files2.exists(config);
    boolean ours = before.isPresent() && Files2.stillOurs(before.get());
    Path backup = before.map(Entry::backup).orElse(null);
    Path freshBackup = null;
    if (existed && !ours) {
      if (backup != null) {
        throw new StepFailed(config + " changed since the last install and its earlier backup " + backup
            + " is still kept; move one of them away, then install again");
      }
      freshBackup = layout.backupOf(config);
      changes.mkdirs(freshBackup.getParent());
      Files.copy(config, freshBackup, StandardCopyOption.COPY_ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
    }
    byte[] beforeBytes = existed ? Files.readAllBytes(config) : null;
    String report = run(List.of(sw.toString(), "install-ccr"), "sw install-ccr");
    JsonNode json = JSON.readTree(report.lines().reduce((a, b) -> b).orElse("{}"));
    byte[] after = Files.readAllBytes(config);
    if (beforeBytes != null && java.util.Arrays.equals(beforeBytes, after)) {
      if (freshBackup != null) {
        Files.delete(freshBackup);
      }
      changes.say("unchanged", config, "ccr provider solweb already registered");
      before.ifPresent(changes::recordExternal);
      return;
    }
    // sw keeps its own config.json.bak-<time> too; ours is the one uninstall restores, and sw's
    // copy is recorded as created so uninstall removes it (home as it was, byte for byte).
    if (json.hasNonNull("backup")) {
      Path swBackup = Path.of(json.get("backup").asText());
      if (Files.isRegularFile(swBackup, LinkOption.NOFOLLOW_LINKS)) {
        changes.recordExternal(new Entry(Entry.Kind.CREATED, swBackup, Files2.sha256(swBackup), null, null));
      }
    }
    if (freshBackup != null) {
      changes.say("backup", config, "copy kept at " + freshBackup);
    }
    changes.say(existed ? "merge" : "create", config, "ccr provider solweb -> " + json.path("api_base_url").asText()
        + " by sw install-ccr");
    String sha = Files2.sha256(after);
    changes.recordExternal(existed || backup != null
        ? new Entry(Entry.Kind.MERGED, config, sha, null, freshBackup != null ? freshBackup : backup)
        : new Entry(Entry.Kind.CREATED, config, sha, null, null));
  }

  /** The Codex CLI's provider table and profile; the token stays out: Codex runs solwebctl token. */
  private void codex() throws IOException, StepFailed {
    Path config = layout.codexHome().resolve("config.toml");
    Path profile = layout.codexHome().resolve(CodexConfig.PROFILE_FILE);
    if (!Files.isExecutable(shipped("bin/solwebctl"))) {
      changes.say("skip", config, "this distribution has no solwebctl (Codex gets its token from it)");
      prior.get(config).ifPresent(e -> changes.keep(config));
      prior.get(profile).ifPresent(e -> changes.keep(profile));
      return;
    }
    String table = CodexConfig.table(layout.binDir().resolve("solwebctl"));
    Optional<Entry> before = prior.get(config);
    CodexConfig.Plan plan = CodexConfig.plan(config, table);
    if (plan instanceof CodexConfig.AlreadyMerged) {
      changes.say("unchanged", config, "Codex provider solweb already merged");
      before.ifPresent(changes::recordExternal);
    } else if (plan instanceof CodexConfig.Create c) {
      changes.create(config, c.bytes(), "Codex provider solweb");
    } else if (plan instanceof CodexConfig.Merge m) {
      boolean ours = before.isPresent() && Files2.stillOurs(before.get());
      String why = m.replacesTheirs() ? "Codex provider solweb replaced by the managed one, the rest kept"
          : "Codex provider solweb added, the rest kept";
      if (ours && before.get().kind() == Entry.Kind.CREATED) {
        changes.create(config, m.bytes(), why);
      } else {
        changes.rewrite(config, m.bytes(), why);
      }
    } else {
      throw new IllegalStateException("Unhandled plan: " + plan);
    }
    changes.create(profile, CodexConfig.profile().getBytes(StandardCharsets.UTF_8), "`codex -p solweb`");
  }

  /** Claude Code's settings file for direct use; the token stays out: Claude Code runs solwebctl token. */
  private void claude() throws IOException, StepFailed {
    Path file = layout.claudeDir().resolve(ClaudeSettings.FILE);
    if (!Files.isExecutable(shipped("bin/solwebctl"))) {
      changes.say("skip", file, "this distribution has no solwebctl (Claude Code gets its key from it)");
      prior.get(file).ifPresent(e -> changes.keep(file));
      return;
    }
    changes.create(file, ClaudeSettings.render(layout.binDir().resolve("solwebctl")),
        "`claude --settings " + file + "` straight at solwebd");
  }

  /** opencode's config file for solwebd; its key stays in the token file, which opencode reads itself. */
  private void opencode() throws IOException, StepFailed {
    Path file = layout.opencodeDir().resolve(OpencodeConfig.FILE);
    changes.create(file, OpencodeConfig.render("http://127.0.0.1:" + CodexConfig.PORT + "/v1",
        solwebdHome().resolve(dev.solweb.provider.platform.TokenFile.NAME)), "`OPENCODE_CONFIG=" + file + " opencode` at solwebd");
  }

  private Path solwebdHome() {
    return SolwebHome.daemonHome(layout.env());
  }

  /** Takes back what an earlier install recorded and this one did not redo (e.g. a launcher no longer shipped). */
  private void stale() throws IOException {
    List<Entry> gone = new ArrayList<>(prior.entries().stream().filter(e -> !changes.wasTouched(e.path())).toList());
    Collections.reverse(gone);
    Undo undo = new Undo(out, changes.dryRun());
    for (Entry entry : gone) {
      if (entry.kind() == Entry.Kind.DIR) {
        continue; // a directory of an earlier install stays while anything else of ours may be in it
      }
      if (undo.undo(entry) && !changes.dryRun()) {
        changes.manifest().remove(entry.path());
      }
    }
  }

  private String run(List<String> command, String what) throws IOException, StepFailed {
    ProcessBuilder builder = new ProcessBuilder(command)
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectErrorStream(true);
    builder.environment().clear();
    builder.environment().putAll(layout.env());
    builder.environment().put("CCR_CONFIG", layout.ccrConfig().toString());
    builder.environment().put("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1");
    Process process = builder.start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    try {
      if (!process.waitFor(120, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new StepFailed(what + " did not finish within 120 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StepFailed(what + " was interrupted");
    }
    if (process.exitValue() != 0) {
      throw new StepFailed(what + " exited " + process.exitValue() + ": " + output.strip());
    }
    return output;
  }
}

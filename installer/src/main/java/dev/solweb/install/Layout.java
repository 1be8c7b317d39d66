package dev.solweb.install;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Where everything goes, resolved once from the options and the environment (never the real home
 * in tests: every path follows {@code HOME} or its own variable).
 *
 * @param source the install tree this installer runs from ({@code -Dsolweb.root})
 * @param prefix the installed tree: {@code --prefix}, else {@code ~/.local/share/solweb}
 * @param binDir where the launchers are linked: {@code --bin-dir}, else {@code ~/.local/bin}
 * @param piAgentDir Pi's agent dir: {@code $PI_CODING_AGENT_DIR}, else {@code ~/.pi/agent}
 * @param presetsDir Factory's presets: {@code $FACTORY_PRESETS_DIR}, else {@code ~/.config/factory/presets}
 * @param pluginDir Factory's plugins: {@code $FACTORY_PLUGIN_DIR}, else {@code ~/.config/factory/plugins}
 * @param ccrConfig ccr's config: {@code $CCR_CONFIG}, else {@code ~/.claude-code-router/config.json}
 * @param codexHome the Codex CLI's home: {@code $CODEX_HOME}, else {@code ~/.codex}
 * @param claudeDir Claude Code's config dir: {@code $CLAUDE_CONFIG_DIR}, else {@code ~/.claude}
 * @param env the environment the installer's children (sw install-ccr, verify) inherit
 */
public record Layout(Path source, Path prefix, Path binDir, Path piAgentDir, Path presetsDir, Path pluginDir,
    Path ccrConfig, Path codexHome, Path claudeDir, Map<String, String> env) {

  public static final String PREFIX_DEFAULT = "~/.local/share/solweb";

  public static Layout resolve(Map<String, String> env, Path source, String prefix, String binDir) throws IOException {
    String home = env.get("HOME");
    if (home == null || home.isBlank()) {
      throw new IOException("HOME is not set");
    }
    return new Layout(source,
        real(path(home, prefix, null, PREFIX_DEFAULT)),
        path(home, binDir, null, "~/.local/bin"),
        path(home, null, env.get("PI_CODING_AGENT_DIR"), "~/.pi/agent"),
        path(home, null, env.get("FACTORY_PRESETS_DIR"), "~/.config/factory/presets"),
        path(home, null, env.get("FACTORY_PLUGIN_DIR"), "~/.config/factory/plugins"),
        path(home, null, env.get("CCR_CONFIG"), "~/.claude-code-router/config.json"),
        path(home, null, env.get("CODEX_HOME"), "~/.codex"),
        path(home, null, env.get("CLAUDE_CONFIG_DIR"), "~/.claude"),
        Map.copyOf(env));
  }

  public Path manifestFile() {
    return prefix.resolve(Manifest.FILE_NAME);
  }

  public Path backups() {
    return prefix.resolve("backups");
  }

  /** Where the original of {@code path} is kept: its absolute path under {@code <prefix>/backups}. */
  public Path backupOf(Path path) {
    return backups().resolve(path.getRoot().relativize(path).toString());
  }

  /** opencode's config dir: {@code $XDG_CONFIG_HOME/opencode}, else {@code ~/.config/opencode}. */
  public Path opencodeDir() {
    String xdg = env.get("XDG_CONFIG_HOME");
    return xdg != null && !xdg.isBlank() ? Path.of(xdg, "opencode").toAbsolutePath().normalize()
        : path(env.get("HOME"), null, null, "~/.config/opencode");
  }

  public Path models() {
    return prefix.resolve("models.json");
  }

  public boolean runsInstalled() {
    return source.equals(prefix);
  }

  private static Path path(String home, String option, String variable, String fallback) {
    String value = option != null && !option.isBlank() ? option
        : variable != null && !variable.isBlank() ? variable : fallback;
    if (value.equals("~") || value.startsWith("~/")) {
      value = home + value.substring(1);
    }
    return Path.of(value).toAbsolutePath().normalize();
  }

  // The prefix as the launchers see their root (`pwd -P`): symlinks in existing ancestors resolved,
  // so the daemon ownership check compares the same text.
  private static Path real(Path path) throws IOException {
    Path existing = path;
    while (existing != null && !Files.exists(existing)) {
      existing = existing.getParent();
    }
    if (existing == null) {
      return path;
    }
    return existing.toRealPath().resolve(existing.relativize(path)).normalize();
  }
}

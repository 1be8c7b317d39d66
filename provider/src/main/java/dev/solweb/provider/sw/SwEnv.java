package dev.solweb.provider.sw;

import dev.solweb.provider.ctl.CtlEnv;
import dev.solweb.provider.platform.SolwebHome;
import java.nio.file.Path;
import java.util.Map;

/**
 * Everything sw reads from its surroundings, resolved once, so tests run it over temp homes and
 * fake programs without touching the real ones.
 *
 * <ul>
 *   <li>{@code SW_CLAUDE}, {@code SW_CCR}: the programs; default the pinned ones in
 *       {@code <root>/tools/ccr/node_modules/.bin} (never a global install)
 *   <li>{@code CCR_CONFIG}: ccr's config; default {@code $HOME/.claude-code-router/config.json},
 *       the only place ccr 2.0.0 itself reads, so sw refuses to start ccr over any other file
 *   <li>{@code SW_LOG_DIR}: per-run logs; default {@code <solwebd home>/sw-runs}
 *   <li>{@code SW_SEAT}, {@code SW_CHAT_URL}, {@code SW_CHROMIUM}: how ensure starts a daemon when none runs (default the
 *       real page, {@code playwright}; a scripted seat only when asked for by name)
 *   <li>{@code SW_CLAUDE_MAX_RETRIES} (2): Claude Code's retries; its default of 10 spends ~187 s
 *       retrying a cap through ccr
 *   <li>{@code SW_PROGRESS_S} (10): seconds between progress lines on stderr while Claude Code runs (0: none)
 *   <li>{@code SW_CCR_START_TIMEOUT_S} (30): how long a starting ccr may take to answer
 * </ul>
 */
record SwEnv(Map<String, String> env, CtlEnv ctl, Path root) {

  SwEnv {
    env = Map.copyOf(env);
  }

  static SwEnv of(Map<String, String> env, Path root) {
    return new SwEnv(env, CtlEnv.of(env, root), root);
  }

  private String get(String name) {
    String value = env.get(name);
    return value == null || value.isEmpty() ? null : value;
  }

  Path userHome() {
    return SolwebHome.userHome(env);
  }

  Path claude() {
    String value = get("SW_CLAUDE");
    return value != null ? Path.of(value) : pinned("claude");
  }

  Path ccr() {
    String value = get("SW_CCR");
    return value != null ? Path.of(value) : pinned("ccr");
  }

  private Path pinned(String name) {
    if (root == null) {
      throw new IllegalStateException("sw does not know its install root; run it through bin/sw");
    }
    return root.resolve("tools/ccr/node_modules/.bin").resolve(name);
  }

  /** Where ccr 2.0.0 reads its config: always under $HOME. */
  Path ccrNativeConfig() {
    return userHome().resolve(".claude-code-router").resolve("config.json");
  }

  Path ccrConfig() {
    String value = get("CCR_CONFIG");
    return value != null ? Path.of(value).toAbsolutePath() : ccrNativeConfig();
  }

  Path logDir() {
    String value = get("SW_LOG_DIR");
    return value != null ? Path.of(value).toAbsolutePath() : ctl.home().resolve("sw-runs");
  }

  String seat() {
    String value = get("SW_SEAT");
    return value != null ? value : "playwright";
  }

  String chatUrl() {
    return get("SW_CHAT_URL");
  }

  String chromium() {
    return get("SW_CHROMIUM");
  }

  int claudeMaxRetries() {
    String value = get("SW_CLAUDE_MAX_RETRIES");
    return value == null ? 2 : Integer.parseInt(value);
  }

  long progressSeconds() {
    String value = get("SW_PROGRESS_S");
    return value == null ? 10 : Long.parseLong(value);
  }

  long ccrStartTimeoutSeconds() {
    String value = get("SW_CCR_START_TIMEOUT_S");
    return value == null ? 30 : Long.parseLong(value);
  }
}

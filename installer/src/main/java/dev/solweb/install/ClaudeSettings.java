package dev.solweb.install;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;

/**
 * Claude Code's settings for direct use, {@code <claude config dir>/solweb-settings.json}, read
 * by {@code claude --settings ~/.claude/solweb-settings.json}: solwebd's Messages API as the base
 * URL, its key from an {@code apiKeyHelper} that runs the installed {@code solwebctl token}, a
 * {@code sol-web-*} model, and the switches that keep Claude Code from calling anywhere else.
 *
 * <p>A file of its own, like Codex's {@code solweb.config.toml} profile: merged into the user's
 * {@code settings.json} it would send every Claude Code session to ChatGPT, so nothing of theirs
 * is touched. The token never enters it.
 */
final class ClaudeSettings {
  static final String FILE = "solweb-settings.json";
  static final String MODEL = "sol-web-high";

  private ClaudeSettings() {}

  static byte[] render(Path solwebctl) throws java.io.IOException {
    ObjectNode root = InstallerJson.MAPPER.createObjectNode();
    root.put("apiKeyHelper", "'" + solwebctl.toString().replace("'", "'\\''") + "' token");
    root.put("model", MODEL);
    ObjectNode env = root.putObject("env");
    env.put("ANTHROPIC_BASE_URL", "http://127.0.0.1:" + CodexConfig.PORT);
    env.put("DISABLE_TELEMETRY", "1");
    env.put("DISABLE_AUTOUPDATER", "1");
    env.put("DISABLE_ERROR_REPORTING", "1");
    env.put("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");
    return PiModels.render(root);
  }
}

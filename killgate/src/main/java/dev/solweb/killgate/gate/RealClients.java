package dev.solweb.killgate.gate;

import dev.solweb.provider.platform.Json;
import dev.solweb.provider.platform.TokenFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The pinned real clients other than Pi, run once against a {@link Rig}'s solwebd (through its
 * recording proxy) with the settings solweb ships for each; each returns what the process printed.
 * The token never enters argv or the environment: Codex and Claude Code run {@code solwebctl token},
 * the OpenAI SDK script reads the token file.
 */
final class RealClients {

  private RealClients() {}

  /** {@code codex exec PROMPT} with the provider table bin/install writes (request and stream retries 0). */
  static Proc codex(Rig rig, String prompt, long timeoutSeconds) throws Exception {
    Path repo = rig.gate.repo;
    Path home = Files.createDirectories(rig.dir.resolve("codex-home"));
    Files.writeString(home.resolve("config.toml"), Files.readString(repo.resolve("tools/codex/config.test.toml"))
        .replace("@PORT@", Integer.toString(rig.proxy.port())).replace("@SOLWEBCTL@", repo.resolve("bin/solwebctl").toString()));
    Map<String, String> env = Map.of("HOME", rig.dir.resolve("home").toString(), "CODEX_HOME", home.toString(),
        "PATH", "/usr/bin:/bin", "SOLWEBD_HOME", rig.daemon.home.toString());
    return Proc.run(List.of(repo.resolve("tools/codex/node_modules/.bin/codex").toString(), "exec", "--skip-git-repo-check",
        "--dangerously-bypass-approvals-and-sandbox", prompt), env, rig.workspace, timeoutSeconds);
  }

  /** Claude Code {@code -p PROMPT} straight at /v1/messages as bin/sw runs it ({@code CLAUDE_CODE_MAX_RETRIES} 2). */
  static Proc claudeCode(Rig rig, String prompt, long timeoutSeconds) throws Exception {
    Path repo = rig.gate.repo;
    String helper = "'" + repo.resolve("bin/solwebctl") + "' token";
    String settings = Json.MAPPER.createObjectNode().put("apiKeyHelper", helper).toString();
    Map<String, String> env = new HashMap<>(Check12ClaudeCode.environment(rig));
    env.put("CLAUDE_CODE_MAX_RETRIES", "2");
    return Proc.run(List.of(repo.resolve("tools/ccr/node_modules/.bin/claude").toString(), "--settings", settings, "-p",
        "--model", Rig.EFFORT.modelId(), "--", prompt), env, rig.workspace, timeoutSeconds);
  }

  /** One chat completion through the official OpenAI Node SDK with its default retries (tools/openai-sdk/chat.mjs). */
  static Proc openaiSdk(Rig rig, String prompt, long timeoutSeconds) throws Exception {
    Path repo = rig.gate.repo;
    return Proc.run(List.of("node", repo.resolve("tools/openai-sdk/chat.mjs").toString(), rig.proxy.baseUrl(),
        rig.daemon.home.resolve(TokenFile.NAME).toString(), Rig.EFFORT.modelId(), prompt),
        Map.of("PATH", "/usr/bin:/bin", "HOME", rig.dir.toString()), rig.workspace, timeoutSeconds);
  }

  /** The pinned opencode's Linux x64 binary (tools/opencode). */
  static Path opencodeBinary(Path repo) {
    return repo.resolve("tools/opencode/node_modules/opencode-linux-x64/bin/opencode");
  }

  /** {@code opencode run PROMPT} with the config bin/install writes (title agent off), its key read from the token file. */
  static Proc opencode(Rig rig, String prompt, long timeoutSeconds) throws Exception {
    Path home = Files.createDirectories(rig.dir.resolve("opencode-home"));
    Path config = home.resolve(dev.solweb.install.OpencodeConfig.FILE);
    Files.write(config, dev.solweb.install.OpencodeConfig.render(rig.proxy.baseUrl(),
        rig.daemon.home.resolve(TokenFile.NAME)));
    Map<String, String> env = new HashMap<>();
    env.put("HOME", home.toString());
    env.put("PATH", "/usr/bin:/bin");
    env.put("OPENCODE_CONFIG", config.toString());
    env.put("XDG_CONFIG_HOME", home.resolve(".config").toString());
    env.put("XDG_DATA_HOME", home.resolve(".local/share").toString());
    env.put("XDG_CACHE_HOME", home.resolve(".cache").toString());
    env.put("XDG_STATE_HOME", home.resolve(".local/state").toString());
    env.put("OPENCODE_DISABLE_AUTOUPDATE", "1");
    env.put("OPENCODE_DISABLE_MODELS_FETCH", "1");
    return Proc.run(List.of(opencodeBinary(rig.gate.repo).toString(), "run", "--model", "solweb/" + Rig.EFFORT.modelId(),
        prompt), env, rig.workspace, timeoutSeconds);
  }
}

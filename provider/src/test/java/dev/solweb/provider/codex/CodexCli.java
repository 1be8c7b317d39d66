package dev.solweb.provider.codex;

import static org.assertj.core.api.Assertions.assertThat;

import dev.solweb.testkit.Programs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The pinned real Codex CLI (tools/codex, 0.171.0) in a temp world: its own HOME and CODEX_HOME
 * (never ~/.codex), and the provider table bin/install writes (docs/codex.md) pointed at a loopback
 * port: the token comes from {@code bin/solwebctl token} ({@code auth.command}) reading the test
 * daemon's home, so it is in neither the file nor Codex's environment.
 *
 * <p>The config is {@code tools/codex/config.test.toml}: {@code [features] plugins = false} is what
 * keeps Codex on loopback; with only the update check and analytics off, Codex 0.169 still runs
 * {@code git ls-remote https://github.com/openai/plugins.git} at start (measured with strace).
 */
final class CodexCli {
  static final Path ROOT = Path.of(System.getProperty("user.dir")).getParent();
  static final Path BINARY = ROOT.resolve("tools/codex/node_modules/.bin/codex");

  /** What one {@code codex exec} did. */
  record Run(int exitCode, String stdout, String stderr) {
    String all() {
      return stdout + "\n" + stderr;
    }
  }

  final Path home;
  final Path codexHome;
  final Path workspace;
  private final Path solwebdHome;

  CodexCli(Path dir, int port, Path solwebdHome) throws IOException {
    this(dir, port, solwebdHome, "");
  }

  /** As above, with {@code providerLines} appended to the solweb provider table. */
  CodexCli(Path dir, int port, Path solwebdHome, String providerLines) throws IOException {
    Programs.require("node");
    assertThat(BINARY).as("the pinned Codex is missing; run: npm ci --prefix tools/codex").isExecutable();
    this.home = Files.createDirectories(dir.resolve("home"));
    this.codexHome = Files.createDirectories(dir.resolve("codex-home"));
    this.workspace = Files.createDirectories(dir.resolve("ws"));
    this.solwebdHome = solwebdHome;
    Files.writeString(codexHome.resolve("config.toml"), config(port) + providerLines);
  }

  /** tools/codex/config.test.toml pointed at {@code port}, its token from bin/solwebctl. */
  static String config(int port) throws IOException {
    return Files.readString(ROOT.resolve("tools/codex/config.test.toml"))
        .replace("@PORT@", Integer.toString(port)).replace("@SOLWEBCTL@", ROOT.resolve("bin/solwebctl").toString());
  }

  /** {@code codex exec PROMPT}, or {@code codex exec resume --last PROMPT}. */
  Run exec(String prompt, boolean resumeLast) throws Exception {
    List<String> command = new ArrayList<>(List.of(BINARY.toString(), "exec", "--skip-git-repo-check",
        "--dangerously-bypass-approvals-and-sandbox"));
    if (resumeLast) {
      command.addAll(List.of("resume", "--last"));
    }
    command.add(prompt);
    ProcessBuilder builder = new ProcessBuilder(command).directory(workspace.toFile());
    Map<String, String> env = builder.environment();
    env.clear();
    env.put("HOME", home.toString());
    env.put("CODEX_HOME", codexHome.toString());
    env.put("PATH", "/usr/bin:/bin");
    env.put("SOLWEBD_HOME", solwebdHome.toString());
    Path out = Files.createTempFile(home, "codex", ".out");
    Path err = Files.createTempFile(home, "codex", ".err");
    builder.redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
    builder.redirectOutput(out.toFile()).redirectError(err.toFile());
    Process process = builder.start();
    if (!process.waitFor(120, TimeUnit.SECONDS)) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly().waitFor();
      throw new AssertionError("codex exec did not finish in 120 s:\n" + Files.readString(err));
    }
    return new Run(process.exitValue(), Files.readString(out), Files.readString(err));
  }
}

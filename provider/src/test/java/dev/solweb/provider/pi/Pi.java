package dev.solweb.provider.pi;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.testkit.Programs;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The pinned real Pi (tools/pi, 0.73.1) in a temp world: HOME, PI_CODING_AGENT_DIR and the
 * workspace are temp dirs, stdin is /dev/null, PATH holds the repo's bin/ (for
 * {@code !solwebctl token}) and node, and nothing else of the caller's environment leaks in.
 */
final class Pi {

  static final Path ROOT = Path.of(System.getProperty("user.dir")).getParent();
  static final Path BINARY = ROOT.resolve("tools/pi/node_modules/.bin/pi");
  static final String VERSION = "0.73.1";
  private static final ObjectMapper JSON = new ObjectMapper();

  final Path home;
  final Path agentDir;
  Path workspace;
  final Map<String, String> env = new HashMap<>();

  record Result(int exitCode, String out, String err) {
    List<String> lines() {
      return out.lines().toList();
    }
  }

  Pi(Path dir) throws IOException {
    Programs.require("node");
    assertThat(BINARY).as("the pinned Pi is missing; run: npm ci --prefix tools/pi").isExecutable();
    home = Files.createDirectories(dir.resolve("home"));
    agentDir = Files.createDirectories(dir.resolve("agent"));
    workspace = Files.createDirectories(dir.resolve("workspace"));
    env.put("HOME", home.toString());
    env.put("PI_CODING_AGENT_DIR", agentDir.toString());
    env.put("PATH", ROOT.resolve("bin") + ":" + nodeDir() + ":/usr/bin:/bin");
    env.put("PI_OFFLINE", "1");
    env.put("NO_PROXY", "127.0.0.1,localhost");
    env.put("LANG", "C.UTF-8");
  }

  /** models.json = the repo's, with baseUrl moved to {@code port}; settings.json turns every retry off. */
  Pi providerOn(int port, Path solwebdHome) throws IOException {
    ObjectNode models = (ObjectNode) JSON.readTree(ROOT.resolve("models.json").toFile());
    ((ObjectNode) models.path("providers").path("gpt")).put("baseUrl", "http://127.0.0.1:" + port + "/v1");
    Files.writeString(agentDir.resolve("models.json"), models.toPrettyString());
    Files.writeString(agentDir.resolve("settings.json"), "{\"retry\":{\"enabled\":false,\"provider\":{\"maxRetries\":0}}}\n");
    env.put("SOLWEBD_HOME", solwebdHome.toString());
    return this;
  }

  /** Runs Pi in {@code dir} instead of its own workspace (Pi's system prompt names the cwd). */
  Pi inWorkspace(Path dir) {
    workspace = dir;
    return this;
  }

  Process start(List<String> args, boolean pipeStdin) throws IOException {
    List<String> command = new ArrayList<>(List.of(BINARY.toString()));
    command.addAll(args);
    ProcessBuilder builder = new ProcessBuilder(command).directory(workspace.toFile());
    if (!pipeStdin) {
      builder.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    }
    builder.environment().clear();
    builder.environment().putAll(env);
    return builder.start();
  }

  Result run(String... args) throws Exception {
    return finish(start(List.of(args), false), 120);
  }

  static Result finish(Process process, int timeoutSeconds) throws Exception {
    CompletableFuture<String> out = drain(process.getInputStream());
    CompletableFuture<String> err = drain(process.getErrorStream());
    if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("pi did not finish in " + timeoutSeconds + "s; stderr: " + err.getNow(""));
    }
    return new Result(process.exitValue(), out.get(5, TimeUnit.SECONDS), err.get(5, TimeUnit.SECONDS));
  }

  static CompletableFuture<String> drain(InputStream stream) {
    return CompletableFuture.supplyAsync(() -> {
      try {
        return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }

  private static String nodeDir() {
    for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
      if (Files.isExecutable(Path.of(dir, "node"))) {
        return dir;
      }
    }
    throw new AssertionError("node is not on PATH; the pinned Pi needs it");
  }
}

package dev.solweb.factory.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.solweb.factory.pi.AgentDirMaterializer;
import dev.solweb.factory.pi.PiBinary;
import dev.solweb.testkit.Programs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Temp homes for a real-Pi test: a managed agent dir with a provider {@code gpt} models.json
 * pointing at {@code baseUrl}, an account dir materialized from it, a workspace, a token file
 * (mode 0600) and a stub {@code solwebctl} on PATH whose {@code token} prints it (the same route
 * Pi takes in production: {@code "apiKey": "!solwebctl token"}).
 */
public final class PiFixture {

  public static final String TOKEN = "tok_" + "Zk3vQp9sLmW2xR7yT4uB8nC1dE6fG0hJ5aKqPzXw";

  public final Path root;
  public final Path managedDir;
  public final Path accountDir;
  public final Path workspace;
  public final Path solwebdHome;
  public final Path binDir;
  public final Path pi;

  public PiFixture(Path root, String baseUrl) throws IOException {
    this.root = root;
    managedDir = Files.createDirectories(root.resolve("home/.pi/agent"));
    workspace = Files.createDirectories(root.resolve("workspace"));
    solwebdHome = Files.createDirectories(root.resolve("home/.overdeck/gptbridge"));
    binDir = Files.createDirectories(root.resolve("bin"));
    Files.writeString(managedDir.resolve("models.json"), modelsJson(baseUrl));
    Path token = solwebdHome.resolve("solwebd.token");
    Files.writeString(token, TOKEN);
    Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-------"));
    writeScript(binDir.resolve("solwebctl"),
        "#!/bin/sh\ncase \"$1\" in token) cat \"$SOLWEBD_HOME/solwebd.token\" ;; *) exit 9 ;; esac\n");
    accountDir = AgentDirMaterializer.materialize(managedDir, root.resolve("accounts/a1/agent"));
    pi = locatePi();
  }

  /** The pinned Pi; a missing one fails the test with how to install it (no silent skip). */
  public static Path locatePi() {
    Programs.require("node");
    Optional<Path> found = PiBinary.locate(testEnv());
    assertThat(found).as(PiBinary.missingMessage(testEnv())).isPresent();
    return found.get();
  }

  private static Map<String, String> testEnv() {
    Map<String, String> env = new HashMap<>(System.getenv());
    if (!env.containsKey(PiBinary.ROOT_ENV)) {
      // Tests run from factory-plugin/; the checkout root is one up.
      env.put(PiBinary.ROOT_ENV, Path.of("").toAbsolutePath().getParent().toString());
    }
    return env;
  }

  /** The environment a caller would hand the runner: the test's, with HOME and PATH moved. */
  public Map<String, String> parentEnv() {
    Map<String, String> env = new HashMap<>(System.getenv());
    env.put("HOME", root.resolve("home").toString());
    env.put("SOLWEBD_HOME", solwebdHome.toString());
    env.put("PATH", binDir + ":" + System.getenv("PATH"));
    env.put("SOLWEBD_TOKEN_LEAK_CHECK", TOKEN);
    env.put("SOME_API_KEY", "sk-should-not-reach-pi");
    return env;
  }

  public static String modelsJson(String baseUrl) {
    StringBuilder models = new StringBuilder();
    for (String effort : new String[] {"medium", "high", "xhigh", "pro"}) {
      if (models.length() > 0) {
        models.append(',');
      }
      models.append("{\"id\":\"sol-web-").append(effort).append("\",\"name\":\"ChatGPT Sol Web ").append(effort)
          .append("\",\"reasoning\":false,\"input\":[\"text\"],")
          .append("\"cost\":{\"input\":0,\"output\":0,\"cacheRead\":0,\"cacheWrite\":0},")
          .append("\"contextWindow\":120000,\"maxTokens\":16000}");
    }
    return "{\"providers\":{\"gpt\":{\"baseUrl\":\"" + baseUrl + "\",\"apiKey\":\"!solwebctl token\","
        + "\"api\":\"openai-completions\",\"authHeader\":true,"
        + "\"headers\":{\"X-Overdeck-Client-Session\":\"OVERDECK_PI_CLIENT_SESSION\"},"
        + "\"models\":[" + models + "]}}}";
  }

  public static void writeScript(Path file, String text) throws IOException {
    Files.writeString(file, text);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx------"));
  }
}

package dev.solweb.factory.pi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.solweb.factory.testing.PiFixture;
import dev.solweb.provider.platform.Json;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgentDirMaterializerTest {

  static final Path SHIPPED_MODELS = Path.of("..", "models.json").toAbsolutePath().normalize();
  @TempDir Path tmp;

  /** A managed default dir laid out like the deployment: models.json a symlink to the shipped file. */
  private Path managed() throws Exception {
    Path managed = Files.createDirectories(tmp.resolve("home/.pi/agent"));
    Files.createSymbolicLink(managed.resolve("models.json"), SHIPPED_MODELS);
    Files.createDirectories(tmp.resolve("ext-src"));
    Files.writeString(tmp.resolve("ext-src/README"), "extensions");
    Files.createSymbolicLink(managed.resolve("extensions"), tmp.resolve("ext-src"));
    return managed;
  }

  @Test
  void linksModelsAndExtensionsTurnsRetriesOffAndKeepsTheAccountsAuth() throws Exception {
    Path managed = managed();
    Path account = Files.createDirectories(tmp.resolve("accounts/a1"));
    Files.writeString(account.resolve("auth.json"), "{\"gpt\":{\"type\":\"api_key\",\"key\":\"account-own\"}}");
    Files.writeString(account.resolve("settings.json"),
        "{\"theme\":\"dark\",\"retry\":{\"enabled\":true},\"compaction\":{\"enabled\":true,\"keepRecentTokens\":20000}}");

    AgentDirMaterializer.materialize(managed, account);

    assertThat(Files.readSymbolicLink(account.resolve("models.json"))).isEqualTo(SHIPPED_MODELS.toRealPath());
    assertThat(Files.readSymbolicLink(account.resolve("extensions"))).isEqualTo(tmp.resolve("ext-src").toRealPath());
    assertThat(Json.MAPPER.readTree(account.resolve("settings.json").toFile()).toString())
        .isEqualTo("{\"theme\":\"dark\",\"retry\":{\"enabled\":false,\"provider\":{\"maxRetries\":0}},"
            + "\"compaction\":{\"enabled\":true,\"keepRecentTokens\":15000,\"reserveTokens\":16384}}");
    assertThat(Files.readString(account.resolve("auth.json"))).contains("account-own");

    AgentDirMaterializer.materialize(managed, account); // idempotent
    assertThat(Files.readSymbolicLink(account.resolve("models.json"))).isEqualTo(SHIPPED_MODELS.toRealPath());
  }

  @Test
  void theCompactionSettingsAreTheOnesBinInstallShipsForDirectPi() throws Exception {
    Path shipped = Path.of("..", "pi-settings.json").toAbsolutePath().normalize();
    assertThat(Json.MAPPER.readTree(shipped.toFile()).path("compaction"))
        .isEqualTo(Json.MAPPER.readTree(AgentDirMaterializer.COMPACTION).path("compaction"));
  }

  @Test
  void refusesToReplaceAnAccountsOwnModelsFile() throws Exception {
    Path account = Files.createDirectories(tmp.resolve("accounts/a2"));
    Files.writeString(account.resolve("models.json"), "{}");
    assertThatThrownBy(() -> AgentDirMaterializer.materialize(managed(), account))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("models.json");
  }

  @Test
  void refusesAManagedDirWithoutModels() {
    assertThatThrownBy(() -> AgentDirMaterializer.materialize(tmp, tmp.resolve("a")))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("no models.json");
  }

  @Test
  void piListModelsShowsTheFourGptModelsInTheDefaultAndEveryMaterializedDir() throws Exception {
    Path managed = managed();
    Path a1 = AgentDirMaterializer.materialize(managed, tmp.resolve("accounts/a1"));
    Path a2 = AgentDirMaterializer.materialize(managed, tmp.resolve("accounts/a2"));
    for (Path dir : List.of(managed, a1, a2)) {
      List<String> rows = listModels(dir).lines().filter(l -> l.startsWith("gpt ")).toList();
      assertThat(rows).as("gpt rows in " + dir).hasSize(4);
      assertThat(String.join("\n", rows)).contains("sol-web-medium", "sol-web-high", "sol-web-xhigh", "sol-web-pro")
          .doesNotContain("sol-web-instant");
    }
  }

  /** Pi prints the table to STDERR when stdin is not a TTY (PI-FACTS §2); stdin is /dev/null. */
  private String listModels(Path agentDir) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(PiFixture.locatePi().toString(), "--list-models", "--offline")
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectErrorStream(true);
    Map<String, String> env = pb.environment();
    env.put("HOME", tmp.resolve("home").toString());
    if (agentDir.equals(tmp.resolve("home/.pi/agent"))) {
      env.remove("PI_CODING_AGENT_DIR"); // the real default: ~/.pi/agent under HOME
    } else {
      env.put("PI_CODING_AGENT_DIR", agentDir.toString());
    }
    env.put("PI_OFFLINE", "1");
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes());
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    return out;
  }
}

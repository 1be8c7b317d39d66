package dev.solweb.dist;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The installed launchers (through the bin dir's symlinks, PATH = bin dir + system) against a
 * temp solwebd home on the scripted seat: factory-gpt maps an effort to the installed preset, and
 * the installed solwebctl refuses a development daemon started from the repo.
 */
class InstalledLaunchersTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  /** A temp solwebd home enrolled through the installed solwebctl on the scripted seat (never the real home). */
  private static Map<String, String> enrolledHome(Tree t, Path dir) throws Exception {
    Path home = dir.resolve("gptbridge");
    Files.createDirectories(home.resolve("profile"));
    Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwx------"));
    Map<String, String> env = new HashMap<>(Map.of("SOLWEBD_HOME", home.toString(), "SOLWEBD_PORT", "0"));
    Tree.Run enroll = t.installed(env, "solwebctl", "enroll", "--current-profile", "--seat", "scripted:echo", "--json");
    assertThat(enroll.exitCode()).as(enroll.all()).isZero();
    return env;
  }

  @Test
  void installedFactoryGptHighRunsFactoryWithTheInstalledPreset() throws Exception {
    Tree t = new Tree(dir);
    Tree.Run install = t.install();
    assertThat(install.exitCode()).as(install.all()).isZero();
    Map<String, String> env = enrolledHome(t, dir);
    Path factory = dir.resolve("fake-factory");
    // Stands in for Factory: prints its argv and resolves --preset NAME in its preset dir as Factory does.
    Files.writeString(factory, "#!/bin/bash\necho \"factory argv: $*\"\n"
        + "echo \"preset file: $(readlink -f \"${FACTORY_PRESETS_DIR:-$HOME/.config/factory/presets}/$2.yaml\")\"\n");
    Files.setPosixFilePermissions(factory, PosixFilePermissions.fromString("rwx------"));
    env.put("FACTORY_BIN", factory.toString());
    try {
      Tree.Run ensure = t.installed(env, "solwebctl", "ensure", "--seat", "scripted:echo", "--json");
      assertThat(ensure.exitCode()).as(ensure.all()).isZero();
      Tree.Run run = t.installed(env, "factory-gpt", "--effort", "high", "--", "plan", "task.md");
      assertThat(run.exitCode()).as(run.all()).isZero();
      assertThat(run.out()).contains("factory argv: --preset gpt-sol-high plan task.md",
          "preset file: " + t.prefix.resolve("presets/gpt-sol-high.yaml"));
      assertThat(Files.readString(t.prefix.resolve("presets/gpt-sol-high.yaml"))).contains("model: gpt/sol-web-high");
    } finally {
      Tree.Run stop = t.installed(env, "solwebctl", "stop", "--json");
      assertThat(stop.exitCode()).as(stop.all()).isZero();
    }
  }

  @Test
  void aDevelopmentDaemonFromTheRepoIsRefusedByTheInstalledEnsure() throws Exception {
    Tree t = new Tree(dir);
    Tree.Run install = t.install();
    assertThat(install.exitCode()).as(install.all()).isZero();
    Map<String, String> env = enrolledHome(t, dir);
    Map<String, String> devEnv = new HashMap<>(t.env);
    devEnv.putAll(env);
    Path home = Path.of(env.get("SOLWEBD_HOME"));
    // The repo's own launcher, as a developer starts it (bin/solwebd runs provider/target/classes).
    Process dev = new ProcessBuilder(Tree.REPO.resolve("bin/solwebd").toString(), "--seat", "scripted:echo",
        "--port", "0", "--home", home.toString())
        .redirectErrorStream(true).redirectOutput(dir.resolve("dev-solwebd.log").toFile()).start();
    try {
      Instant deadline = Instant.now().plus(Duration.ofSeconds(90));
      while (!Files.exists(home.resolve("solwebd.state.json")) && Instant.now().isBefore(deadline) && dev.isAlive()) {
        Thread.sleep(100);
      }
      assertThat(home.resolve("solwebd.state.json")).as(Files.readString(dir.resolve("dev-solwebd.log"))).exists();

      Tree.Run ensure = t.installed(env, "solwebctl", "ensure", "--seat", "scripted:echo", "--json");
      assertThat(ensure.exitCode()).as(ensure.all()).isEqualTo(4);
      JsonNode health = JSON.readTree(ensure.out());
      assertThat(health.path("ok").asBoolean()).isFalse();
      assertThat(health.path("detail").asText()).contains("is not our installed solwebd: it runs a development build ("
          + Tree.REPO.resolve("provider/target/classes") + ")", "not the installed " + t.prefix.resolve("lib"),
          "stop it where it was started");
      assertThat(dev.isAlive()).as("refused, never stopped").isTrue();

      Tree.Run health2 = t.installed(env, "solwebctl", "health", "--json");
      assertThat(health2.exitCode()).isEqualTo(4);
    } finally {
      Tree.Run stop = Tree.run(List.of(Tree.REPO.resolve("bin/solwebctl").toString(), "stop", "--json"), devEnv, 60);
      assertThat(stop.exitCode()).as("the repo's solwebctl owns its dev daemon: " + stop.all()).isZero();
      dev.destroyForcibly();
    }
  }
}

package dev.solweb.install;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The installer in process over a small synthetic tree and a temp HOME: the cases where the user
 * changed something between runs, stale items, refusals and dry runs. (The real tree, the real
 * launchers and --verify are tested in the dist module.)
 */
class InstallerTest {
  private static final String MODELS = """
      {
        "providers": {
          "gpt": {"baseUrl": "http://127.0.0.1:8791/v1", "api": "openai-completions", "models": [{"id": "sol-web-pro"}]}
        }
      }
      """;

  private static final String PI_SETTINGS = "{\"compaction\": {\"keepRecentTokens\": 15000, \"reserveTokens\": 16384}}\n";

  @TempDir Path dir;
  private Path tree;
  private Path home;
  private Path prefix;

  record Run(int exitCode, String out) {}

  @BeforeEach
  void setUp() throws IOException {
    tree = Files.createDirectories(dir.resolve("tree"));
    home = Files.createDirectories(dir.resolve("home")).toRealPath();
    prefix = home.resolve(".local/share/solweb");
    for (String launcher : new String[] {"solwebd", "solwebctl", "factory-gpt"}) {
      write(tree.resolve("bin/" + launcher), "#!/bin/sh\necho " + launcher + "\n", "rwxr-xr-x");
    }
    write(tree.resolve("lib/provider.classpath"), "@LIB@/solweb-provider-1.jar\n", "rw-r--r--");
    write(tree.resolve("lib/solweb-provider-1.jar"), "jar", "rw-r--r--");
    write(tree.resolve("lib/solweb-factory-plugin-1.jar"), "jar", "rw-r--r--");
    write(tree.resolve("models.json"), MODELS, "rw-r--r--");
    write(tree.resolve("pi-settings.json"), PI_SETTINGS, "rw-r--r--");
    write(tree.resolve("presets/gpt-sol-high.yaml"), "name: gpt-sol-high\n", "rw-r--r--");
    write(tree.resolve("solweb-version.properties"), "version=1\ncommit=abcdef0123\n", "rw-r--r--");
  }

  private static void write(Path file, String text, String mode) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
  }

  private Run install(String... args) {
    return install(Map.of(), args);
  }

  private Run install(Map<String, String> extraEnv, String... args) {
    StringWriter out = new StringWriter();
    Map<String, String> env = new TreeMap<>(Map.of("HOME", home.toString(), "PATH", "/usr/bin:/bin"));
    env.putAll(extraEnv);
    CommandLine cl = new CommandLine(new Install(env, tree));
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(out));
    return new Run(cl.execute(args), out.toString());
  }

  private Map<String, String> snapshot() throws IOException {
    Map<String, String> snapshot = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(home)) {
      for (Path p : walk.toList()) {
        String key = home.relativize(p).toString();
        snapshot.put(key, Files.isSymbolicLink(p) ? "link:" + Files.readSymbolicLink(p)
            : Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS) ? "dir:" + Files.getPosixFilePermissions(p)
            : "file:" + Files.getPosixFilePermissions(p) + ":" + Files.readString(p));
      }
    }
    return snapshot;
  }

  private static String nextLine(Run run) {
    return run.out().lines().filter(l -> l.startsWith("install: next: ")).findFirst().orElseThrow(() -> new AssertionError(run.out()));
  }

  @Test
  void withADisplayTheNextStepIsLoginInItsWindow() {
    Run run = install(Map.of("DISPLAY", ":0"));
    assertThat(run.exitCode()).as(run.out()).isZero();
    assertThat(nextLine(run)).contains("`" + home.resolve(".local/bin/solwebctl") + " login` (once: log in to ChatGPT in the"
        + " window it opens").doesNotContain("--web");
  }

  @Test
  void withoutADisplayTheNextStepIsLoginWeb() {
    Run run = install();
    assertThat(run.exitCode()).as(run.out()).isZero();
    assertThat(nextLine(run)).contains("`" + home.resolve(".local/bin/solwebctl") + " login --web` (once: no display here,"
        + " so it prints a one-time URL that shows the login window in a browser");
  }

  @Test
  void aMergedFileTheUserEditedSinceIsLeftWithItsBackupAndUninstallSaysSo() throws Exception {
    Path models = Files.createDirectories(home.resolve(".pi/agent")).resolve("models.json");
    String theirs = "{\"providers\": {\"other\": {\"models\": []}}}\n";
    Files.writeString(models, theirs);
    assertThat(install().exitCode()).isZero();
    Files.writeString(models, Files.readString(models).replace("\"other\"", "\"renamed\""));

    Run uninstall = install("--uninstall");
    assertThat(uninstall.exitCode()).isEqualTo(Install.FAILED);
    Path backup = prefix.resolve("backups").resolve(home.getRoot().relativize(models).toString());
    assertThat(uninstall.out()).contains("install: WARNING " + models + " changed since it was installed; left as it is"
        + " (the original is kept at " + backup + ")");
    assertThat(Files.readString(models)).contains("\"renamed\"", "\"gpt\"");
    assertThat(Files.readString(backup)).isEqualTo(theirs);
    assertThat(home.resolve(".local/bin/solwebd")).as("everything else is taken back").doesNotExist();
    assertThat(Files.readString(prefix.resolve(Manifest.FILE_NAME))).as("the manifest keeps what is left")
        .contains(models.toString()).doesNotContain("solwebd\"");
  }

  @Test
  void aLinkTheUserReplacedIsBackedUpOnReinstallAndRestoredOnUninstall() throws Exception {
    assertThat(install().exitCode()).isZero();
    Path link = home.resolve(".local/bin/solwebctl");
    Files.delete(link);
    Files.writeString(link, "my own solwebctl\n");
    Map<String, String> mine = snapshot();

    Run again = install();
    assertThat(again.exitCode()).as(again.out()).isZero();
    assertThat(again.out()).contains("install: backup " + link + " (moved to ");
    assertThat(Files.readSymbolicLink(link)).isEqualTo(prefix.resolve("bin/solwebctl"));

    assertThat(install("--uninstall").exitCode()).isZero();
    assertThat(Files.readString(link)).isEqualTo("my own solwebctl\n");
    assertThat(snapshot().keySet()).as("the dirs it made stay only because the user's file is in one")
        .containsExactly("", ".local", ".local/bin", ".local/bin/solwebctl");
    assertThat(mine.get(".local/bin/solwebctl")).isEqualTo(snapshot().get(".local/bin/solwebctl"));
  }

  @Test
  void aLauncherNoLongerShippedIsTakenBackAndWhatItDisplacedRestored() throws Exception {
    Path theirs = home.resolve(".local/bin/factory-gpt");
    write(theirs, "#!/bin/sh\necho mine\n", "rwxr-x---");
    assertThat(install().exitCode()).isZero();
    assertThat(Files.isSymbolicLink(theirs)).isTrue();
    Files.delete(tree.resolve("bin/factory-gpt"));

    Run next = install();
    assertThat(next.exitCode()).as(next.out()).isZero();
    assertThat(next.out()).contains("install: remove " + theirs, "install: restore " + theirs,
        "install: remove " + prefix.resolve("bin/factory-gpt"));
    assertThat(Files.readString(theirs)).isEqualTo("#!/bin/sh\necho mine\n");
    assertThat(Files.getPosixFilePermissions(theirs)).isEqualTo(PosixFilePermissions.fromString("rwxr-x---"));
    assertThat(Files.readString(prefix.resolve(Manifest.FILE_NAME))).doesNotContain("factory-gpt");
  }

  @Test
  void aModelsJsonThatIsNotJsonFailsThatStepOnlyAndIsNotTouched() throws Exception {
    Path models = Files.createDirectories(home.resolve(".pi/agent")).resolve("models.json");
    Files.writeString(models, "{ not json");
    Run run = install();
    assertThat(run.exitCode()).isEqualTo(Install.FAILED);
    assertThat(run.out()).contains("install: FAILED " + models + " is not valid JSON");
    assertThat(Files.readString(models)).isEqualTo("{ not json");
    assertThat(Files.isSymbolicLink(home.resolve(".local/bin/solwebd"))).as("the other steps ran").isTrue();
  }

  @Test
  void aMergeReplacesADifferentGptProviderAndKeepsEveryOtherKeyInOrder() throws Exception {
    Path models = Files.createDirectories(home.resolve(".pi/agent")).resolve("models.json");
    Files.writeString(models, "{\"a\": 1, \"providers\": {\"z\": {}, \"gpt\": {\"baseUrl\": \"http://old\"}, \"b\": {}}, \"c\": 2}");
    Run run = install();
    assertThat(run.out()).contains("provider gpt replaced by the managed one, other providers kept");
    String merged = Files.readString(models);
    assertThat(merged).containsSubsequence("\"a\": 1", "\"z\"", "\"gpt\"", "127.0.0.1:8791", "\"b\"", "\"c\": 2")
        .doesNotContain("http://old");
  }

  @Test
  void dryRunsChangeNothingEitherWay() throws Exception {
    Map<String, String> empty = snapshot();
    Run dry = install("--dry-run");
    assertThat(dry.exitCode()).isZero();
    assertThat(dry.out()).contains("install: would link " + home.resolve(".local/bin/solwebd"));
    assertThat(snapshot()).isEqualTo(empty);

    assertThat(install().exitCode()).isZero();
    Map<String, String> installed = snapshot();
    Run dryUninstall = install("--uninstall", "--dry-run");
    assertThat(dryUninstall.out()).contains("install: would remove " + home.resolve(".local/bin/solwebd"));
    assertThat(snapshot()).isEqualTo(installed);
  }

  @Test
  void verifyAndUninstallTogetherIsAUsageError() {
    assertThat(install("--verify", "--uninstall").exitCode()).isEqualTo(Install.USAGE);
  }

  private Path piSettings() throws IOException {
    return Files.createDirectories(home.resolve(".pi/agent")).resolve("settings.json");
  }

  @Test
  void piSettingsAreMergedKeyByKeyOnceWithABackupAndTakenBackKeyByKeyEvenAfterPiRewroteTheFile() throws Exception {
    Path settings = piSettings();
    String theirs = "{\"theme\": \"dark\", \"compaction\": {\"enabled\": true, \"keepRecentTokens\": 20000}}\n";
    Files.writeString(settings, theirs);

    Run first = install();
    assertThat(first.exitCode()).as(first.out()).isZero();
    Path backup = prefix.resolve("backups").resolve(home.getRoot().relativize(settings).toString());
    assertThat(first.out()).contains("install: backup " + settings + " (copy kept at " + backup + ")",
        "install: merge " + settings + " (Pi's compaction settings merged, your other settings kept;"
            + " replaced compaction.keepRecentTokens 20000 -> 15000)");
    assertThat(Files.readString(backup)).isEqualTo(theirs);
    String merged = Files.readString(settings);
    assertThat(merged).containsSubsequence("\"theme\": \"dark\"", "\"enabled\": true", "\"keepRecentTokens\": 15000",
        "\"reserveTokens\": 16384");

    Run again = install();
    assertThat(again.out()).contains("install: unchanged " + settings + " (Pi's compaction settings already merged)");
    assertThat(Files.readString(settings)).isEqualTo(merged);

    // Pi itself rewrites the file (interactive mode records lastChangelogVersion).
    Files.writeString(settings, merged.replace("\"theme\": \"dark\"", "\"theme\": \"dark\",\n  \"lastChangelogVersion\": \"0.73.1\""));
    Run uninstall = install("--uninstall");
    assertThat(uninstall.exitCode()).as(uninstall.out()).isZero();
    assertThat(uninstall.out()).contains("install: restore " + settings + " (the merged keys put back as they were");
    assertThat(Json.read(settings)).isEqualTo(Json.parse(
        "{\"theme\": \"dark\", \"lastChangelogVersion\": \"0.73.1\", \"compaction\": {\"enabled\": true, \"keepRecentTokens\": 20000}}"));
    assertThat(backup).doesNotExist();
  }

  @Test
  void piSettingsCreatedByTheInstallerAreRemovedOnUninstallAndAKeyTheUserChangedStays() throws Exception {
    Path settings = home.resolve(".pi/agent/settings.json");
    Run first = install();
    assertThat(first.out()).contains("install: create " + settings);
    assertThat(Json.read(settings)).isEqualTo(Json.parse(PI_SETTINGS));
    assertThat(install("--uninstall").exitCode()).isZero();
    assertThat(settings).doesNotExist();

    assertThat(install().exitCode()).isZero();
    Files.writeString(settings, Files.readString(settings).replace("15000", "12000"));
    Run uninstall = install("--uninstall");
    assertThat(uninstall.out()).contains("install: keep " + settings
        + " (compaction.keepRecentTokens was changed since the install; yours now)");
    assertThat(Json.read(settings)).isEqualTo(Json.parse("{\"compaction\": {\"keepRecentTokens\": 12000}}"));
  }

  @Test
  void aPiSettingsFileThatIsNotJsonFailsThatStepOnlyAndIsNotTouched() throws Exception {
    Path settings = piSettings();
    Files.writeString(settings, "{ not json");
    Run run = install();
    assertThat(run.exitCode()).isEqualTo(Install.FAILED);
    assertThat(run.out()).contains("install: FAILED " + settings + " is not valid JSON");
    assertThat(Files.readString(settings)).isEqualTo("{ not json");
  }

  /** JSON equality, key order aside. */
  private static final class Json {
    static com.fasterxml.jackson.databind.JsonNode read(Path file) throws IOException {
      return new com.fasterxml.jackson.databind.ObjectMapper().readTree(file.toFile());
    }

    static com.fasterxml.jackson.databind.JsonNode parse(String text) throws IOException {
      return new com.fasterxml.jackson.databind.ObjectMapper().readTree(text);
    }
  }

  @Test
  void codexGetsTheProviderAndProfileWithoutTheTokenIdempotentlyAndUninstallRemovesThem() throws Exception {
    Map<String, String> empty = snapshot();
    assertThat(install().exitCode()).isZero();
    Path config = home.resolve(".codex/config.toml");
    Path profile = home.resolve(".codex/solweb.config.toml");
    assertThat(Files.readString(config)).startsWith("[model_providers.solweb]\n")
        .contains("base_url = \"http://127.0.0.1:8791/v1\"", "wire_api = \"responses\"",
            "auth = { command = \"" + home.resolve(".local/bin/solwebctl") + "\", args = [\"token\"] }",
            "request_max_retries = 0", "stream_max_retries = 0")
        .doesNotContain("env_key", "bearer");
    assertThat(Files.readString(profile)).contains("model = \"sol-web-high\"", "model_provider = \"solweb\"");
    Map<String, String> installed = snapshot();

    Run again = install();
    assertThat(again.out()).contains("install: unchanged " + config, "install: unchanged " + profile);
    assertThat(snapshot()).isEqualTo(installed);

    assertThat(install("--uninstall").exitCode()).isZero();
    assertThat(snapshot()).isEqualTo(empty);
  }

  @Test
  void theUsersCodexConfigKeepsEverythingElseAndComesBackByteForByte() throws Exception {
    Path codexHome = Files.createDirectories(dir.resolve("elsewhere/codex"));
    Path config = codexHome.resolve("config.toml");
    String theirs = """
        # my Codex
        model = "gpt-6"

        [model_providers.solweb]
        name = "old solweb"
        base_url = "http://127.0.0.1:9999/v1"

        [model_providers.other]
        name = "other" # keep me
        """;
    Files.writeString(config, theirs);
    Map<String, String> env = Map.of("CODEX_HOME", codexHome.toString());

    Run run = install(env);
    assertThat(run.exitCode()).as(run.out()).isZero();
    assertThat(run.out()).contains("install: backup " + config, "Codex provider solweb replaced by the managed one");
    String merged = Files.readString(config);
    assertThat(merged).containsSubsequence("# my Codex", "model = \"gpt-6\"", "[model_providers.solweb]",
        "127.0.0.1:8791", "stream_max_retries = 0", "[model_providers.other]", "name = \"other\" # keep me")
        .doesNotContain("9999", "old solweb");
    assertThat(install(env).out()).contains("install: unchanged " + config);
    assertThat(Files.readString(config)).isEqualTo(merged);

    assertThat(install(env, "--uninstall").exitCode()).isZero();
    assertThat(Files.readString(config)).isEqualTo(theirs);
    assertThat(codexHome.resolve("solweb.config.toml")).doesNotExist();
  }

  @Test
  void aCodexConfigDefiningSolwebAnotherWayFailsThatStepOnlyAndIsNotTouched() throws Exception {
    Path config = Files.createDirectories(home.resolve(".codex")).resolve("config.toml");
    String theirs = "[model_providers]\nsolweb = { name = \"mine\" }\n";
    Files.writeString(config, theirs);

    Run run = install();

    assertThat(run.exitCode()).isEqualTo(Install.FAILED);
    assertThat(run.out()).contains("install: FAILED " + config + " line 2 defines the solweb provider outside");
    assertThat(Files.readString(config)).isEqualTo(theirs);
    assertThat(Files.isSymbolicLink(home.resolve(".local/bin/solwebd"))).as("the other steps ran").isTrue();
  }

  @Test
  void claudeCodeGetsASettingsFileOfItsOwnWithTheHelperNotTheTokenAndTheUsersFilesAreUntouched() throws Exception {
    Path claudeDir = Files.createDirectories(home.resolve(".claude"));
    String theirSettings = "{\"model\": \"opus\", \"env\": {\"FOO\": \"1\"}}\n";
    Files.writeString(claudeDir.resolve("settings.json"), theirSettings);
    Map<String, String> before = snapshot();

    Run run = install();

    assertThat(run.exitCode()).as(run.out()).isZero();
    Path file = claudeDir.resolve("solweb-settings.json");
    com.fasterxml.jackson.databind.JsonNode settings = Json.parse(Files.readString(file));
    assertThat(settings.path("apiKeyHelper").asText()).isEqualTo("'" + home.resolve(".local/bin/solwebctl") + "' token");
    assertThat(settings.path("model").asText()).isEqualTo("sol-web-high");
    assertThat(settings.path("env").path("ANTHROPIC_BASE_URL").asText()).isEqualTo("http://127.0.0.1:8791");
    assertThat(settings.path("env").path("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC").asText()).isEqualTo("1");
    assertThat(settings.path("env").has("ANTHROPIC_AUTH_TOKEN")).isFalse();
    assertThat(settings.path("env").has("ANTHROPIC_API_KEY")).isFalse();
    assertThat(Files.readString(claudeDir.resolve("settings.json"))).isEqualTo(theirSettings);
    assertThat(install().out()).contains("install: unchanged " + file);

    assertThat(install("--uninstall").exitCode()).isZero();
    assertThat(snapshot()).isEqualTo(before);
  }

  @Test
  void aFileOfTheUsersAtThatPathIsBackedUpAndComesBackByteForByteUnderClaudeConfigDir() throws Exception {
    Path claudeDir = Files.createDirectories(dir.resolve("elsewhere/claude"));
    Path file = claudeDir.resolve("solweb-settings.json");
    Files.writeString(file, "{\"mine\": true}\n");
    Map<String, String> env = Map.of("CLAUDE_CONFIG_DIR", claudeDir.toString());

    Run run = install(env);

    assertThat(run.exitCode()).as(run.out()).isZero();
    assertThat(run.out()).contains("install: backup " + file);
    assertThat(Files.readString(file)).contains("apiKeyHelper");
    assertThat(install(env, "--uninstall").exitCode()).isZero();
    assertThat(Files.readString(file)).isEqualTo("{\"mine\": true}\n");
  }
  @Test
  void opencodeGetsAConfigOfItsOwnThatReadsTheTokenFileAndTurnsTheTitleAgentOff() throws Exception {
    Path opencodeDir = Files.createDirectories(home.resolve(".config/opencode"));
    String theirs = "{\"theme\": \"dark\"}\n";
    Files.writeString(opencodeDir.resolve("opencode.json"), theirs);
    Map<String, String> before = snapshot();

    Run run = install();

    assertThat(run.exitCode()).as(run.out()).isZero();
    Path file = opencodeDir.resolve("solweb.json");
    com.fasterxml.jackson.databind.JsonNode config = Json.parse(Files.readString(file));
    com.fasterxml.jackson.databind.JsonNode solweb = config.path("provider").path("solweb");
    assertThat(solweb.path("options").path("baseURL").asText()).isEqualTo("http://127.0.0.1:8791/v1");
    assertThat(solweb.path("options").path("apiKey").asText())
        .as("opencode reads the key from the token file itself").startsWith("{file:/").endsWith("/solwebd.token}");
    assertThat(solweb.path("models").has("sol-web-high")).isTrue();
    assertThat(config.path("agent").path("title").path("disable").asBoolean())
        .as("a title request would be a second Send for every session").isTrue();
    assertThat(Files.readString(opencodeDir.resolve("opencode.json"))).isEqualTo(theirs);
    assertThat(install().out()).contains("install: unchanged " + file);

    assertThat(install("--uninstall").exitCode()).isZero();
    assertThat(snapshot()).isEqualTo(before);
  }
}

package dev.solweb.dist;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/install of the assembled tree into a temp HOME: install, verify, re-install, install over a
 * user's own files, uninstall; everything checked on disk and through the installed launchers.
 */
class InstallTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  @Test
  void installVerifyReinstallUninstallLeavesHomeAsItWas() throws Exception {
    Tree t = new Tree(dir);
    Files.createDirectories(t.home.resolve("notes"));
    Files.writeString(t.home.resolve("notes/keep.txt"), "unrelated\n");
    Map<String, String> before = t.snapshot();

    Tree.Run install = t.install();
    assertThat(install.exitCode()).as(install.all()).isZero();
    assertThat(install.out()).contains("install: link " + t.bin.resolve("solwebd") + " (-> " + t.prefix.resolve("bin/solwebd"));
    Path models = t.home.resolve(".pi/agent/models.json");
    assertThat(Files.readSymbolicLink(models)).isEqualTo(t.prefix.resolve("models.json"));
    assertThat(t.prefix.resolve("models.json")).hasSameBinaryContentAs(Tree.REPO.resolve("models.json"));
    for (String effort : List.of("medium", "high", "xhigh", "pro")) {
      Path preset = t.home.resolve(".config/factory/presets/gpt-sol-" + effort + ".yaml");
      assertThat(preset.toRealPath()).isEqualTo(t.prefix.resolve("presets/gpt-sol-" + effort + ".yaml"));
    }
    assertThat(t.home.resolve(".config/factory/plugins/solweb-factory-plugin.jar").toRealPath().toString())
        .startsWith(t.prefix.resolve("lib/solweb-factory-plugin-").toString());
    assertThat(t.home.resolve(".overdeck/gptbridge/identity.json")).as("never enrolls").doesNotExist();
    assertThat(install.out()).contains("install: skip " + t.home.resolve(".claude-code-router/config.json")
        + " (no solwebd token yet");
    assertThat(t.prefix.resolve("lib/provider.classpath")).exists();
    try (var jars = Files.list(t.prefix.resolve("lib"))) {
      List<String> names = jars.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".jar")).toList();
      assertThat(names).as("every jar once").doesNotHaveDuplicates().anyMatch(n -> n.startsWith("solweb-provider-"));
      assertThat(names).filteredOn(n -> n.startsWith("driver-bundle-")).as("the 200 MB driver bundle once").hasSize(1);
    }
    assertThat(Files.readString(t.prefix.resolve("lib/factory-plugin.classpath"))).doesNotContain("playwright", "driver");
    assertThat(install.out()).contains("install: unpack " + t.prefix.resolve("playwright-driver"));
    assertThat(t.prefix.resolve("playwright-driver/package/cli.js")).as("the driver unpacked once").isRegularFile();

    Tree.Run verify = t.install("--verify");
    assertThat(verify.exitCode()).as(verify.all()).isZero();
    assertThat(verify.out()).contains("verify: PASS pi --list-models: 4 gpt rows [sol-web-high, sol-web-medium,"
        + " sol-web-pro, sol-web-xhigh]", "verify: PASS solwebctl health --json: ok, state ready, version "
        + installedVersion(t), "verify: PASS one turn (POST /v1/chat/completions): 200",
        "verify: PASS factory-gpt (default, --effort high): factory --preset gpt-sol-pro / gpt-sol-high",
        "verify: PASS solwebctl stop",
        "verify: all steps passed");
    assertThat(verify.out()).doesNotContain("FAIL");

    Map<String, String> installed = t.snapshot();
    String manifest = Files.readString(t.prefix.resolve("install-manifest.json"));
    Tree.Run again = t.install();
    assertThat(again.exitCode()).as(again.all()).isZero();
    assertThat(again.out()).contains("install: 0 changed,").doesNotContain("install: link ", "install: copy ", "backup");
    assertThat(Files.readString(t.prefix.resolve("install-manifest.json"))).isEqualTo(manifest);
    assertThat(withoutPiRuntime(t.snapshot())).isEqualTo(withoutPiRuntime(installed));

    // Through the installed launcher, as a user would: it takes away the very tree it runs from.
    Tree.Run uninstall = Tree.run(List.of(t.prefix.resolve("bin/install").toString(), "--uninstall"), t.env, 120);
    assertThat(uninstall.exitCode()).as(uninstall.all()).isZero();
    assertThat(uninstall.out()).endsWith("install: uninstalled\n");
    assertThat(t.prefix).doesNotExist();
    assertThat(withoutPiRuntime(t.snapshot())).isEqualTo(withoutPiRuntime(before));
  }

  @Test
  void overTheUsersOwnFilesMergesKeepsBackupsAndUninstallRestoresThemByteForByte() throws Exception {
    Tree t = new Tree(dir);
    Path agent = Files.createDirectories(t.home.resolve(".pi/agent"));
    Path models = agent.resolve("models.json");
    String theirs = "{\n    \"providers\": {\n        \"other\": {\"baseUrl\": \"http://127.0.0.1:9/v1\", \"api\": "
        + "\"openai-completions\", \"apiKey\": \"k\", \"models\": [{\"id\": \"other-model\"}]}\n    },\n    \"x\": 1\n}";
    Files.writeString(models, theirs);
    Files.setPosixFilePermissions(models, PosixFilePermissions.fromString("rw-r-----"));
    Files.createDirectories(t.bin);
    Files.writeString(t.bin.resolve("solwebctl"), "#!/bin/sh\necho an old hand-copied solwebctl\n");
    Files.setPosixFilePermissions(t.bin.resolve("solwebctl"), PosixFilePermissions.fromString("rwxr-xr-x"));
    Path preset = Files.createDirectories(t.home.resolve(".config/factory/presets")).resolve("gpt-sol-pro.yaml");
    Files.writeString(preset, "name: gpt-sol-pro\n# my own\n");
    Map<String, String> before = t.snapshot();

    Tree.Run install = t.install();
    assertThat(install.exitCode()).as(install.all()).isZero();
    assertThat(install.out()).contains("install: merge " + models + " (your own models.json: provider gpt added,"
        + " other providers kept)", "install: backup " + t.bin.resolve("solwebctl"), "install: backup " + preset);
    assertThat(models).isRegularFile();
    assertThat(Files.getPosixFilePermissions(models)).isEqualTo(PosixFilePermissions.fromString("rw-r-----"));
    JsonNode merged = JSON.readTree(models.toFile());
    assertThat(merged.path("providers").fieldNames()).toIterable().containsExactly("other", "gpt");
    assertThat(merged.path("providers").path("gpt"))
        .isEqualTo(JSON.readTree(Tree.REPO.resolve("models.json").toFile()).path("providers").path("gpt"));
    assertThat(merged.path("x").asInt()).isEqualTo(1);
    Path backup = t.prefix.resolve("backups").resolve(t.home.getRoot().relativize(models).toString());
    assertThat(Files.readString(backup)).isEqualTo(theirs);

    Tree.Run again = t.install();
    assertThat(again.exitCode()).as(again.all()).isZero();
    assertThat(again.out()).contains("install: unchanged " + models + " (your own models.json; provider gpt already merged)",
        "install: 0 changed,");
    String text = Files.readString(models);
    assertThat(countOf(text, "\"gpt\"")).as("no duplicate entries").isEqualTo(1);
    assertThat(countOf(text, "\"sol-web-pro\"")).isEqualTo(1);

    Tree.Run pi = Tree.run(List.of(Tree.PI.toString(), "--list-models"), Map.of("HOME", t.home.toString(),
        "PATH", t.bin + ":/usr/local/bin:/usr/bin:/bin", "PI_OFFLINE", "1", "LANG", "C.UTF-8"), 60);
    assertThat(pi.exitCode()).as(pi.all()).isZero();
    List<String> rows = pi.all().lines().map(String::strip).filter(l -> l.startsWith("gpt ") || l.startsWith("other ")).toList();
    assertThat(rows).hasSize(5).anyMatch(r -> r.startsWith("other ") && r.contains("other-model"))
        .anyMatch(r -> r.matches("gpt\\s+sol-web-xhigh\\s+120K.*"));

    Tree.Run uninstall = t.install("--uninstall");
    assertThat(uninstall.exitCode()).as(uninstall.all()).isZero();
    assertThat(uninstall.out()).contains("install: restore " + models, "install: restore " + t.bin.resolve("solwebctl"),
        "install: restore " + preset);
    assertThat(withoutPiRuntime(t.snapshot())).isEqualTo(withoutPiRuntime(before));
  }

  @Test
  void ccrGetsTheSolwebProviderThroughSwInstallCcrBesideTheUsersOwnAndUninstallRestoresIt() throws Exception {
    Tree t = new Tree(dir);
    // solwebd has run here before: its token exists (mode 0600 in a 0700 home).
    Path gptbridge = Files.createDirectories(t.home.resolve(".overdeck/gptbridge"));
    Files.setPosixFilePermissions(gptbridge, PosixFilePermissions.fromString("rwx------"));
    Path token = gptbridge.resolve("solwebd.token");
    Files.writeString(token, "tok_ABCdef0123456789-_tok_ABCdef0123456789-_x\n");
    Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-------"));
    Path config = Files.createDirectories(t.home.resolve(".claude-code-router")).resolve("config.json");
    String theirs = "{\"PORT\": 3456, \"Providers\": [{\"name\": \"mine\", \"api_base_url\": \"http://127.0.0.1:9/v1/chat/completions\","
        + " \"api_key\": \"x\", \"models\": [\"m\"]}], \"Router\": {\"default\": \"mine,m\"}}\n";
    Files.writeString(config, theirs);
    Files.setPosixFilePermissions(config, PosixFilePermissions.fromString("rw-------"));
    Map<String, String> before = t.snapshot();

    Tree.Run install = t.install();
    assertThat(install.exitCode()).as(install.all()).isZero();
    assertThat(install.out()).contains("install: backup " + config, "install: merge " + config
        + " (ccr provider solweb -> http://127.0.0.1:8791/v1/chat/completions by sw install-ccr)");
    JsonNode merged = JSON.readTree(config.toFile());
    assertThat(merged.path("Providers").findValuesAsText("name")).containsExactly("mine", "solweb");
    assertThat(merged.path("Router").path("default").asText()).isEqualTo("mine,m");

    Tree.Run again = t.install();
    assertThat(again.exitCode()).as(again.all()).isZero();
    assertThat(again.out()).contains("install: unchanged " + config + " (ccr provider solweb already registered)",
        "install: 0 changed,");
    assertThat(JSON.readTree(config.toFile()).path("Providers").findValuesAsText("name")).containsExactly("mine", "solweb");

    Tree.Run uninstall = t.install("--uninstall");
    assertThat(uninstall.exitCode()).as(uninstall.all()).isZero();
    assertThat(Files.readString(config)).isEqualTo(theirs);
    assertThat(withoutPiRuntime(t.snapshot())).isEqualTo(withoutPiRuntime(before));
  }

  @Test
  void verifyFailsAndSaysWhichStepWhenPiNoLongerSeesTheProvider() throws Exception {
    Tree t = new Tree(dir);
    assertThat(t.install().exitCode()).isZero();
    Files.delete(t.home.resolve(".pi/agent/models.json"));
    Tree.Run verify = t.install("--verify");
    assertThat(verify.exitCode()).isEqualTo(1);
    assertThat(verify.out()).contains("verify: FAIL pi --list-models: exit 0, gpt rows []",
        "verify: PASS solwebctl health --json", "verify: PASS one turn",
        "verify: FAIL factory-gpt (default, --effort high): [(no --effort): exit 3: factory-gpt: refused (provider_config)",
        "verify: 2 failed: [pi --list-models, factory-gpt (default, --effort high)]");
  }

  @Test
  void dryRunPrintsTheStepsAndChangesNothing() throws Exception {
    Tree t = new Tree(dir);
    Map<String, String> before = t.snapshot();
    Tree.Run dry = t.install("--dry-run");
    assertThat(dry.exitCode()).as(dry.all()).isZero();
    assertThat(dry.out()).contains("install: would copy " + t.prefix.resolve("bin/solwebd"),
        "install: would link " + t.home.resolve(".pi/agent/models.json"), "install: dry run: ");
    assertThat(t.snapshot()).isEqualTo(before);
  }

  static long countOf(String text, String needle) {
    Matcher m = Pattern.compile(Pattern.quote(needle)).matcher(text);
    long n = 0;
    while (m.find()) {
      n++;
    }
    return n;
  }

  static String installedVersion(Tree t) throws Exception {
    String props = Files.readString(t.prefix.resolve("solweb-version.properties"));
    String version = props.lines().filter(l -> l.startsWith("version=")).findFirst().orElseThrow().substring(8);
    String commit = props.lines().filter(l -> l.startsWith("commit=")).findFirst().orElseThrow().substring(7);
    assertThat(commit).as("the stamp carries the git commit").matches("[0-9a-f]{10}");
    return version + "+" + commit;
  }

  static Map<String, String> withoutPiRuntime(Map<String, String> snapshot) {
    Map<String, String> copy = new java.util.TreeMap<>(snapshot);
    copy.keySet().removeIf(Tree::piRuntime);
    return copy;
  }
}

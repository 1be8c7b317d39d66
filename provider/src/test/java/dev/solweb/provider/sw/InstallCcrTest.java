package dev.solweb.provider.sw;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** sw install-ccr: merges the solweb provider idempotently, backs up, leaves the rest alone. */
class InstallCcrTest {

  static final String TOKEN = "installToken_0123456789abcdefghijklmnopqrstu";
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;
  private SwFixture fx;

  @BeforeEach
  void setUp() throws Exception {
    fx = new SwFixture(dir);
    fx.writeToken(TOKEN);
    fx.env.put("SOLWEBD_PORT", "8791");
  }

  private JsonNode config(Path file) throws Exception {
    return JSON.readTree(file.toFile());
  }

  private long backups(Path file) throws Exception {
    try (Stream<Path> files = Files.list(file.getParent())) {
      return files.filter(p -> p.getFileName().toString().startsWith("config.json.bak-")).count();
    }
  }

  @Test
  void mergesBesideOtherProvidersOnceWithABackupAndMode0600() throws Exception {
    Path file = fx.ccrConfig();
    Files.createDirectories(file.getParent());
    String original = """
        {"LOG": true, "PORT": 3999, "APIKEY": "mine", "HOST": "127.0.0.1",
         "Providers": [{"name": "deepseek", "api_base_url": "https://api.deepseek.invalid/chat/completions",
                        "api_key": "sk-x", "models": ["deepseek-chat"], "transformer": {"use": ["deepseek"]}}],
         "Router": {"default": "deepseek,deepseek-chat"}, "CUSTOM": [1, 2]}
        """;
    Files.writeString(file, original);

    SwFixture.Run first = fx.sw("install-ccr");
    assertThat(first.exitCode()).as(first.err()).isZero();
    assertThat(first.out()).doesNotContain(TOKEN);
    JsonNode report = JSON.readTree(first.out());
    assertThat(report.get("changed").asBoolean()).isTrue();
    Path backup = Path.of(report.get("backup").asText());
    assertThat(backup).hasContent(original.strip());
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(backup))).isEqualTo("rw-------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");

    JsonNode merged = config(file);
    JsonNode before = JSON.readTree(original);
    assertThat(merged.get("Providers").get(0)).isEqualTo(before.get("Providers").get(0));
    assertThat(merged.get("Router")).isEqualTo(before.get("Router"));
    for (String key : new String[] {"LOG", "PORT", "APIKEY", "HOST", "CUSTOM"}) {
      assertThat(merged.get(key)).as(key).isEqualTo(before.get(key));
    }
    JsonNode solweb = merged.get("Providers").get(1);
    assertThat(solweb.get("name").asText()).isEqualTo("solweb");
    assertThat(solweb.get("api_base_url").asText()).isEqualTo("http://127.0.0.1:8791/v1/chat/completions");
    assertThat(solweb.get("api_key").asText()).isEqualTo(TOKEN);
    assertThat(solweb.get("models").toString())
        .isEqualTo("[\"sol-web-instant\",\"sol-web-medium\",\"sol-web-high\",\"sol-web-xhigh\",\"sol-web-pro\"]");

    String afterFirst = Files.readString(file);
    SwFixture.Run second = fx.sw("install-ccr");
    assertThat(second.exitCode()).isZero();
    assertThat(JSON.readTree(second.out()).get("changed").asBoolean()).isFalse();
    assertThat(file).hasContent(afterFirst.strip());
    assertThat(backups(file)).isEqualTo(1);
  }

  @Test
  void updatesAStaleSolwebEntryInPlaceAndKeepsItsOtherKeys() throws Exception {
    Path file = fx.ccrConfig();
    Files.createDirectories(file.getParent());
    Files.writeString(file, "{\"APIKEY\": \"k\", \"Providers\": [{\"name\": \"solweb\", \"api_base_url\": "
        + "\"http://127.0.0.1:1/v1/chat/completions\", \"api_key\": \"old\", \"models\": [\"sol-web-high\"], \"transformer\": {\"use\": []}}]}");
    assertThat(fx.sw("install-ccr", "--port", "9999").exitCode()).isZero();
    JsonNode providers = config(file).get("Providers");
    assertThat(providers).hasSize(1);
    assertThat(providers.get(0).get("api_base_url").asText()).isEqualTo("http://127.0.0.1:9999/v1/chat/completions");
    assertThat(providers.get(0).get("api_key").asText()).isEqualTo(TOKEN);
    assertThat(providers.get(0).get("models")).hasSize(5);
    assertThat(providers.get(0).has("transformer")).isTrue();
  }

  @Test
  void createsALoopbackConfigWithARandomKeyWhenThereIsNone() throws Exception {
    Path file = dir.resolve("elsewhere/ccr.json");
    fx.env.put("CCR_CONFIG", file.toString());
    SwFixture.Run run = fx.sw("install-ccr");
    assertThat(run.exitCode()).as(run.err()).isZero();
    JsonNode created = config(file);
    assertThat(created.get("HOST").asText()).isEqualTo("127.0.0.1");
    assertThat(created.get("PORT").asInt()).isEqualTo(3456);
    assertThat(created.get("APIKEY").asText()).startsWith("ccr-").hasSizeGreaterThan(20);
    assertThat(created.get("LOG").asBoolean()).isFalse();
    assertThat(created.get("Router").get("default").asText()).isEqualTo("solweb,sol-web-medium");
    assertThat(JSON.readTree(run.out()).has("backup")).isFalse();
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
  }

  @Test
  void refusesWithoutAReadableTokenAndWritesNothing() throws Exception {
    Files.setPosixFilePermissions(fx.home.resolve("solwebd.token"), PosixFilePermissions.fromString("rw-r--r--"));
    SwFixture.Run run = fx.sw("install-ccr");
    assertThat(run.exitCode()).isEqualTo(SwExit.UNAVAILABLE);
    assertThat(run.err()).contains("must be 0600");
    assertThat(fx.ccrConfig()).doesNotExist();
  }
}

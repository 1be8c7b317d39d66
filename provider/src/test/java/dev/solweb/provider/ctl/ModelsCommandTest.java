package dev.solweb.provider.ctl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.solweb.provider.platform.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code solwebctl models --pi-models-json}: Pi's models.json keeps only the gpt models the account runs. */
class ModelsCommandTest {

  @TempDir Path dir;

  @Test
  void piModelsJsonKeepsOnlyTheRunnableGptModelsAndEverythingElse() throws Exception {
    Path file = dir.resolve("models.json");
    Files.writeString(file, "{\"providers\": {\"gpt\": {\"baseUrl\": \"http://127.0.0.1:8791/v1\", \"models\": ["
        + "{\"id\": \"sol-web-medium\"}, {\"id\": \"sol-web-high\"}, {\"id\": \"sol-web-xhigh\"}, {\"id\": \"sol-web-pro\"}]},"
        + " \"other\": {\"models\": [{\"id\": \"x\"}]}}}");
    int kept = ModelsCommand.keepRunnable(file, Set.of("sol-web-instant", "sol-web-medium", "sol-web-high"));
    assertThat(kept).isEqualTo(2);
    JsonNode root = Json.MAPPER.readTree(Files.readString(file));
    List<String> ids = new ArrayList<>();
    root.path("providers").path("gpt").path("models").forEach(m -> ids.add(m.path("id").asText()));
    assertThat(ids).containsExactly("sol-web-medium", "sol-web-high");
    assertThat(root.path("providers").path("gpt").path("baseUrl").asText()).isEqualTo("http://127.0.0.1:8791/v1");
    assertThat(root.path("providers").path("other").path("models")).hasSize(1);
    assertThat(Files.exists(dir.resolve("models.json.tmp"))).isFalse();
  }

  @Test
  void aFileWithoutTheGptProviderIsRefusedUntouched() throws Exception {
    Path file = dir.resolve("models.json");
    Files.writeString(file, "{\"providers\": {}}");
    assertThatThrownBy(() -> ModelsCommand.keepRunnable(file, Set.of("sol-web-high")))
        .isInstanceOfSatisfying(CtlException.class, e -> assertThat(e.exitCode()).isEqualTo(ExitCodes.OWNERSHIP));
    assertThat(Files.readString(file)).isEqualTo("{\"providers\": {}}");
  }
}

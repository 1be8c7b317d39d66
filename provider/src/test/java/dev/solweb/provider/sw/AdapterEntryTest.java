package dev.solweb.provider.sw;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.solweb.provider.model.Effort;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** adapters/solweb.json is the seed's harness entry, and its wrapper reaches bin/sw. */
class AdapterEntryTest {

  @Test
  void adapterEntryHasTheSeedShapeAndTheFiveModels() throws Exception {
    JsonNode entry = new ObjectMapper().readTree(SwFixture.ROOT.resolve("adapters/solweb.json").toFile());
    List<String> fields = new ArrayList<>();
    entry.fieldNames().forEachRemaining(fields::add);
    assertThat(fields).containsExactly("id", "wrapper", "description", "listModels", "metered", "models", "safeProbeArgv");
    assertThat(entry.get("id").asText()).isEqualTo("solweb");
    assertThat(entry.get("wrapper").asText()).isEqualTo("wrappers/sw.sh");
    assertThat(entry.get("listModels").asBoolean()).isTrue();
    assertThat(entry.get("metered").isBoolean()).isTrue();
    assertThat(entry.get("metered").asBoolean()).isFalse();
    List<String> models = new ArrayList<>();
    entry.get("models").forEach(m -> models.add(m.asText()));
    assertThat(models).isEqualTo(Effort.modelIds());
    assertThat(entry.get("safeProbeArgv").toString()).isEqualTo("[\"--health\"]");
  }

  @Test
  void wrapperScriptListsTheModelsThroughBinSw() throws Exception {
    Path wrapper = SwFixture.ROOT.resolve("adapters/wrappers/sw.sh");
    Process process = new ProcessBuilder(wrapper.toString(), "--list-models").redirectErrorStream(true).start();
    String out = new String(process.getInputStream().readAllBytes());
    assertThat(process.waitFor()).as(out).isZero();
    assertThat(out.lines().toList()).isEqualTo(Effort.modelIds());
    assertThat(Files.isExecutable(wrapper)).isTrue();
  }
}

package dev.solweb.factory.preset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.platform.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PresetLoaderTest {

  static final Path SHIPPED = Path.of("..", "presets");
  @TempDir Path tmp;

  static final String GOOD = """
      name: gpt-sol-high
      coding_agent: pi
      model: gpt/sol-web-high
      thinking: "off"
      seats:
        - implementer
      """;

  @Test
  void theFourShippedPresetsLoadAndBindTheirEffort() throws Exception {
    Map<String, Preset> presets = PresetLoader.loadAll(SHIPPED);
    assertThat(presets).containsOnlyKeys("gpt-sol-medium", "gpt-sol-high", "gpt-sol-xhigh", "gpt-sol-pro");
    assertThat(presets.get("gpt-sol-pro").model()).isEqualTo("gpt/sol-web-pro");
    assertThat(presets.get("gpt-sol-xhigh").effort()).isEqualTo(Effort.XHIGH);
    assertThat(presets.values()).allSatisfy(p -> assertThat(p.thinking().asText()).isEqualTo("off"));
  }

  @Test
  void mergeBindsOnlyTheSelectedSeatsAndKeepsTheirToolAllowlist() throws Exception {
    Preset high = PresetLoader.load(write("gpt-sol-high.yaml", GOOD));
    JsonNode base = Json.MAPPER.readTree("""
        {"seats":{"implementer":{"coding_agent":"claude_code","model":"x","tools":["read","edit"]},
                  "reviewer":{"coding_agent":"claude_code","model":"y"}},"gates":["test"]}""");

    ObjectNode merged = PresetLoader.merge(base, high);

    assertThat(merged.at("/seats/implementer").toString())
        .isEqualTo("{\"coding_agent\":\"pi\",\"model\":\"gpt/sol-web-high\",\"tools\":[\"read\",\"edit\"],\"thinking\":\"off\"}");
    assertThat(merged.at("/seats/reviewer/coding_agent").asText()).isEqualTo("claude_code");
    assertThat(merged.at("/gates/0").asText()).isEqualTo("test");
    assertThat(base.at("/seats/implementer/model").asText()).as("base untouched").isEqualTo("x");
  }

  @Test
  void mergeRefusesASeatTheBaseConfigDoesNotDefine() throws Exception {
    Preset high = PresetLoader.load(write("gpt-sol-high.yaml", GOOD));
    assertThatThrownBy(() -> PresetLoader.merge(Json.MAPPER.readTree("{\"seats\":{}}"), high))
        .hasMessageContaining("implementer");
  }

  @Test
  void refusesABareOffWhichYamlReadsAsFalse() throws Exception {
    assertRejected("gpt-sol-high.yaml", GOOD.replace("\"off\"", "off"), "thinking");
  }

  @Test
  void refusesInstantAndMismatchedModels() throws Exception {
    assertRejected("gpt-sol-instant.yaml", GOOD.replace("high", "instant"), "name");
    assertRejected("gpt-sol-high.yaml", GOOD.replace("model: gpt/sol-web-high", "model: gpt/sol-web-pro"), "model");
    assertRejected("gpt-sol-high.yaml", GOOD.replace("model: gpt/sol-web-high", "model: openai/gpt-5"), "model");
  }

  @Test
  void refusesOtherAgentsUnknownKeysNameMismatchAndNoSeats() throws Exception {
    assertRejected("gpt-sol-high.yaml", GOOD.replace("coding_agent: pi", "coding_agent: gpt"), "coding_agent");
    assertRejected("gpt-sol-high.yaml", GOOD + "tools: [bash]\n", "tools");
    assertRejected("gpt-sol-pro.yaml", GOOD, "file name");
    assertRejected("gpt-sol-high.yaml", GOOD.replace("seats:\n  - implementer\n", "seats: []\n"), "seats");
    assertRejected("gpt-sol-high.yaml", GOOD + "pi_settings: {retry: {enabled: true}}\n", "pi_settings");
    assertRejected("gpt-sol-high.yaml", "name: [unclosed\n", "not valid");
  }

  private void assertRejected(String file, String yaml, String mentions) throws Exception {
    Path f = write(file, yaml);
    assertThatThrownBy(() -> PresetLoader.load(f)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(f.toString()).hasMessageContaining(mentions);
  }

  private Path write(String name, String text) throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("p" + System.nanoTime()));
    return Files.writeString(dir.resolve(name), text);
  }
}

package dev.solweb.provider.pi;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The shipped presets and models.json agree: one preset per Factory effort, each naming a model
 * models.json registers, thinking off, and the retry settings that make one failure one request.
 * (factory-plugin's loader validates the full schema; this guards the files this issue ships.)
 */
class ShippedPresetsTest {

  private static final List<String> EFFORTS = List.of("medium", "high", "xhigh", "pro");
  private static final String PI_SETTINGS = String.join("\n",
      "pi_settings:", "  retry:", "    enabled: false", "    provider:", "      maxRetries: 0");

  @Test
  void modelsJsonIsExactlyTheManagedProvider() throws Exception {
    JsonNode gpt = new ObjectMapper().readTree(Pi.ROOT.resolve("models.json").toFile()).path("providers").path("gpt");
    assertThat(gpt.path("baseUrl").asText()).isEqualTo("http://127.0.0.1:8791/v1");
    assertThat(gpt.path("api").asText()).isEqualTo("openai-completions");
    assertThat(gpt.path("apiKey").asText()).isEqualTo("!solwebctl token");
    assertThat(gpt.path("authHeader").asBoolean()).isTrue();
    assertThat(gpt.path("headers").toString())
        .isEqualTo("{\"X-Overdeck-Client-Session\":\"OVERDECK_PI_CLIENT_SESSION\"}");
    List<String> ids = new ArrayList<>();
    for (JsonNode model : gpt.path("models")) {
      ids.add(model.path("id").asText());
      assertThat(model.path("name").asText()).startsWith("ChatGPT Sol Web ");
      assertThat(model.path("reasoning").asBoolean()).isFalse();
      // Pi sends a user's images (and a tool's) only to a model that says it takes them (docs/attachments.md).
      assertThat(model.path("input").toString()).isEqualTo("[\"text\",\"image\"]");
      assertThat(model.path("cost").toString())
          .isEqualTo("{\"input\":0,\"output\":0,\"cacheRead\":0,\"cacheWrite\":0}");
      assertThat(model.path("contextWindow").asLong()).isEqualTo(120_000);
      assertThat(model.path("maxTokens").asLong()).isEqualTo(16_000);
    }
    assertThat(ids).containsExactly("sol-web-medium", "sol-web-high", "sol-web-xhigh", "sol-web-pro");
  }

  @Test
  void onePresetPerEffortBindingItsModelWithThinkingOffAndRetriesOff() throws Exception {
    try (Stream<Path> files = Files.list(Pi.ROOT.resolve("presets"))) {
      assertThat(files.map(p -> p.getFileName().toString()).sorted())
          .containsExactly("gpt-sol-high.yaml", "gpt-sol-medium.yaml", "gpt-sol-pro.yaml", "gpt-sol-xhigh.yaml");
    }
    for (String effort : EFFORTS) {
      String preset = Files.readString(Pi.ROOT.resolve("presets/gpt-sol-" + effort + ".yaml"));
      List<String> lines = preset.lines().filter(l -> !l.startsWith("#")).toList();
      assertThat(lines).contains("name: gpt-sol-" + effort, "coding_agent: pi",
          "model: gpt/sol-web-" + effort, "thinking: \"off\"", "seats:");
      assertThat(String.join("\n", lines)).contains(PI_SETTINGS);
      assertThat(preset).doesNotContain("instant");
    }
  }
}

package dev.solweb.factory.preset;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import dev.solweb.provider.model.Effort;
import java.util.List;

/**
 * A shipped {@code presets/gpt-sol-<effort>.yaml}: binds the named Factory seats to
 * {@code model: gpt/sol-web-<effort>} and {@code thinking: off}. It never names tools: the agent
 * config's allowlist stays as it is (seed 001, "Security" 2).
 */
public record Preset(
    @JsonProperty("name") String name,
    @JsonProperty("coding_agent") String codingAgent,
    @JsonProperty("model") String model,
    @JsonProperty("thinking") JsonNode thinking,
    @JsonProperty("seats") List<String> seats,
    @JsonProperty("pi_settings") JsonNode piSettings) {

  /** The effort the model id names. */
  public Effort effort() {
    return Effort.fromModelId(model.substring("gpt/".length())).orElseThrow();
  }
}

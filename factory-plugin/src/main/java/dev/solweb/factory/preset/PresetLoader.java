package dev.solweb.factory.preset;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.solweb.factory.pi.AgentDirMaterializer;
import dev.solweb.provider.platform.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Loads and validates {@code presets/*.yaml}, and merges a preset's seat bindings into a base
 * Factory config (seed 001, "User-facing wrapper": "Shipped presets bind selected Factory seats to
 * model gpt/sol-web-<effort> and thinking: off. Existing preset merge contract owns seat
 * selection. No runtime config generator").
 *
 * <p>A preset is refused, naming the file and the field, when: a key is unknown; {@code name}
 * is not the file's stem or not {@code gpt-sol-<effort>}; {@code coding_agent} is not {@code pi};
 * {@code model} is not {@code gpt/sol-web-<effort>} for the same Factory effort (never instant);
 * {@code thinking} is not the string {@code off} (a bare YAML {@code off} is boolean false);
 * {@code seats} is empty or not strings; {@code pi_settings} is not exactly retries off.
 */
public final class PresetLoader {

  // YAML, not JSON: the one mapper of its own format (platform.Json is the JSON one).
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory())
      .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
  private static final Pattern NAME = Pattern.compile("gpt-sol-(medium|high|xhigh|pro)");

  private PresetLoader() {}

  /**
   * @throws IllegalArgumentException naming the file and what is wrong
   * @throws IOException when the file cannot be read
   */
  public static Preset load(Path file) throws IOException {
    String stem = file.getFileName().toString().replaceFirst("\\.ya?ml$", "");
    Preset preset;
    try {
      preset = YAML.readValue(file.toFile(), Preset.class);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("preset " + file + " is not valid: " + e.getOriginalMessage(), e);
    }
    if (preset == null) {
      throw new IllegalArgumentException("preset " + file + " is empty");
    }
    validate(file, stem, preset);
    return preset;
  }

  private static void validate(Path file, String stem, Preset p) {
    var m = p.name() == null ? null : NAME.matcher(p.name());
    if (m == null || !m.matches()) {
      throw bad(file, "name must be gpt-sol-medium|high|xhigh|pro, got " + p.name());
    }
    if (!p.name().equals(stem)) {
      throw bad(file, "name " + p.name() + " does not match the file name " + stem);
    }
    if (!"pi".equals(p.codingAgent())) {
      throw bad(file, "coding_agent must be pi, got " + p.codingAgent());
    }
    String effort = m.group(1);
    if (!("gpt/sol-web-" + effort).equals(p.model())) {
      throw bad(file, "model must be gpt/sol-web-" + effort + " for preset " + p.name() + ", got " + p.model());
    }
    if (p.thinking() == null || !p.thinking().isTextual() || !"off".equals(p.thinking().asText())) {
      throw bad(file, "thinking must be the string \"off\" (quote it: a bare off is YAML boolean false), got "
          + p.thinking());
    }
    if (p.seats() == null || p.seats().isEmpty() || p.seats().stream().anyMatch(s -> s == null || s.isBlank())) {
      throw bad(file, "seats must name at least one Factory seat");
    }
    if (p.piSettings() != null) {
      JsonNode expected;
      try {
        expected = Json.MAPPER.readTree(AgentDirMaterializer.RETRY_OFF);
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
      if (!expected.equals(p.piSettings())) {
        throw bad(file, "pi_settings must be exactly " + AgentDirMaterializer.RETRY_OFF + ", got " + p.piSettings());
      }
    }
  }

  private static IllegalArgumentException bad(Path file, String why) {
    return new IllegalArgumentException("preset " + file + ": " + why);
  }

  /** Every {@code *.yaml} in {@code dir}, validated, by name; the first bad file is refused. */
  public static Map<String, Preset> loadAll(Path dir) throws IOException {
    Map<String, Preset> presets = new LinkedHashMap<>();
    List<Path> files;
    try (Stream<Path> list = Files.list(dir)) {
      files = new ArrayList<>(list.filter(f -> f.toString().endsWith(".yaml") || f.toString().endsWith(".yml"))
          .sorted().toList());
    }
    for (Path f : files) {
      Preset p = load(f);
      presets.put(p.name(), p);
    }
    return presets;
  }

  /**
   * Returns a copy of {@code baseConfig} with each of the preset's seats bound to
   * {@code coding_agent: pi}, the preset's model and {@code thinking: off}. The base config holds
   * its seats under {@code seats.<name>}; every other key of a seat (its tool allowlist,
   * permissions, timeouts) is left as it is. A seat the base config does not define is refused:
   * a preset selects seats, it never invents them.
   */
  public static ObjectNode merge(JsonNode baseConfig, Preset preset) {
    if (!(baseConfig instanceof ObjectNode base)) {
      throw new IllegalArgumentException("base Factory config must be an object");
    }
    ObjectNode merged = base.deepCopy();
    JsonNode seats = merged.path("seats");
    for (String seat : preset.seats()) {
      if (!(seats.get(seat) instanceof ObjectNode binding)) {
        throw new IllegalArgumentException("preset " + preset.name() + " binds seat '" + seat
            + "', which the base Factory config does not define");
      }
      binding.put("coding_agent", "pi");
      binding.put("model", preset.model());
      binding.put("thinking", "off");
    }
    return merged;
  }
}

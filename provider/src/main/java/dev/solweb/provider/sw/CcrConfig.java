package dev.solweb.provider.sw;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.platform.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Objects;

/**
 * claude-code-router's {@code config.json} as far as solweb cares: the {@code solweb} provider
 * (seed 000 section 6), ccr's own listen address and its {@code APIKEY}. Every other provider and
 * key is carried through untouched, in order.
 *
 * <p>The file holds the solwebd token (as the provider's {@code api_key}), so it is written only
 * with mode 0600, and its contents are never printed.
 */
final class CcrConfig {
  static final String PROVIDER = "solweb";
  static final int DEFAULT_PORT = 3456;
  private static final ObjectMapper JSON = Json.MAPPER.copy().enable(SerializationFeature.INDENT_OUTPUT);

  private final ObjectNode root;

  private CcrConfig(ObjectNode root) {
    this.root = root;
  }

  /** @throws IOException when the file cannot be read or is not a JSON object */
  static CcrConfig read(Path file) throws IOException {
    JsonNode node;
    try {
      node = JSON.readTree(file.toFile());
    } catch (IOException e) {
      throw new IOException("ccr config " + file + " is not valid JSON: " + e.getMessage(), e);
    }
    if (node == null || !node.isObject()) {
      throw new IOException("ccr config " + file + " is not a JSON object");
    }
    return new CcrConfig((ObjectNode) node);
  }

  /** A new config for a machine without one: loopback, a random APIKEY, logging off. */
  static CcrConfig fresh() {
    ObjectNode root = JSON.createObjectNode();
    root.put("LOG", false);
    root.put("HOST", "127.0.0.1");
    root.put("PORT", DEFAULT_PORT);
    root.put("APIKEY", randomKey());
    root.put("API_TIMEOUT_MS", 600000);
    root.putArray("Providers");
    root.putObject("Router");
    return new CcrConfig(root);
  }

  static String chatUrl(int solwebdPort) {
    return "http://127.0.0.1:" + solwebdPort + "/v1/chat/completions";
  }

  int port() {
    JsonNode port = root.get("PORT");
    return port == null || port.isNull() ? DEFAULT_PORT : port.asInt(DEFAULT_PORT);
  }

  String host() {
    JsonNode host = root.get("HOST");
    return host == null || host.isNull() ? "127.0.0.1" : host.asText();
  }

  /** The key Claude Code presents to ccr, or null when ccr runs without one. */
  String apiKey() {
    JsonNode key = root.get("APIKEY");
    return key == null || key.isNull() || key.asText().isEmpty() ? null : key.asText();
  }

  private ArrayNode providers() {
    String name = root.has("Providers") || !root.has("providers") ? "Providers" : "providers";
    JsonNode providers = root.get(name);
    if (providers == null || !providers.isArray()) {
      return root.putArray(name);
    }
    return (ArrayNode) providers;
  }

  private ObjectNode solweb() {
    for (JsonNode provider : providers()) {
      if (provider.isObject() && PROVIDER.equals(provider.path("name").asText())) {
        return (ObjectNode) provider;
      }
    }
    return null;
  }

  /**
   * Why this config cannot route to the solwebd on {@code solwebdPort} with {@code token}, or null
   * when it can. Never includes the token.
   */
  String staleness(int solwebdPort, String token) {
    ObjectNode provider = solweb();
    if (provider == null) {
      return "it has no \"" + PROVIDER + "\" provider";
    }
    if (!chatUrl(solwebdPort).equals(provider.path("api_base_url").asText())) {
      return "its solweb api_base_url is " + provider.path("api_base_url").asText("(none)") + ", solwebd serves "
          + chatUrl(solwebdPort);
    }
    if (!token.equals(provider.path("api_key").asText())) {
      return "its solweb api_key is not solwebd's current token";
    }
    for (String model : Effort.modelIds()) {
      boolean listed = false;
      for (JsonNode m : provider.path("models")) {
        listed |= model.equals(m.asText());
      }
      if (!listed) {
        return "its solweb provider does not list " + model;
      }
    }
    return null;
  }

  /**
   * Adds or updates the solweb provider (URL, key, the five models; its other keys kept), sets
   * HOST, PORT and APIKEY only where absent, and routes by default to solweb only when the config
   * has no default route yet.
   */
  CcrConfig withSolweb(int solwebdPort, String token) {
    ObjectNode copy = root.deepCopy();
    CcrConfig merged = new CcrConfig(copy);
    if (!copy.has("HOST")) {
      copy.put("HOST", "127.0.0.1");
    }
    if (!copy.has("PORT")) {
      copy.put("PORT", DEFAULT_PORT);
    }
    if (merged.apiKey() == null) {
      // Without a key any local process could reach solweb through ccr unauthenticated.
      copy.put("APIKEY", randomKey());
    }
    ObjectNode provider = merged.solweb();
    if (provider == null) {
      provider = merged.providers().addObject();
      provider.put("name", PROVIDER);
    }
    provider.put("api_base_url", chatUrl(solwebdPort));
    provider.put("api_key", token);
    ArrayNode models = provider.putArray("models");
    Effort.modelIds().forEach(models::add);
    JsonNode router = copy.get("Router");
    if (router == null || !router.isObject()) {
      router = copy.putObject("Router");
    }
    if (!router.has("default") || router.get("default").asText().isEmpty()) {
      ((ObjectNode) router).put("default", PROVIDER + "," + Effort.MEDIUM.modelId());
    }
    return merged;
  }

  String render() {
    try {
      return JSON.writeValueAsString(root) + "\n";
    } catch (IOException e) {
      throw new IllegalStateException("a JSON tree always renders", e);
    }
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof CcrConfig c && root.equals(c.root);
  }

  @Override
  public int hashCode() {
    return Objects.hash(root);
  }

  @Override
  public String toString() {
    return "CcrConfig[port=" + port() + "]"; // never the keys
  }

  private static String randomKey() {
    byte[] bytes = new byte[24];
    new SecureRandom().nextBytes(bytes);
    return "ccr-" + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  static boolean exists(Path file) {
    return Files.exists(file);
  }
}

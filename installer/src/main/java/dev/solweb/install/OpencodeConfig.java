package dev.solweb.install;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * opencode's config for solwebd, {@code <opencode config dir>/solweb.json}, read by
 * {@code OPENCODE_CONFIG=~/.config/opencode/solweb.json opencode}: an OpenAI-compatible provider
 * {@code solweb} at solwebd with the {@code sol-web-*} models, its key read by opencode from the
 * daemon's token file ({@code {file:...}}: never in argv, the environment or this file), and
 * opencode's title agent off. With the title agent on, opencode 1.18 asks the session's model for
 * a title, a second Send on the page for every session (measured: 2 Sends for one run).
 *
 * <p>opencode has no retry setting: it retries a 5xx five times over about a minute whatever
 * {@code x-should-retry} says. solwebd answers those retries from its failure memory, so they
 * type nothing (docs/account-safety.md, "Client retries").
 *
 * <p>A file of its own, like Claude Code's {@code solweb-settings.json}: the user's
 * {@code opencode.json} is not touched.
 */
public final class OpencodeConfig {
  public static final String FILE = "solweb.json";
  static final List<String> MODELS = List.of("sol-web-medium", "sol-web-high", "sol-web-xhigh", "sol-web-pro");

  private OpencodeConfig() {}

  /** The config for a solwebd at {@code baseUrl} ({@code http://127.0.0.1:8791/v1}) whose token is {@code tokenFile}. */
  public static byte[] render(String baseUrl, Path tokenFile) throws IOException {
    ObjectNode root = InstallerJson.MAPPER.createObjectNode();
    root.put("autoupdate", false).put("share", "disabled");
    root.putObject("agent").putObject("title").put("disable", true);
    ObjectNode solweb = root.putObject("provider").putObject("solweb");
    solweb.put("npm", "@ai-sdk/openai-compatible").put("name", "solweb");
    solweb.putObject("options").put("baseURL", baseUrl).put("apiKey", "{file:" + tokenFile + "}");
    ObjectNode models = solweb.putObject("models");
    MODELS.forEach(m -> models.putObject(m).put("name", m));
    return PiModels.render(root);
  }
}

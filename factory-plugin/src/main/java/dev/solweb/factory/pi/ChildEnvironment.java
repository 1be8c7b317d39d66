package dev.solweb.factory.pi;

import dev.solweb.factory.session.ClientSession;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The environment Pi (and through it every tool subprocess) runs with: the parent's, minus
 * secrets, plus {@code PI_CODING_AGENT_DIR}, {@code OVERDECK_PI_CLIENT_SESSION}, loopback in
 * {@code NO_PROXY} and {@code PI_OFFLINE=1}.
 *
 * <p>Dropped (seed 001 "Security" 6: the provider token never reaches a tool's environment): every
 * variable whose NAME contains, case-insensitively, {@code TOKEN}, {@code SECRET}, {@code KEY},
 * {@code PASSWORD}, {@code PASSWD}, {@code CREDENTIAL} or {@code COOKIE} (this covers
 * {@code SOLWEBD_TOKEN...}, {@code GITHUB_TOKEN}, {@code OPENAI_API_KEY}; {@code AUTH} is not in
 * the list because it would drop {@code GIT_AUTHOR_*}), and every variable whose VALUE equals a secret the caller knows (the solweb
 * bearer token, read only to scrub it). Pi itself gets its key through {@code !solwebctl token}
 * in models.json, in-process, so removing these costs nothing. {@code SOLWEBD_HOME} stays: that
 * command needs it to find the token file. Same-user tools can still run {@code solwebctl token};
 * this is no sandbox (seed 001 "Security" 6, 9).
 */
public final class ChildEnvironment {

  public static final String AGENT_DIR = "PI_CODING_AGENT_DIR";
  public static final String CLIENT_SESSION = "OVERDECK_PI_CLIENT_SESSION";
  public static final String LOOPBACK = "127.0.0.1,localhost";

  private static final Pattern SECRET_NAME =
      Pattern.compile(".*(TOKEN|SECRET|KEY|PASSWORD|PASSWD|CREDENTIAL|COOKIE).*");

  private ChildEnvironment() {}

  public static boolean isSecretName(String name) {
    return SECRET_NAME.matcher(name.toUpperCase(Locale.ROOT)).matches();
  }

  /**
   * @param parent the parent environment (usually {@code System.getenv()})
   * @param knownSecrets secret values to scrub wherever they appear as a whole value
   */
  public static Map<String, String> build(
      Map<String, String> parent, Path agentDir, ClientSession session, Collection<String> knownSecrets) {
    Map<String, String> env = new TreeMap<>();
    parent.forEach((name, value) -> {
      if (!isSecretName(name) && !knownSecrets.contains(value)) {
        env.put(name, value);
      }
    });
    env.put(AGENT_DIR, agentDir.toAbsolutePath().toString());
    env.put(CLIENT_SESSION, session.value());
    env.put("NO_PROXY", withLoopback(env.get("NO_PROXY")));
    env.put("no_proxy", withLoopback(env.get("no_proxy")));
    // Pi's startup network checks (version/update) have no place in a loopback-only run.
    env.put("PI_OFFLINE", "1");
    return env;
  }

  private static String withLoopback(String existing) {
    if (existing == null || existing.isBlank()) {
      return LOOPBACK;
    }
    return existing + "," + LOOPBACK;
  }
}

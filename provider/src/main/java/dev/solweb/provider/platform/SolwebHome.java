package dev.solweb.provider.platform;

import java.nio.file.Path;
import java.util.Map;

/**
 * Where every command finds the daemon's home, by one rule: {@code $SOLWEBD_HOME}, else
 * {@code $HOME/.overdeck/gptbridge}. The daemon, solwebctl, sw, ask-gpt, factory-gpt and the
 * installer all ask here, and bin/solwebctl's token fast path spells the same rule in bash, so a
 * {@code HOME} set elsewhere than the account's home (the JVM's {@code user.home}) moves all of them
 * together: the daemon never writes its token where the clients do not look.
 */
public final class SolwebHome {
  private SolwebHome() {}

  /** The daemon home: {@code SOLWEBD_HOME}, else {@code <user home>/.overdeck/gptbridge}. */
  public static Path daemonHome(Map<String, String> env) {
    String home = env.get("SOLWEBD_HOME");
    if (home != null && !home.isEmpty()) {
      return absolute(home);
    }
    return userHome(env).resolve(".overdeck").resolve("gptbridge");
  }

  /** The user's home: {@code HOME}; the JVM's {@code user.home} only when {@code HOME} is unset or empty. */
  public static Path userHome(Map<String, String> env) {
    String home = env.get("HOME");
    return absolute(home == null || home.isEmpty() ? System.getProperty("user.home") : home);
  }

  /**
   * A relative path resolved against the working directory, like bash's {@code "$PWD/$x"}, and not
   * normalized, so the Java and bash paths print the same text in refusals.
   */
  public static Path absolute(String path) {
    return path.startsWith("/") ? Path.of(path) : Path.of(System.getProperty("user.dir"), path);
  }
}

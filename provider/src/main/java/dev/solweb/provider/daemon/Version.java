package dev.solweb.provider.daemon;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The build identity: project version and git commit, stamped at build time. */
public final class Version {
  private Version() {}

  public static String current() {
    try (InputStream in = Version.class.getResourceAsStream("/solweb-version.properties")) {
      if (in == null) {
        return "dev";
      }
      Properties properties = new Properties();
      properties.load(in);
      String version = properties.getProperty("version", "dev");
      String commit = properties.getProperty("commit", "");
      return commit.isBlank() || commit.startsWith("$") ? version : version + "+" + commit;
    } catch (IOException e) {
      return "dev";
    }
  }
}

package dev.solweb.provider.daemon;

import java.io.IOException;
import java.nio.file.Path;
import java.util.logging.FileHandler;
import java.util.logging.Handler;
import java.util.logging.LogManager;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * Sends the daemon's java.util.logging records (warnings with their stack traces) to
 * {@code <home>/solwebd.log} instead of the terminal: the terminal gets one line per problem,
 * the log the whole story. solwebctl ensure appends the daemon's stdout and stderr to the same
 * file, so a launched daemon has everything in one place.
 */
final class DaemonLog {
  static final String NAME = "solwebd.log";

  private DaemonLog() {}

  /** @return the log file; when it cannot be opened the records stay on the console */
  static Path toFile(Path home) throws IOException {
    Path file = home.resolve(NAME);
    FileHandler handler = new FileHandler(file.toString().replace("%", "%%"), true);
    handler.setFormatter(new SimpleFormatter());
    Logger root = LogManager.getLogManager().getLogger("");
    for (Handler console : root.getHandlers()) {
      root.removeHandler(console);
    }
    root.addHandler(handler);
    return file;
  }
}

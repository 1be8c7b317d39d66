package dev.solweb.provider.ctl;

import java.util.ArrayList;
import java.util.List;

/**
 * How ensure starts a daemon when none runs. The seat is always passed by name: the default is
 * the real page ({@code playwright}), and a scripted seat is used only when asked for.
 *
 * @param seats the minimum number of seats; a new daemon is started with exactly this many
 * @param seat {@code playwright} or {@code scripted:<file|name>}
 * @param browserArgs the browser options given ({@code BrowserMixin.args}), passed on as they are
 */
public record LaunchRequest(int seats, String seat, List<String> browserArgs) {

  public LaunchRequest {
    if (seats < 1) {
      throw new IllegalArgumentException("--seats must be at least 1, got: " + seats);
    }
    if (!seat.equals("playwright") && !(seat.startsWith("scripted:") && seat.length() > "scripted:".length())) {
      throw new IllegalArgumentException("--seat must be playwright or scripted:<file|name>, got: " + seat);
    }
    browserArgs = List.copyOf(browserArgs);
  }

  /** The daemon's arguments after the launcher (never the token: the daemon reads its own file). */
  List<String> daemonArgs(CtlEnv env, int port) {
    List<String> args = new ArrayList<>(List.of(
        "--home", env.home().toString(), "--port", Integer.toString(port),
        "--seats", Integer.toString(seats), "--seat", seat));
    args.addAll(browserArgs);
    return args;
  }
}

package dev.solweb.provider.ctl;

import java.util.ArrayList;
import java.util.List;

/**
 * How ensure starts a daemon when none runs. The seat is always passed by name: the default is
 * the real page ({@code playwright}), and a scripted seat is used only when asked for.
 *
 * @param seats the minimum number of seats; a new daemon is started with exactly this many
 * @param seat {@code playwright} or {@code scripted:<file|name>}
 * @param chatUrl the chat page the playwright seat opens, or null for the daemon's default
 * @param headless whether the playwright seat runs headless
 * @param chromium the Chromium the playwright seat runs, or null for the daemon's default
 * @param profile the seat's Chromium profile, or null for the daemon's default
 */
public record LaunchRequest(int seats, String seat, String chatUrl, boolean headless, String chromium,
    java.nio.file.Path profile) {

  public LaunchRequest {
    if (seats < 1) {
      throw new IllegalArgumentException("--seats must be at least 1, got: " + seats);
    }
    if (!seat.equals("playwright") && !(seat.startsWith("scripted:") && seat.length() > "scripted:".length())) {
      throw new IllegalArgumentException("--seat must be playwright or scripted:<file|name>, got: " + seat);
    }
  }

  /** The daemon's arguments after the launcher (never the token: the daemon reads its own file). */
  List<String> daemonArgs(CtlEnv env, int port) {
    List<String> args = new ArrayList<>(List.of(
        "--home", env.home().toString(), "--port", Integer.toString(port),
        "--seats", Integer.toString(seats), "--seat", seat));
    if (chatUrl != null) {
      args.add("--chat-url");
      args.add(chatUrl);
    }
    if (headless) {
      args.add("--headless");
    }
    if (chromium != null) {
      args.add("--chromium");
      args.add(chromium);
    }
    if (profile != null) {
      args.add("--profile");
      args.add(profile.toString());
    }
    return args;
  }
}

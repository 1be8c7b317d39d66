package dev.solweb.provider.http.operator;

import java.util.Locale;
import java.util.Set;

/** Whether a Host (or an Origin's host) names this machine's loopback: 127.0.0.1, localhost or [::1]. */
final class Loopback {
  private static final Set<String> NAMES = Set.of("127.0.0.1", "localhost", "[::1]");

  private Loopback() {}

  /** A parsed {@code name[:port]}; port -1 when absent. */
  record Authority(String name, int port) {}

  /** @return null when {@code value} is not {@code name[:port]} */
  static Authority parse(String value) {
    if (value == null || value.isEmpty()) {
      return null;
    }
    String name;
    String rest;
    if (value.startsWith("[")) {
      int close = value.indexOf(']');
      if (close < 0) {
        return null;
      }
      name = value.substring(0, close + 1);
      rest = value.substring(close + 1);
    } else {
      int colon = value.indexOf(':');
      name = colon < 0 ? value : value.substring(0, colon);
      rest = colon < 0 ? "" : value.substring(colon);
    }
    int port = -1;
    if (!rest.isEmpty()) {
      if (!rest.startsWith(":") || rest.length() == 1 || rest.length() > 6
          || !rest.substring(1).chars().allMatch(Character::isDigit)) {
        return null;
      }
      port = Integer.parseInt(rest.substring(1));
    }
    return new Authority(name.toLowerCase(Locale.ROOT), port);
  }

  /** The request's {@code name[:port]} as it came (Host, or HTTP/2's :authority), or null without one. */
  static String authorityOf(io.vertx.core.http.HttpServerRequest request) {
    String host = request.getHeader("Host");
    if (host != null) {
      return host;
    }
    io.vertx.core.net.HostAndPort authority = request.authority();
    if (authority == null) {
      return null;
    }
    String name = authority.host();
    if (name.contains(":") && !name.startsWith("[")) {
      name = "[" + name + "]";
    }
    return authority.port() >= 0 ? name + ":" + authority.port() : name;
  }

  static boolean isLoopbackName(String name) {
    return NAMES.contains(name);
  }

  /** For an error message: the value as given, cut short and stripped of control characters. */
  static String shown(String value) {
    if (value == null) {
      return "(none)";
    }
    String clean = value.replaceAll("\\p{Cntrl}", "?");
    return clean.length() > 80 ? clean.substring(0, 80) + "..." : clean;
  }
}

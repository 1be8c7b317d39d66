package dev.solweb.provider.ctl;

import com.fasterxml.jackson.databind.JsonNode;
import dev.solweb.provider.translate.SessionKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The clients' reading of {@code /healthz} {@code turns} (the daemon's live progress) and the one
 * way {@code factory-gpt run}, {@code factory-gpt status} and {@code sw} print a turn on their
 * progress lines: {@code gpt: thinking 42 s, writing 1,204 chars (elapsed 61 s)}. Read-only: the
 * token only authorizes the GET and is never printed.
 */
public final class LiveTurns {

  /** One entry of {@code /healthz} {@code turns}; see the README's /healthz row. */
  public record Turn(String session, String client, String effort, String state, double elapsedSeconds,
      double thinkingSeconds, int charsReceived) {

    static Turn of(JsonNode n) {
      return new Turn(n.path("session").asText(null), n.path("client").asText(null), n.path("effort").asText(null),
          n.path("state").asText("?"), n.path("elapsed_s").asDouble(), n.path("thinking_s").asDouble(),
          n.path("chars_received").asInt());
    }

    /** The progress-line text: what the turn is doing, how long it thought, what arrived, and since when. */
    public String line() {
      String doing = switch (state) {
        case "thinking" -> "thinking " + seconds(thinkingSeconds) + " s";
        case "writing" -> (thinkingSeconds > 0 ? "thinking " + seconds(thinkingSeconds) + " s, " : "")
            + "writing " + count(charsReceived) + " chars";
        case "complete" -> "complete, " + count(charsReceived) + " chars";
        default -> state; // queued, typing, sent, or a state a newer daemon added
      };
      return "gpt: " + doing + " (elapsed " + seconds(elapsedSeconds) + " s)";
    }
  }

  private LiveTurns() {}

  /** Every turn {@code /healthz} lists; empty for an older daemon that lists none. */
  public static List<Turn> of(JsonNode healthz) {
    List<Turn> turns = new ArrayList<>();
    for (JsonNode n : healthz.path("turns")) {
      turns.add(Turn.of(n));
    }
    return turns;
  }

  /** The turn of the client that sends {@code clientSession} as its {@code X-Overdeck-Client-Session}, if one runs. */
  public static Optional<Turn> ofClient(JsonNode healthz, String clientSession) {
    String tag = SessionKey.clientTag(clientSession);
    return first(healthz, t -> tag.equals(t.client()));
  }

  /**
   * The turn of a client that sends no client-session header (Claude Code through ccr) at
   * {@code effort}: the best such a client can tell, since the header is its only name.
   */
  public static Optional<Turn> ofAnonymous(JsonNode healthz, String effort) {
    return first(healthz, t -> t.client() == null && effort.equals(t.effort()));
  }

  private static Optional<Turn> first(JsonNode healthz, Predicate<Turn> mine) {
    return of(healthz).stream().filter(mine).findFirst();
  }

  /**
   * {@code GET /healthz} of the daemon on 127.0.0.1:{@code port}; empty when it does not answer
   * or refuses (progress is advisory: a failed read never stops the caller).
   */
  public static Optional<JsonNode> fetch(int port, String token) {
    try {
      return Optional.of(new DaemonClient(port, token).health());
    } catch (CtlException | DaemonClient.Unreachable e) {
      return Optional.empty();
    }
  }

  private static long seconds(double s) {
    return (long) Math.floor(s);
  }

  private static String count(int n) {
    return String.format(Locale.ROOT, "%,d", n);
  }
}

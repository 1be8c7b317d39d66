package dev.solweb.provider.ctl;

import com.fasterxml.jackson.databind.JsonNode;
import dev.solweb.provider.dispatch.LiveTurn;
import dev.solweb.provider.translate.SessionKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The clients' reading of {@code /healthz} {@code turns} (the daemon's live progress): each entry
 * a {@link LiveTurn.View}, whose {@link LiveTurn.View#line() line} is how {@code factory-gpt run},
 * {@code factory-gpt status} and {@code sw} print a turn: {@code gpt: thinking 42 s, writing
 * 1,204 chars (elapsed 61 s)}. Read-only: the token only authorizes the GET and is never printed.
 */
public final class LiveTurns {

  private LiveTurns() {}

  /** Every turn {@code /healthz} lists; empty for an older daemon that lists none. */
  public static List<LiveTurn.View> of(JsonNode healthz) {
    List<LiveTurn.View> turns = new ArrayList<>();
    for (JsonNode n : healthz.path("turns")) {
      turns.add(LiveTurn.View.of(n));
    }
    return turns;
  }

  /** The turn of the client that sends {@code clientSession} as its {@code X-Overdeck-Client-Session}, if one runs. */
  public static Optional<LiveTurn.View> ofClient(JsonNode healthz, String clientSession) {
    String tag = SessionKey.clientTag(clientSession);
    return first(healthz, t -> tag.equals(t.client()));
  }

  /**
   * The turn of a client that sends no client-session header (Claude Code through ccr) at
   * {@code effort}: the best such a client can tell, since the header is its only name.
   */
  public static Optional<LiveTurn.View> ofAnonymous(JsonNode healthz, String effort) {
    return first(healthz, t -> t.client() == null && effort.equals(t.effort()));
  }

  private static Optional<LiveTurn.View> first(JsonNode healthz, Predicate<LiveTurn.View> mine) {
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
}

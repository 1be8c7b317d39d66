package dev.solweb.provider.dispatch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.seat.TurnProgress;
import dev.solweb.provider.translate.SessionKey;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * How far one accepted turn has come: queued (the dispatcher's own: waiting for a seat or for its
 * session's earlier turn), then what its seat reports ({@link TurnProgress}). It holds no text,
 * only the turn's public names, its state, its times and a character count, so {@code /healthz}
 * can show it while the answer is still private. Thread-safe: the seat thread reports, any thread
 * reads.
 */
public final class LiveTurn implements TurnProgress {

  /** A turn's state as {@code /healthz} names it. */
  public enum State {
    QUEUED, TYPING, SENT, THINKING, REVIEWING, WRITING, COMPLETE;

    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }

    static State of(Stage stage) {
      return switch (stage) {
        case TYPING -> TYPING;
        case SENT -> SENT;
        case THINKING -> THINKING;
        case REVIEWING -> REVIEWING;
        case WRITING -> WRITING;
        case COMPLETE -> COMPLETE;
      };
    }
  }

  /**
   * One entry of {@code /healthz} {@code turns}, as the daemon writes it ({@link #toJson}) and
   * its clients read it ({@link #of(JsonNode)}) to print their progress lines ({@link #line}).
   * A client takes any state: a newer daemon may add one.
   *
   * @param session the session key (a hash; the same name {@code occupancy} uses)
   * @param client {@link SessionKey#clientTag} of the client-session header, or null without one
   * @param effort the effort's suffix ({@code high}, ...)
   * @param state {@link State#wireName()}: queued, typing, sent, thinking, writing, complete
   * @param elapsedSeconds since the dispatcher accepted the turn (its queue time included), in tenths
   * @param thinkingSeconds how long the seat reported it thinking, summed over the turn's sends
   * @param charsReceived answer characters the seat saw in the current send
   */
  public record View(String session, String client, String effort, String state, double elapsedSeconds,
      double thinkingSeconds, int charsReceived) {

    /** One entry as a client reads it; a field the daemon left out reads as empty or 0. */
    public static View of(JsonNode n) {
      return new View(n.path("session").asText(null), n.path("client").asText(null), n.path("effort").asText(null),
          n.path("state").asText("?"), n.path("elapsed_s").asDouble(), n.path("thinking_s").asDouble(),
          n.path("chars_received").asInt());
    }

    /** Writes the entry's fields into {@code entry} (exactly these, never any text). */
    public ObjectNode toJson(ObjectNode entry) {
      return entry.put("session", session).put("client", client).put("effort", effort).put("state", state)
          .put("elapsed_s", elapsedSeconds).put("thinking_s", thinkingSeconds).put("chars_received", charsReceived);
    }

    /**
     * The progress-line text of {@code factory-gpt run|status} and {@code sw}: what the turn is
     * doing, how long it thought, what arrived, and since when.
     */
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

    private static long seconds(double s) {
      return (long) Math.floor(s);
    }

    private static String count(int n) {
      return String.format(Locale.ROOT, "%,d", n);
    }
  }

  private final String session;
  private final String client;
  private final String effort;
  private final Supplier<Instant> now;
  private final Instant acceptedAt;
  private State state = State.QUEUED;
  private Instant thinkingSince;
  private Duration thought = Duration.ZERO;
  private int chars;
  private boolean sent;

  LiveTurn(TurnRequest request, Supplier<Instant> now) {
    this.session = request.sessionKey();
    this.client = request instanceof TurnRequest.Chat chat
        ? chat.turn().input().clientSession().map(SessionKey::clientTag).orElse(null) : null;
    this.effort = request.effort().suffix();
    this.now = now;
    this.acceptedAt = now.get();
  }

  /** The turn got a seat: from here the seat prepares and types it. */
  synchronized void started() {
    move(State.TYPING, 0);
  }

  @Override
  public synchronized void report(Stage stage, int charsReceived) {
    move(State.of(stage), charsReceived);
  }

  private void move(State next, int charsReceived) {
    Instant at = now.get();
    if (state == State.THINKING && next != State.THINKING) {
      thought = thought.plus(Duration.between(thinkingSince, at));
      thinkingSince = null;
    } else if (state != State.THINKING && next == State.THINKING) {
      thinkingSince = at;
    }
    state = next;
    sent |= next.ordinal() >= State.SENT.ordinal();
    chars = Math.max(0, charsReceived);
  }

  /** Whether the seat reported a Send for this turn: from then on its message is spent. */
  synchronized boolean sent() {
    return sent;
  }

  public synchronized View view() {
    Instant at = now.get();
    Duration thinking = thinkingSince == null ? thought : thought.plus(Duration.between(thinkingSince, at));
    return new View(session, client, effort, state.wireName(), tenths(Duration.between(acceptedAt, at)), tenths(thinking),
        chars);
  }

  private static double tenths(Duration d) {
    return d.toMillis() / 100 / 10.0;
  }
}

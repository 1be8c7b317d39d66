package dev.solweb.provider.dispatch;

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
   * One turn as {@code /healthz} shows it.
   *
   * @param session the session key (a hash; the same name {@code occupancy} uses)
   * @param client {@link SessionKey#clientTag} of the client-session header, or null without one
   * @param effort the effort's suffix ({@code high}, ...)
   * @param elapsed since the dispatcher accepted the turn (its queue time included)
   * @param thinking how long the seat reported it thinking, summed over the turn's sends
   * @param charsReceived answer characters the seat saw in the current send
   */
  public record View(String session, String client, String effort, State state, Duration elapsed, Duration thinking,
      int charsReceived) {}

  private final String session;
  private final String client;
  private final String effort;
  private final Supplier<Instant> now;
  private final Instant acceptedAt;
  private State state = State.QUEUED;
  private Instant thinkingSince;
  private Duration thought = Duration.ZERO;
  private int chars;

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
    chars = Math.max(0, charsReceived);
  }

  public synchronized View view() {
    Instant at = now.get();
    Duration thinking = thinkingSince == null ? thought : thought.plus(Duration.between(thinkingSince, at));
    return new View(session, client, effort, state, Duration.between(acceptedAt, at), thinking, chars);
  }
}

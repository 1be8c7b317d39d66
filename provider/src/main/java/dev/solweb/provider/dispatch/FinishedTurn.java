package dev.solweb.provider.dispatch;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.failure.TurnFailed;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;

/**
 * One turn a seat finished (answered, failed, timed out or cancelled), as the operator page lists
 * it: its public names, its times and its outcome. Like {@link LiveTurn.View} it holds no text of
 * the prompt or the answer.
 *
 * @param seat the seat index that ran it
 * @param session the session key (a hash)
 * @param client the client-session tag, or null
 * @param effort the effort's suffix
 * @param outcome {@code answered}, or the failure's kind ({@code timeout}, {@code cancelled}, {@code capped}, ...)
 * @param detail the failure's one line, or null when answered
 * @param queuedSeconds from acceptance to the seat, in tenths
 * @param seatSeconds on the seat, in tenths
 * @param thinkingSeconds how long the seat reported it thinking
 * @param chars answer characters the seat saw in its last send
 * @param finishedAt when the seat gave it back
 * @param replayed why it was typed whole into a fresh conversation (a replay cause), or null when
 *     it continued one or opened its session's first
 */
public record FinishedTurn(int seat, String session, String client, String effort, String outcome, String detail,
    double queuedSeconds, double seatSeconds, double thinkingSeconds, int chars, Instant finishedAt, String replayed) {

  /** A turn that was no replay. */
  public FinishedTurn(int seat, String session, String client, String effort, String outcome, String detail,
      double queuedSeconds, double seatSeconds, double thinkingSeconds, int chars, Instant finishedAt) {
    this(seat, session, client, effort, outcome, detail, queuedSeconds, seatSeconds, thinkingSeconds, chars, finishedAt,
        null);
  }

  /**
   * The record of a turn that leaves seat {@code seatIndex} now: {@code answered}, or how its
   * {@code future} failed ({@code unavailable} when it has not ended at all).
   */
  static FinishedTurn of(int seatIndex, LiveTurn.View view, Instant startedAt, Instant now,
      CompletableFuture<?> future, String replayed) {
    double onSeat = Duration.between(startedAt, now).toMillis() / 100 / 10.0;
    String outcome = "answered";
    String detail = null;
    if (!future.isDone()) {
      outcome = "unavailable";
      detail = "the seat returned without an outcome";
    } else if (future.isCompletedExceptionally()) {
      Throwable error = future.handle((ok, e) -> e).join();
      if (error instanceof TurnFailed failed) {
        outcome = failed.failure().kind().wireName();
        detail = failed.failure().detail();
      } else {
        outcome = "unavailable";
        detail = String.valueOf(error);
      }
    }
    return new FinishedTurn(seatIndex, view.session(), view.client(), view.effort(), outcome, detail,
        Math.max(0, Math.round((view.elapsedSeconds() - onSeat) * 10) / 10.0), onSeat, view.thinkingSeconds(),
        view.charsReceived(), now, replayed);
  }

  public ObjectNode toJson(ObjectNode entry) {
    return entry.put("seat", seat).put("session", session).put("client", client).put("effort", effort)
        .put("outcome", outcome).put("detail", detail).put("queued_s", queuedSeconds).put("seat_s", seatSeconds)
        .put("thinking_s", thinkingSeconds).put("chars", chars).put("finished_at", finishedAt.toString())
        .put("replayed", replayed);
  }
}

package dev.solweb.provider.hygiene;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.dispatch.Dispatcher;
import dev.solweb.provider.failure.TurnFailed;
import dev.solweb.provider.platform.Json;
import dev.solweb.provider.seat.BrowserSeat;
import dev.solweb.provider.seat.Deletion;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.translate.Conversation;
import dev.solweb.provider.translate.Conversations;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Deletes managed conversations from the page, one at a time, and records each as a tombstone
 * ({@link Conversations#deleted}). Only managed conversations are ever touched, by their exact URL. A conversation
 * with a turn in flight or queued is skipped, never deleted; {@link Deletion#DELETED} and
 * {@link Deletion#NOT_FOUND} both record a tombstone; a failure records nothing. The same steps
 * run through the daemon ({@link #throughDispatcher}: each on a seat between turns, under the
 * session's key) and in {@code solwebctl} when no daemon runs ({@link #onSeat}).
 */
public final class ConversationDeletion {

  /** How one conversation ended; the JSON name is {@link #wire()}. */
  public enum Result {
    DELETED, NOT_FOUND, ALREADY_DELETED, WOULD_DELETE, SKIPPED, FAILED;

    public String wire() {
      return name().toLowerCase(Locale.ROOT);
    }

    /** Gone from the page (now or before), or only looked at: nothing is left to do. */
    public boolean done() {
      return this != SKIPPED && this != FAILED;
    }
  }

  /** One conversation's result. {@code detail} says why for skipped and failed ones. */
  public record Outcome(String sessionKey, String conversationId, String url, Result result, String detail) {
    static Outcome of(Conversation c, Result result, String detail) {
      return new Outcome(c.sessionKey(), c.conversationId(), c.url(), result, detail);
    }
  }

  private ConversationDeletion() {}

  /** The outcome that needs no page, or empty when the conversation must be deleted on a seat. */
  public static Optional<Outcome> settled(Conversation c, boolean dryRun) {
    if (c.status() == Conversation.Status.DELETED) {
      return Optional.of(Outcome.of(c, Result.ALREADY_DELETED, "tombstone recorded at " + c.deletedAtEpochSecond()));
    }
    if (c.url().isEmpty()) {
      return Optional.of(Outcome.of(c, Result.SKIPPED,
          "its URL was never seen (the first send did not finish); delete it by hand if the sidebar shows it"));
    }
    if (c.status() == Conversation.Status.IN_FLIGHT) {
      return Optional.of(Outcome.of(c, Result.SKIPPED, "a turn of this session is in flight"));
    }
    return dryRun ? Optional.of(Outcome.of(c, Result.WOULD_DELETE, "dry run: nothing deleted")) : Optional.empty();
  }

  /**
   * Deletes the registry's current conversation of {@code sessionKey} on {@code seat} and
   * records the tombstone.
   *
   * @throws SeatException only a {@link SeatException.Reason#BROKEN} browser (the caller rebuilds
   *     it); any other seat failure is a {@link Result#FAILED} outcome with nothing recorded
   */
  public static Outcome onSeat(BrowserSeat seat, Conversations conversations, String sessionKey) throws SeatException {
    Optional<Conversation> current = conversations.current(sessionKey);
    if (current.isEmpty()) {
      return new Outcome(sessionKey, null, null, Result.SKIPPED, "no longer in the registry");
    }
    Conversation c = current.get();
    Optional<Outcome> settled = settled(c, false);
    if (settled.isPresent()) {
      return settled.get();
    }
    Deletion deletion;
    try {
      deletion = seat.delete(c.url());
    } catch (SeatException e) {
      if (e.reason() == SeatException.Reason.BROKEN) {
        throw e;
      }
      return Outcome.of(c, Result.FAILED, e.failure().detail() + "; no tombstone recorded");
    }
    conversations.deleted(sessionKey, c.url());
    return deletion == Deletion.DELETED ? Outcome.of(c, Result.DELETED, "deleted and verified gone")
        : Outcome.of(c, Result.NOT_FOUND, "already gone from the page; tombstone recorded");
  }

  /**
   * Deletes {@code selected} through the daemon's dispatcher, one after another (so turns that
   * arrive meanwhile interleave), each between turns under its session's key.
   */
  public static CompletableFuture<List<Outcome>> throughDispatcher(Dispatcher dispatcher, Conversations conversations,
      List<Conversation> selected, boolean dryRun) {
    CompletableFuture<List<Outcome>> chain = CompletableFuture.completedFuture(new ArrayList<>());
    for (Conversation c : selected) {
      chain = chain.thenCompose(done -> one(dispatcher, conversations, c, dryRun, false).thenApply(outcome -> {
        done.add(outcome);
        return done;
      }));
    }
    return chain;
  }

  /**
   * One conversation through the dispatcher: {@code whenIdle} queues it as low-priority work
   * (retention), else between turns like {@code solwebctl doctor}.
   */
  static CompletableFuture<Outcome> one(Dispatcher dispatcher, Conversations conversations, Conversation c,
      boolean dryRun, boolean whenIdle) {
    Optional<Outcome> settled = settled(c, dryRun);
    if (settled.isPresent()) {
      if (settled.get().result() == Result.WOULD_DELETE && dispatcher.busy(c.sessionKey())) {
        return CompletableFuture.completedFuture(Outcome.of(c, Result.SKIPPED, "a turn of this session is in flight or queued"));
      }
      return CompletableFuture.completedFuture(settled.get());
    }
    Dispatcher.SeatJob<Outcome> job = seat -> onSeat(seat, conversations, c.sessionKey());
    CompletableFuture<Outcome> run = whenIdle ? dispatcher.runWhenIdle(c.sessionKey(), job)
        : dispatcher.runBetweenTurns(c.sessionKey(), job);
    return run.handle((outcome, error) -> {
      if (error == null) {
        return outcome;
      }
      Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
      if (cause instanceof Dispatcher.SessionBusy) {
        return Outcome.of(c, Result.SKIPPED, "a turn of this session is in flight or queued");
      }
      String why = cause instanceof TurnFailed failed ? failed.failure().detail() : cause.toString();
      return Outcome.of(c, Result.FAILED, why + "; no tombstone recorded");
    });
  }

  /**
   * The one JSON shape of a delete ({@code POST /v1/conversations/delete} and
   * {@code solwebctl conversations delete --json}; docs/solwebctl.md).
   */
  public static ObjectNode report(List<Outcome> outcomes, boolean dryRun) {
    ObjectNode root = Json.MAPPER.createObjectNode();
    root.put("dry_run", dryRun);
    ArrayNode results = root.putArray("results");
    Map<Result, Integer> counts = new EnumMap<>(Result.class);
    for (Result result : Result.values()) {
      counts.put(result, 0);
    }
    for (Outcome outcome : outcomes) {
      results.addObject().put("id", outcome.conversationId()).put("session", outcome.sessionKey())
          .put("url", outcome.url()).put("result", outcome.result().wire()).put("detail", outcome.detail());
      counts.merge(outcome.result(), 1, Integer::sum);
    }
    ObjectNode summary = root.putObject("summary");
    counts.forEach((result, count) -> summary.put(result.wire(), count));
    root.put("ok", outcomes.stream().allMatch(o -> o.result().done()));
    return root;
  }
}

package dev.solweb.provider.scenario;

import dev.solweb.provider.model.Effort;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * Plays a {@link Scenario} for one account: hands each new conversation its script and records
 * every send. Shared by all seats of a daemon (and by fakesol), so a rebuilt seat finds the
 * conversations its predecessor created. Thread-safe.
 */
public final class ScenarioPlayer {

  /**
   * One send as it reached "the browser": the exact text typed, the effort in force and the files
   * attached (absolute paths; empty for agentic turns).
   */
  public record Send(String conversationId, Effort effort, String effortLabel, String text, Instant at,
      List<String> attachments) {
    public Send {
      attachments = attachments == null ? List.of() : List.copyOf(attachments);
    }

    public Send(String conversationId, Effort effort, String effortLabel, String text, Instant at) {
      this(conversationId, effort, effortLabel, text, at, List.of());
    }
  }

  private final Scenario scenario;
  private final Set<Integer> usedScripts = new HashSet<>();
  private final Map<String, Deque<ScriptedReply>> pending = new HashMap<>();
  private final List<Send> sends = new ArrayList<>();
  private final List<String> regenerations = new ArrayList<>();
  private int conversationsOpened;
  private final List<dev.solweb.provider.translate.ConversationPlace> placesOpened = new ArrayList<>();
  private final List<String> deleted = new ArrayList<>();
  private final List<String> deleteRequests = new ArrayList<>();
  private final Set<String> refusedProjects = new HashSet<>();
  private String deleteFailure;

  public ScenarioPlayer(Scenario scenario) {
    this.scenario = scenario;
  }

  public Scenario scenario() {
    return scenario;
  }

  /** Opens a conversation for its first text: the first unused matching script, else the default. */
  public synchronized String openConversation(String firstText) {
    List<ScriptedReply> replies = scenario.defaultReplies();
    List<Scenario.ConversationScript> scripts = scenario.conversations();
    for (int i = 0; i < scripts.size(); i++) {
      Scenario.ConversationScript script = scripts.get(i);
      boolean matches = script.match() == null || script.match().isEmpty() || firstText.contains(script.match());
      if (!usedScripts.contains(i) && matches) {
        usedScripts.add(i);
        replies = script.replies();
        break;
      }
    }
    String id = UUID.randomUUID().toString();
    pending.put(id, new ArrayDeque<>(replies));
    conversationsOpened++;
    return id;
  }

  public synchronized boolean exists(String conversationId) {
    return pending.containsKey(conversationId);
  }

  /** The next scripted reply of a conversation, not consumed. */
  public synchronized Optional<ScriptedReply> peek(String conversationId) {
    Deque<ScriptedReply> replies = pending.get(conversationId);
    return replies == null ? Optional.empty() : Optional.ofNullable(replies.peekFirst());
  }

  /** Consumes the next scripted reply; empty when the script is exhausted. */
  public synchronized Optional<ScriptedReply> next(String conversationId) {
    Deque<ScriptedReply> replies = pending.get(conversationId);
    return replies == null ? Optional.empty() : Optional.ofNullable(replies.pollFirst());
  }

  /** Forgets a conversation, as when the owner deletes it. */
  public synchronized void delete(String conversationId) {
    pending.remove(conversationId);
  }

  public synchronized void record(Send send) {
    sends.add(send);
    notifyAll();
  }

  /**
   * Waits until {@code count} submissions are recorded (the page's Send, not a timer): a test that
   * must act while a turn is on the page waits on this. {@code bound} only ends a wait that would
   * otherwise hang; false when it passed first.
   */
  public synchronized boolean awaitSends(int count, Duration bound) throws InterruptedException {
    long deadline = System.nanoTime() + bound.toNanos();
    while (sends.size() < count) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
    return true;
  }

  /** Every send so far, in order. */
  /** A regeneration of the last answer of {@code conversationId}: no new user message, no send. */
  public synchronized void regenerated(String conversationId) {
    regenerations.add(conversationId);
  }

  /** The conversations regenerated, in order (one entry per regeneration). */
  public synchronized List<String> regenerations() {
    return List.copyOf(regenerations);
  }

  public synchronized List<Send> sends() {
    return List.copyOf(sends);
  }

  public synchronized int conversationsOpened() {
    return conversationsOpened;
  }

  /** A seat opened a new conversation in {@code place} (openNew with or without a place). */
  public synchronized void opened(dev.solweb.provider.translate.ConversationPlace place) {
    placesOpened.add(place);
  }

  /** Every place a new conversation was opened in, in order. */
  public synchronized List<dev.solweb.provider.translate.ConversationPlace> placesOpened() {
    return List.copyOf(placesOpened);
  }

  /** Opening in this project (its name or URL as configured) is refused: the page does not show it. */
  public synchronized void refuseProject(String nameOrUrl) {
    refusedProjects.add(nameOrUrl);
  }

  public synchronized boolean projectRefused(String nameOrUrl) {
    return refusedProjects.contains(nameOrUrl);
  }

  /**
   * Every delete from now on fails with {@code reason} (the page showed no confirmation), or
   * succeeds again for null.
   */
  public synchronized void failDeletes(String reason) {
    deleteFailure = reason;
  }

  public synchronized Optional<String> deleteFailure() {
    return Optional.ofNullable(deleteFailure);
  }

  /** Deletes {@code conversationId} as the page's menu would; false when it was not there. */
  public synchronized boolean deleteByOwner(String url, String conversationId) {
    deleteRequests.add(url);
    if (conversationId == null || pending.remove(conversationId) == null) {
      return false;
    }
    deleted.add(url);
    return true;
  }

  /** The URLs actually deleted (they existed), in order. */
  public synchronized List<String> deleted() {
    return List.copyOf(deleted);
  }

  /** Every URL a delete was asked for (deleted or not found), in order. */
  public synchronized List<String> deleteRequests() {
    return List.copyOf(deleteRequests);
  }
}

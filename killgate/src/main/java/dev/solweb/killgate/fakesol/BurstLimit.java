package dev.solweb.killgate.fakesol;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * How often the page (or a seat) asked a conversation's JSON and its stream status, and REAL-PAGE
 * row 52's burst rule over them: asked more than {@code requests} times within {@code window},
 * they answer 429 "Too many requests" and the page shows its rate-limit modal, as bursts of
 * history requests (a reload's, or steady polling's) do on the real page. A rule fakesol applies
 * to what it receives: a seat that bursts trips it. Off by default.
 */
final class BurstLimit {

  record Rule(int requests, Duration window) {}

  private final Clock clock;
  private final List<Instant> historyTimes = new ArrayList<>();
  private final ArrayDeque<Instant> jsonTimes = new ArrayDeque<>();
  private int statusRequests;
  private Rule rule; // null: off
  private boolean throttling;
  private int modals;

  BurstLimit(Clock clock) {
    this.clock = clock;
  }

  /** Turns the rule on (for the rest of this fakesol's life). */
  synchronized void rule(int requests, Duration window) {
    rule = new Rule(requests, window);
  }

  /**
   * The conversation JSON ({@code history}) or its stream status was asked; true when the rule
   * refuses it (429, and the page shows the modal).
   */
  synchronized boolean requested(boolean history) {
    if (history) {
      historyTimes.add(clock.instant());
    } else {
      statusRequests++;
    }
    if (rule == null) {
      return false;
    }
    Instant now = clock.instant();
    jsonTimes.addLast(now);
    while (!jsonTimes.isEmpty() && jsonTimes.peekFirst().isBefore(now.minus(rule.window()))) {
      jsonTimes.removeFirst();
    }
    boolean refuse = jsonTimes.size() > rule.requests();
    if (refuse && !throttling) {
      modals++;
    }
    throttling = refuse;
    return refuse;
  }

  synchronized List<Instant> historyRequestTimes() {
    return List.copyOf(historyTimes);
  }

  synchronized int historyRequests() {
    return historyTimes.size();
  }

  synchronized int statusRequests() {
    return statusRequests;
  }

  /** Times the rule showed the modal (one per burst, however many requests it refused). */
  synchronized int modals() {
    return modals;
  }
}

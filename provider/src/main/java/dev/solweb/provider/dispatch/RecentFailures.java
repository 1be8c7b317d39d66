package dev.solweb.provider.dispatch;

import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.failure.ProviderFailure.Kind;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The failure memory: a turn that failed after its Send spent a message, and a client's automatic
 * retry of exactly that request would spend another. Every solwebd failure says
 * {@code x-should-retry: false}, but not every client reads it: opencode 1.18 retries a 503 five
 * times over about a minute, each retry a fresh conversation on the page (measured: 7 Sends for
 * one failed turn, its title request among them), and Claude Code retries an error inside a
 * stream, whose headers went out with the 200. So the identical request (same session key, same
 * history) gets the same typed failure again, decided when it arrives and typed into nothing, for
 * {@link #HELD}. Not held: a cancelled turn (the client chose to leave) and a full conversation
 * ({@code context_overflow}: its next turn replays into a fresh conversation by design, the one
 * way on). A request that differs in anything goes through. Thread-safe.
 */
final class RecentFailures {

  /** How long an identical request is answered from here: past every client retry schedule measured (opencode: 66 s). */
  static final Duration HELD = Duration.ofMinutes(10);

  private record Held(String identity, ProviderFailure failure, Instant at) { }

  private final Supplier<Instant> now;
  private final Map<String, Held> bySession = new HashMap<>();

  RecentFailures(Supplier<Instant> now) {
    this.now = now;
  }

  /** Remembers that the turn {@code identity} of {@code sessionKey} failed after its Send. */
  synchronized void remember(String sessionKey, String identity, ProviderFailure failure) {
    if (failure.kind() == Kind.CANCELLED || failure.kind() == Kind.CONTEXT_OVERFLOW) {
      return;
    }
    Instant at = now.get();
    bySession.values().removeIf(h -> !at.isBefore(h.at().plus(HELD))); // a session that never retried
    bySession.put(sessionKey, new Held(identity, failure, at));
  }

  /** How many failures are held now (expired ones go when the next is remembered). */
  synchronized int held() {
    return bySession.size();
  }

  /**
   * The failure to answer a request identical to one that failed after its Send within
   * {@link #HELD}, its detail saying so; empty for any other request.
   */
  synchronized Optional<ProviderFailure> answer(String sessionKey, String identity) {
    Held held = bySession.get(sessionKey);
    if (held == null) {
      return Optional.empty();
    }
    Instant at = now.get();
    Duration ago = Duration.between(held.at(), at);
    if (ago.compareTo(HELD) >= 0) {
      bySession.remove(sessionKey);
      return Optional.empty();
    }
    if (!held.identity().equals(identity)) {
      return Optional.empty();
    }
    ProviderFailure f = held.failure();
    String again = "this exact request failed " + ago.toSeconds() + " s ago after its Send, so solwebd answers it from"
        + " memory and types nothing (a retry would spend another message; a changed request goes through, this one"
        + " again after " + HELD.toMinutes() + " min): " + f.detail();
    return Optional.of(f.kind() == Kind.CAPPED && f.resumeAt() != null
        ? ProviderFailure.capped(again, Instant.parse(f.resumeAt()), at)
        : ProviderFailure.of(f.kind(), again));
  }
}

package dev.solweb.provider.http.operator;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * The operator page's signed-in browsers, in memory only: they end with the daemon, after
 * {@code idle} unused, and {@code max} after sign-in whatever happens. Thread-safe.
 */
public final class OperatorSessions {
  /** More sessions than this and the oldest ends: signing in again and again cannot grow the heap. */
  static final int MAX_SESSIONS = 32;

  private static final class Session {
    final Instant createdAt;
    Instant lastSeen;

    Session(Instant at) {
      this.createdAt = at;
      this.lastSeen = at;
    }
  }

  private final Clock clock;
  private final Duration idle;
  private final Duration max;
  private final Map<String, Session> byDigest = new HashMap<>();

  public OperatorSessions(Clock clock, Duration idle, Duration max) {
    this.clock = clock;
    this.idle = idle;
    this.max = max;
  }

  /** A new session's id (the cookie value). */
  public synchronized String open() {
    purge();
    while (byDigest.size() >= MAX_SESSIONS) {
      String oldest = byDigest.entrySet().stream()
          .min((a, b) -> a.getValue().createdAt.compareTo(b.getValue().createdAt)).orElseThrow().getKey();
      byDigest.remove(oldest);
    }
    String id = Secrets.mint();
    byDigest.put(Secrets.digest(id), new Session(clock.instant()));
    return id;
  }

  /** True when {@code id} is a live session; a use keeps it from going idle. */
  public synchronized boolean touch(String id) {
    if (!Secrets.wellFormed(id)) {
      return false;
    }
    String digest = Secrets.digest(id);
    Session session = byDigest.get(digest);
    Instant now = clock.instant();
    if (session == null) {
      return false;
    }
    if (expired(session, now)) {
      byDigest.remove(digest);
      return false;
    }
    session.lastSeen = now;
    return true;
  }

  /** How long the cookie may live in the browser: no longer than the session can. */
  public Duration max() {
    return max;
  }

  private boolean expired(Session session, Instant now) {
    return !now.isBefore(session.lastSeen.plus(idle)) || !now.isBefore(session.createdAt.plus(max));
  }

  private void purge() {
    Instant now = clock.instant();
    byDigest.values().removeIf(session -> expired(session, now));
  }
}

package dev.solweb.provider.http.operator;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * One-time sign-in codes for the operator page: minted only by a bearer-token holder
 * ({@code solwebctl open}), spent once by {@code GET /ui/login?code=...}, dead after their
 * lifetime. A spent code is remembered until it would have expired, so a second use is told
 * apart from a code never minted. Thread-safe.
 */
public final class LoginCodes {
  /** More outstanding codes than this and the oldest are dropped: minting cannot grow the heap. */
  static final int MAX_OUTSTANDING = 64;

  /** What spending a code came to. */
  public enum Spend {
    SPENT, REUSED, EXPIRED, UNKNOWN
  }

  private record Entry(Instant expiresAt, boolean spent) {}

  private final Clock clock;
  private final Duration lifetime;
  private final Map<String, Entry> byDigest = new HashMap<>();

  public LoginCodes(Clock clock, Duration lifetime) {
    this.clock = clock;
    this.lifetime = lifetime;
  }

  /** A fresh code, good once for {@link #lifetime()}. */
  public synchronized String mint() {
    purge();
    while (byDigest.size() >= MAX_OUTSTANDING) {
      String oldest = byDigest.entrySet().stream().min(Map.Entry.comparingByValue(
          (a, b) -> a.expiresAt().compareTo(b.expiresAt()))).orElseThrow().getKey();
      byDigest.remove(oldest);
    }
    String code = Secrets.mint();
    byDigest.put(Secrets.digest(code), new Entry(clock.instant().plus(lifetime), false));
    return code;
  }

  public Duration lifetime() {
    return lifetime;
  }

  /** Spends {@code code}: {@link Spend#SPENT} exactly once for a live code, never again. */
  public synchronized Spend spend(String code) {
    if (!Secrets.wellFormed(code)) {
      return Spend.UNKNOWN;
    }
    String digest = Secrets.digest(code);
    Entry entry = byDigest.get(digest);
    if (entry == null) {
      return Spend.UNKNOWN;
    }
    if (!clock.instant().isBefore(entry.expiresAt())) {
      byDigest.remove(digest);
      return Spend.EXPIRED;
    }
    if (entry.spent()) {
      return Spend.REUSED;
    }
    byDigest.put(digest, new Entry(entry.expiresAt(), true));
    return Spend.SPENT;
  }

  private void purge() {
    Instant now = clock.instant();
    byDigest.values().removeIf(entry -> !now.isBefore(entry.expiresAt()));
  }
}

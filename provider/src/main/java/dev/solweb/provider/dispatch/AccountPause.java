package dev.solweb.provider.dispatch;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.failure.ProviderFailure.Kind;
import dev.solweb.provider.seat.AccountBlock;
import java.time.Instant;
import java.util.Locale;

/**
 * The whole account paused because the page asked for it (REAL-PAGE rows 52, 53): no seat types
 * anything until {@code until}, or, with no end, until a person clears it on the operator page.
 * Every turn refused meanwhile is a typed {@code unavailable}: with {@code retry_after_seconds}
 * for a timed pause, without one (never retried) for a stop only a person ends.
 *
 * @param until the end of the pause; null: until a person clears it
 */
public record AccountPause(AccountBlock block, Instant since, Instant until) {

  static AccountPause of(AccountBlock block, Instant now) {
    return new AccountPause(block, now, block.pause().map(now::plus).orElse(null));
  }

  /** The {@code account_pause} object of {@code /healthz}: what the page said, since when, until when (null: a person). */
  public void toJson(Instant now, ObjectNode into) {
    into.put("cause", block.cause().name().toLowerCase(Locale.ROOT)).put("page_text", block.pageText())
        .put("since", since.toString()).put("until", until == null ? null : until.toString()).put("holds", holds(now));
    if (until != null && holds(now)) {
      into.put("retry_after_seconds", failure(now).retryAfterSeconds());
    }
  }

  public boolean holds(Instant now) {
    return until == null || now.isBefore(until);
  }

  /** What a turn refused at {@code now} is told. */
  ProviderFailure failure(Instant now) {
    String shown = "ChatGPT showed \"" + block.pageText() + "\" at " + since;
    if (until == null) {
      String why = block.cause() == AccountBlock.Cause.UNUSUAL_ACTIVITY
          ? "a person must look at the account in the seat's browser"
          : "the rate-limit modal came back after " + AccountBlock.MAX_DISMISSALS + " dismissals";
      return ProviderFailure.of(Kind.UNAVAILABLE, "the account is stopped: " + shown + "; " + why
          + ", then clear the stop on the operator page (Resume account); nothing is sent until then");
    }
    return ProviderFailure.until(Kind.UNAVAILABLE, "the account is paused: " + shown + "; solweb sends nothing from any"
        + " seat until " + until + " (REAL-PAGE row 52: it limits requests for a few minutes)", until, now);
  }
}

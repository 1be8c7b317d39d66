package dev.solweb.provider.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.failure.ProviderFailure.Kind;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The failure memory on a clock the test moves: what it answers, for how long, and that it does not grow without end. */
class RecentFailuresTest {
  private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-12-07T10:00:00Z"));
  private final RecentFailures failures = new RecentFailures(now::get);

  @Test
  void theIdenticalRequestGetsTheFailureUntilTheMemoryIsOverAndADifferentOneNever() {
    failures.remember("s", "h1", ProviderFailure.of(Kind.TIMEOUT, "the turn took too long"));

    now.set(now.get().plusSeconds(30));
    assertThat(failures.answer("s", "h1")).hasValueSatisfying(f -> {
      assertThat(f.kind()).isEqualTo(Kind.TIMEOUT);
      assertThat(f.detail()).startsWith("this exact request failed 30 s ago").endsWith("the turn took too long");
    });
    assertThat(failures.answer("s", "h2")).isEmpty();
    assertThat(failures.answer("other", "h1")).isEmpty();

    now.set(now.get().plus(RecentFailures.HELD));
    assertThat(failures.answer("s", "h1")).isEmpty();
  }

  @Test
  void aCancelledTurnAndAFullConversationAreNotHeld() {
    failures.remember("s", "h1", ProviderFailure.of(Kind.CANCELLED, "the client disconnected"));
    failures.remember("t", "h1", ProviderFailure.of(Kind.CONTEXT_OVERFLOW, "the conversation is full"));

    assertThat(failures.answer("s", "h1")).isEmpty();
    assertThat(failures.answer("t", "h1")).isEmpty();
  }

  @Test
  void failuresOfSessionsThatNeverRetriedGoOnceTheirTimeIsOver() {
    for (int i = 0; i < 100; i++) {
      failures.remember("s" + i, "h", ProviderFailure.of(Kind.UNAVAILABLE, "the page broke"));
    }
    assertThat(failures.held()).isEqualTo(100);

    now.set(now.get().plus(RecentFailures.HELD).plus(Duration.ofSeconds(1)));
    failures.remember("late", "h", ProviderFailure.of(Kind.UNAVAILABLE, "the page broke"));

    assertThat(failures.held()).isEqualTo(1);
  }
}

package dev.solweb.provider.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.solweb.provider.platform.Poll;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The account's Send gap on time the test moves: one Send on its way at a time, the next at
 * least the gap after the last one ended, a Send that never reached the page opens no gap.
 */
class SendGateTest {
  private final ManualTime time = new ManualTime();
  private final SendGate gate = new SendGate(Duration.ofSeconds(2), time);

  @Test
  void theNextSendWaitsForTheGapCountedFromTheLastSend() {
    SendGate.Permit first = gate.tryAcquire().orElseThrow();
    assertThat(gate.tryAcquire()).as("one Send on its way at a time").isEmpty();
    time.advance(Duration.ofSeconds(5)); // typing and the click take their time
    first.sent();

    assertThat(gate.tryAcquire()).isEmpty();
    assertThat(gate.waitFrom(time.now())).isEqualTo(Duration.ofSeconds(2));
    time.advance(Duration.ofMillis(1999));
    assertThat(gate.tryAcquire()).isEmpty();
    time.advance(Duration.ofMillis(1));
    assertThat(gate.tryAcquire()).isPresent();
  }

  @Test
  void aSendThatNeverReachedThePageOpensNoGapAndEndingTwiceCountsOnce() {
    SendGate.Permit first = gate.tryAcquire().orElseThrow();
    first.release(false);
    first.release(true); // the finally after the send: a no-op
    assertThat(gate.tryAcquire()).as("nothing was sent: the next may go at once").isPresent();
  }

  @Test
  void aBlockedSeatThreadGoesOnlyOnceTheGateTimeSaysSo() throws Exception {
    gate.tryAcquire().orElseThrow().sent();
    Instant sentAt = time.now();
    CompletableFuture<Instant> through = CompletableFuture.supplyAsync(() -> {
      gate.acquire();
      return time.now();
    });
    assertThat(Poll.until(Duration.ofSeconds(10), Duration.ofMillis(5),
        () -> gate.waiting() == 1 ? Optional.of(true) : Optional.<Boolean>empty())).isPresent();
    time.advance(Duration.ofMillis(1500));
    assertThat(gate.waiting()).as("still waiting after 1.5 s").isEqualTo(1);
    time.advance(Duration.ofMillis(500));

    assertThat(through.get(10, TimeUnit.SECONDS)).isEqualTo(sentAt.plusSeconds(2));
  }

  @Test
  void zeroIsUnpacedAndTheVariableIsParsedStrictly() {
    SendGate none = SendGate.unpaced();
    none.tryAcquire().orElseThrow().sent();
    assertThat(none.tryAcquire()).isPresent();
    assertThat(SendGate.parseGap(null)).isEqualTo(Duration.ofSeconds(2));
    assertThat(SendGate.parseGap(" 500 ")).isEqualTo(Duration.ofMillis(500));
    assertThat(AccountPacing.Settings.fromEnv(java.util.Map.of(), true).sendGap()).as("a page seat: an account to guard")
        .isEqualTo(Duration.ofSeconds(2));
    assertThat(AccountPacing.Settings.fromEnv(java.util.Map.of(), false).sendGap()).as("a scripted seat: no account")
        .isZero();
    assertThat(AccountPacing.Settings.fromEnv(java.util.Map.of(SendGate.ENV, "700"), false).sendGap())
        .isEqualTo(Duration.ofMillis(700));
    assertThatThrownBy(() -> SendGate.parseGap("2s")).hasMessageContaining("SOLWEBD_SEND_GAP_MS must be whole milliseconds");
    assertThatThrownBy(() -> SendGate.parseGap("-1")).hasMessageContaining("SOLWEBD_SEND_GAP_MS");
  }
}

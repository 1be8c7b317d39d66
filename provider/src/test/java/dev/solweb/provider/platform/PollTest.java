package dev.solweb.provider.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Poll on a clock the test moves: each sleep advances it by exactly the interval asked for. */
class PollTest {
  private long now;
  private final List<Duration> sleeps = new ArrayList<>();
  private final Poll poll = new Poll(() -> now, duration -> {
    sleeps.add(duration);
    now += duration.toNanos();
  });

  @AfterEach
  void clearInterrupt() {
    Thread.interrupted();
  }

  @Test
  void anAnswerOnTheFirstLookNeverSleeps() {
    assertThat(poll.await(Duration.ofSeconds(1), Duration.ofMillis(100), () -> Optional.of("up"))).contains("up");
    assertThat(sleeps).isEmpty();
  }

  @Test
  void looksAgainEveryIntervalUntilTheProbeAnswers() {
    AtomicInteger looks = new AtomicInteger();
    Optional<Integer> answer = poll.await(Duration.ofSeconds(1), Duration.ofMillis(100),
        () -> looks.incrementAndGet() == 4 ? Optional.of(looks.get()) : Optional.empty());

    assertThat(answer).contains(4);
    assertThat(sleeps).containsExactly(Duration.ofMillis(100), Duration.ofMillis(100), Duration.ofMillis(100));
  }

  @Test
  void theLookAtTheMomentTheTimeoutPassesIsTheLastAndItEndsEmpty() {
    AtomicInteger looks = new AtomicInteger();
    Optional<String> answer = poll.await(Duration.ofMillis(250), Duration.ofMillis(100), () -> {
      looks.incrementAndGet();
      return Optional.empty();
    });

    assertThat(answer).isEmpty();
    assertThat(looks).hasValue(4); // at 0, 100, 200 and 300 ms: the one after 250 ms passed is the last
  }

  @Test
  void withoutATimeoutItWaitsUntilTheProbeAnswers() {
    AtomicInteger looks = new AtomicInteger();
    assertThat(poll.await(null, Duration.ofSeconds(5),
        () -> looks.incrementAndGet() == 100 ? Optional.of("done") : Optional.empty())).contains("done");
    assertThat(sleeps).hasSize(99);
  }

  @Test
  void aProbeThatThrowsEndsTheWaitWithItsOwnException() {
    assertThatThrownBy(() -> poll.await(Duration.ofSeconds(1), Duration.ofMillis(100), () -> {
      throw new IOException("the port is taken by something else");
    })).isInstanceOf(IOException.class).hasMessage("the port is taken by something else");
  }

  @Test
  void anInterruptEndsTheWaitAndKeepsTheFlag() {
    Poll interrupted = new Poll(() -> now, duration -> {
      throw new InterruptedException();
    });

    assertThatThrownBy(() -> interrupted.await(Duration.ofSeconds(1), Duration.ofMillis(100), Optional::empty))
        .isInstanceOf(Poll.Interrupted.class);
    assertThat(Thread.currentThread().isInterrupted()).isTrue();
  }

  @Test
  void aNonPositiveIntervalIsRefused() {
    assertThatThrownBy(() -> poll.await(Duration.ofSeconds(1), Duration.ZERO, Optional::empty))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("PT0S");
  }
}

package dev.solweb.provider.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.failure.TurnFailed;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.seat.BrowserSeat;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.SeatProbe;
import dev.solweb.provider.seat.SeatReply;
import dev.solweb.provider.translate.Conversations;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Dispatcher#runBetweenTurns}: a non-turn job waits its turn in the queue and never interleaves with one. */
class SeatJobTest {

  @TempDir Path out;
  private final List<String> events = new CopyOnWriteArrayList<>();
  private final CountDownLatch entered = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);
  private Dispatcher dispatcher;

  /** A seat whose first ask blocks until released, recording when each piece of work runs. */
  private final class GatedSeat implements BrowserSeat {
    private int asks;

    @Override
    public SeatProbe probe() {
      return SeatProbe.ready("owner@example.invalid");
    }

    @Override
    public void openNew() {}

    @Override
    public void resume(String conversationUrl) {}

    @Override
    public Effort setEffort(Effort effort) {
      return effort;
    }

    @Override
    public SeatReply send(String text) {
      throw new UnsupportedOperationException("only asks in this test");
    }

    @Override
    public SeatReply ask(String text, List<Path> attachments, Path outputDir) throws SeatException {
      int n = ++asks;
      events.add("turn-" + n + "-start");
      if (n == 1) {
        entered.countDown();
        try {
          release.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      events.add("turn-" + n + "-end");
      return new SeatReply(List.of(), "answer " + n, "https://chat.invalid/c/" + n);
    }

    @Override
    public void stop() {}

    @Override
    public void close() {}
  }

  private void start() throws Exception {
    GatedSeat seat = new GatedSeat();
    dispatcher = new Dispatcher(index -> seat,
        new SeatTurn(Conversations.inMemory(Clock.systemUTC()), Clock.systemUTC()),
        new Dispatcher.Settings(1, Duration.ofSeconds(60), DispatchSpacing.OFF), Clock.systemUTC());
    dispatcher.start().get(10, TimeUnit.SECONDS);
  }

  private Dispatcher.TurnHandle ask(String prompt) {
    return dispatcher.submit(TurnRequest.Ask.of(Effort.MEDIUM, prompt, List.of(), out));
  }

  @AfterEach
  void close() {
    release.countDown();
    if (dispatcher != null) {
      dispatcher.close();
    }
  }

  @Test
  void aJobWaitsForTheRunningTurnAndRunsOnTheSeatThread() throws Exception {
    start();
    Dispatcher.TurnHandle turn = ask("first");
    assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();

    CompletableFuture<String> job = dispatcher.runBetweenTurns(seat -> {
      events.add("job on " + Thread.currentThread().getName());
      return "read";
    });

    assertThat(job).isNotDone();
    assertThat(dispatcher.snapshot().queue()).isEqualTo(1);
    release.countDown();
    assertThat(job.get(10, TimeUnit.SECONDS)).isEqualTo("read");
    assertThat(turn.result().get(10, TimeUnit.SECONDS).images()).isEmpty();
    assertThat(events).containsExactly("turn-1-start", "turn-1-end", "job on solwebd-seat-0");
  }

  @Test
  void aJobKeepsItsPlaceInTheQueue() throws Exception {
    start();
    Dispatcher.TurnHandle first = ask("first");
    assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
    CompletableFuture<String> job = dispatcher.runBetweenTurns(seat -> {
      events.add("job");
      return "read";
    });
    Dispatcher.TurnHandle second = ask("second");

    release.countDown();
    second.result().get(10, TimeUnit.SECONDS);

    assertThat(first.result()).isDone();
    assertThat(job).isCompletedWithValue("read");
    assertThat(events).containsExactly("turn-1-start", "turn-1-end", "job", "turn-2-start", "turn-2-end");
  }

  @Test
  void aFailingJobFailsTypedAndTheSeatServesTheNextTurn() throws Exception {
    start();
    release.countDown();
    CompletableFuture<String> job = dispatcher.runBetweenTurns(seat -> {
      throw SeatException.failed(ProviderFailure.of(ProviderFailure.Kind.UNAVAILABLE, "no page to read"), false);
    });

    ExecutionException failed = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
        () -> job.get(10, TimeUnit.SECONDS));
    assertThat(failed.getCause()).isInstanceOf(TurnFailed.class);
    assertThat(((TurnFailed) failed.getCause()).failure().detail()).isEqualTo("no page to read");
    assertThat(ask("after").result().get(10, TimeUnit.SECONDS)).isNotNull();
    assertThat(dispatcher.snapshot().state()).isEqualTo("ready");
  }
}

package dev.solweb.provider.hygiene;

import static org.assertj.core.api.Assertions.assertThat;

import dev.solweb.provider.dispatch.DispatchSpacing;
import dev.solweb.provider.dispatch.Dispatcher;
import dev.solweb.provider.dispatch.ManualExecutor;
import dev.solweb.provider.dispatch.ManualTime;
import dev.solweb.provider.dispatch.SeatTurn;
import dev.solweb.provider.dispatch.TurnRequest;
import dev.solweb.provider.hygiene.Retention;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.scenario.Scenario;
import dev.solweb.provider.scenario.ScenarioPlayer;
import dev.solweb.provider.seat.scripted.ScriptedSeat;
import dev.solweb.provider.translate.ChatInput;
import dev.solweb.provider.translate.Conversation;
import dev.solweb.provider.translate.Conversations;
import dev.solweb.provider.translate.Message;
import dev.solweb.provider.translate.StoredConversations;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * SOLWEBD_RETENTION_DAYS on time and a seat thread the test moves by hand: only conversations
 * idle long enough are deleted, and only once no turn waits.
 */
class RetentionTest {
  private static final Duration IDLE = Duration.ofDays(30);
  private static final Duration SWEEP = Duration.ofHours(1);

  private final ManualTime time = new ManualTime();
  private final ManualExecutor seatThread = new ManualExecutor();
  private final ScenarioPlayer player = new ScenarioPlayer(Scenario.parse("{\"default\": [{\"prose\": \"hi\"}]}"));
  private Conversations conversations;
  private Dispatcher dispatcher;
  private Retention retention;

  @BeforeEach
  void start() {
    java.time.Clock clock = time.clock();
    conversations = Conversations.inMemory(clock);
    dispatcher = new Dispatcher(index -> new ScriptedSeat(player, clock), new SeatTurn(conversations, clock),
        new Dispatcher.Settings(1, Duration.ofSeconds(300), DispatchSpacing.OFF), time, index -> seatThread);
    dispatcher.start();
    seatThread.runNext();
    retention = new Retention(dispatcher, conversations, time, IDLE, SWEEP);
    retention.start();
  }

  @AfterEach
  void close() {
    retention.close();
    dispatcher.close();
  }

  /** A managed conversation the player holds, last used {@code ago} before now. */
  private Conversation managed(String key, Duration ago) {
    String id = player.openConversation("managed " + key);
    Conversation c = new Conversation(key, ScriptedSeat.URL_PREFIX + id, Effort.HIGH, 2, "digest", 1,
        time.now().minus(ago).getEpochSecond(), Conversation.Status.READY, null, 10, 5, null);
    StoredConversations.store(conversations, c);
    return c;
  }

  private static TurnRequest chat(String text) {
    return TurnRequest.chat(new ChatInput(Effort.HIGH, List.of(Message.user(text)), List.of(), Optional.empty()));
  }

  @Test
  void onlyConversationsIdleThatLongAreDeletedAndOnlyWhenNoTurnWaits() {
    Conversation old = managed("old0000000000000", IDLE.plusDays(1));
    Conversation recent = managed("recent0000000000", IDLE.minusDays(1));
    Dispatcher.TurnHandle running = dispatcher.submit(chat("running"));
    Dispatcher.TurnHandle waiting = dispatcher.submit(chat("waiting"));

    time.advance(SWEEP);

    assertThat(seatThread.queued()).as("only the running turn is on the seat").isEqualTo(1);
    seatThread.runNext();
    assertThat(running.result()).isDone();
    assertThat(seatThread.queued()).isEqualTo(1);
    seatThread.runNext();
    assertThat(waiting.result()).as("the waiting turn went before the delete").isDone();
    assertThat(player.deleteRequests()).isEmpty();

    assertThat(seatThread.queued()).as("the queue is empty now: the delete starts").isEqualTo(1);
    seatThread.runNext();

    assertThat(player.deleted()).containsExactly(old.url());
    Conversation tombstone = conversations.current(old.sessionKey()).orElseThrow();
    assertThat(tombstone.status()).isEqualTo(Conversation.Status.DELETED);
    assertThat(tombstone.deletedAtEpochSecond()).isEqualTo(time.now().getEpochSecond());
    assertThat(conversations.current(recent.sessionKey()).orElseThrow().status()).isEqualTo(Conversation.Status.READY);

    time.advance(SWEEP);
    assertThat(seatThread.queued()).as("a tombstone is not deleted again").isZero();
    time.advance(Duration.ofDays(2));
    while (seatThread.queued() > 0) {
      seatThread.runNext();
    }
    assertThat(player.deleted()).as("the recent one once it is idle long enough").containsExactly(old.url(), recent.url());
  }

  @Test
  void aTurnThatArrivesBeforeTheDeleteStartsGoesFirst() {
    managed("old0000000000000", IDLE.plusDays(1));
    Dispatcher.TurnHandle running = dispatcher.submit(chat("running"));
    time.advance(SWEEP);
    seatThread.runNext();
    assertThat(running.result()).isDone();
    // the delete was started by the turn's end (the queue was empty); a later turn waits behind it
    Dispatcher.TurnHandle later = dispatcher.submit(chat("later"));
    assertThat(later.queuePosition()).isEqualTo(1);
    seatThread.runNext();
    assertThat(player.deleted()).hasSize(1);
    seatThread.runNext();
    assertThat(later.result()).isDone();
  }

  @Test
  void aSessionWithAQueuedTurnIsSkippedAndTriedAgainAtTheNextSweep() {
    Conversation old = managed("old0000000000000", IDLE.plusDays(1));
    dispatcher.runBetweenTurns(old.sessionKey(), seat -> "the session is busy"); // on the seat until run
    time.advance(SWEEP);
    seatThread.runNext(); // the session's own work ends
    assertThat(seatThread.queued()).as("the busy session was skipped, not queued behind it").isZero();
    assertThat(player.deleteRequests()).isEmpty();
    time.advance(SWEEP);
    seatThread.runNext();
    assertThat(player.deleted()).containsExactly(old.url());
  }
}

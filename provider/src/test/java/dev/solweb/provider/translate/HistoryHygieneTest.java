package dev.solweb.provider.translate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.solweb.provider.model.Effort;
import dev.solweb.provider.protocol.Reply;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Registry and planner for history hygiene: old files, tombstones and their bounds, temporary chats, places. */
class HistoryHygieneTest {
  private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-03-01T00:00:00Z"), ZoneOffset.UTC);

  @TempDir Path home;

  private static Conversation ready(String key, String url) {
    return new Conversation(key, url, Effort.HIGH, 2, "digest-" + key, 1, 1_700_000_000L, Conversation.Status.READY,
        null, 100, 20, null);
  }

  private static ChatTurn turn(String... userTexts) {
    List<Message> messages = new java.util.ArrayList<>();
    for (int i = 0; i < userTexts.length; i++) {
      if (i > 0) {
        messages.add(new Message(Message.Role.ASSISTANT, "answer " + i, List.of(), null));
      }
      messages.add(Message.user(userTexts[i]));
    }
    return ChatTurn.of(new ChatInput(Effort.HIGH, messages, List.of(), Optional.empty()));
  }

  /** Plans, marks and records one answered turn into {@code url}. */
  private static TurnPlan answered(Conversations conversations, ChatTurn turn, String url) {
    TurnPlan plan = conversations.plan(turn);
    conversations.sending(plan);
    long users = turn.messages().stream().filter(m -> m.role() == Message.Role.USER).count();
    // The answer the next turn's history carries after this user message (see turn()).
    conversations.record(plan, new TurnOutcome.Replied(new Reply.Final("answer " + users), url, 1, 0, 10, List.of()));
    return plan;
  }

  @Test
  void aRegistryFileWrittenBeforeTheHygieneFieldsLoadsWithDefaults() throws Exception {
    Path file = home.resolve("registry.json");
    Files.writeString(file, "[{\"session_key\":\"aaaaaaaaaaaaaaaa\",\"url\":\"https://chatgpt.com/c/abc\",\"effort\":\"HIGH\","
        + "\"delivered_count\":2,\"delivered_digest\":\"d1\",\"turns\":1,\"opened_at\":1700000000,\"status\":\"ready\","
        + "\"in_flight\":null,\"estimated_input\":10,\"estimated_output\":5},"
        + "{\"session_key\":\"bbbbbbbbbbbbbbbb\",\"url\":\"https://chatgpt.com/g/g-p-0f1e-my-work/c/def\",\"effort\":\"HIGH\","
        + "\"delivered_count\":2,\"delivered_digest\":\"d2\",\"turns\":3,\"opened_at\":1700000100,\"status\":\"uncertain\","
        + "\"in_flight\":null,\"estimated_input\":10,\"estimated_output\":5}]");

    Registry registry = Registry.persistent(file);

    assertThat(registry.size()).as("nothing set aside as corrupt").isEqualTo(2);
    Conversation plain = registry.get("aaaaaaaaaaaaaaaa").orElseThrow();
    assertThat(plain.lastUsedEpochSecond()).isEqualTo(1_700_000_000L);
    assertThat(plain.project()).isNull();
    assertThat(plain.temporary()).isFalse();
    assertThat(plain.deletedAtEpochSecond()).isZero();
    assertThat(plain.conversationId()).isEqualTo("abc");
    assertThat(registry.get("bbbbbbbbbbbbbbbb").orElseThrow().project()).isEqualTo("0f1e-my-work");
    assertThat(Files.exists(home.resolve("registry.json.corrupt"))).isFalse();
  }

  @Test
  void aTombstoneSurvivesAReloadAndIsNeverOverwrittenByItsOwnUrl() {
    Path file = home.resolve("registry.json");
    Registry registry = Registry.persistent(file);
    registry.put(ready("aaaaaaaaaaaaaaaa", "https://chatgpt.com/c/abc"));

    assertThat(registry.tombstone("aaaaaaaaaaaaaaaa", "https://chatgpt.com/c/other", 1_800_000_000L))
        .as("a newer conversation of the session is not tombstoned").isEmpty();
    Conversation tombstone = registry.tombstone("aaaaaaaaaaaaaaaa", "https://chatgpt.com/c/abc", 1_800_000_000L).orElseThrow();
    assertThat(registry.tombstone("aaaaaaaaaaaaaaaa", "https://chatgpt.com/c/abc", 1_900_000_000L)).isEmpty();

    registry.put(ready("aaaaaaaaaaaaaaaa", "https://chatgpt.com/c/abc"));
    Registry reloaded = Registry.persistent(file);

    assertThat(reloaded.get("aaaaaaaaaaaaaaaa")).contains(tombstone);
    assertThat(tombstone.status()).isEqualTo(Conversation.Status.DELETED);
    assertThat(tombstone.url()).isEqualTo("https://chatgpt.com/c/abc");
    assertThat(tombstone.deletedAtEpochSecond()).isEqualTo(1_800_000_000L);

    reloaded.put(ready("aaaaaaaaaaaaaaaa", "https://chatgpt.com/c/fresh"));
    assertThat(reloaded.get("aaaaaaaaaaaaaaaa").orElseThrow().status())
        .as("a fresh conversation of the session replaces the tombstone").isEqualTo(Conversation.Status.READY);
  }

  @Test
  void tombstonesAndLiveConversationsAreBoundedApart() {
    Registry registry = Registry.inMemory();
    for (int i = 0; i < 10; i++) {
      String key = String.format("t%015d", i);
      registry.put(ready(key, "https://chatgpt.com/c/t" + i));
      registry.tombstone(key, "https://chatgpt.com/c/t" + i, 1_800_000_000L + i);
    }
    for (int i = 0; i < Registry.MAX_CONVERSATIONS + 5; i++) {
      registry.put(ready(String.format("l%015d", i), "https://chatgpt.com/c/l" + i));
    }

    assertThat(registry.all().stream().filter(c -> c.status() == Conversation.Status.DELETED))
        .as("live entries never push out tombstones").hasSize(10);
    assertThat(registry.all().stream().filter(c -> c.status() == Conversation.Status.READY)).hasSize(Registry.MAX_CONVERSATIONS);
    assertThat(registry.get(String.format("l%015d", 4))).as("the oldest live ones went first").isEmpty();
    assertThat(registry.get(String.format("l%015d", 5))).isPresent();

    for (int i = 0; i < Registry.MAX_TOMBSTONES; i++) {
      String key = String.format("l%015d", i + 5);
      registry.tombstone(key, "https://chatgpt.com/c/l" + (i + 5), 1_900_000_000L);
    }

    assertThat(registry.all().stream().filter(c -> c.status() == Conversation.Status.DELETED)).hasSize(Registry.MAX_TOMBSTONES);
    assertThat(registry.get(String.format("t%015d", 0))).as("the oldest tombstones went first").isEmpty();
  }

  @Test
  void temporaryChatsExpireWhenADaemonLoadsThemAndASnapshotWritesNothing() throws Exception {
    Path file = home.resolve("registry.json");
    Registry before = Registry.persistent(file);
    before.put(ready("aaaaaaaaaaaaaaaa", "https://chatgpt.com/c/tmp").withTemporary(true));
    before.put(ready("bbbbbbbbbbbbbbbb", "https://chatgpt.com/c/kept"));
    String written = Files.readString(file);

    List<Conversation> seen = Registry.snapshot(file);

    assertThat(seen).filteredOn(c -> c.sessionKey().equals("aaaaaaaaaaaaaaaa"))
        .singleElement().satisfies(c -> assertThat(c.status()).isEqualTo(Conversation.Status.EXPIRED));
    assertThat(Files.readString(file)).as("a snapshot changes nothing").isEqualTo(written);

    Registry after = Registry.persistent(file);
    assertThat(after.get("aaaaaaaaaaaaaaaa").orElseThrow().status()).isEqualTo(Conversation.Status.EXPIRED);
    assertThat(after.get("bbbbbbbbbbbbbbbb").orElseThrow().status()).isEqualTo(Conversation.Status.READY);
    assertThat(Registry.persistent(file).get("aaaaaaaaaaaaaaaa").orElseThrow().status()).isEqualTo(Conversation.Status.EXPIRED);

    TurnPlan plan = new Conversations(after, CLOCK).plan(turnFor(after, "aaaaaaaaaaaaaaaa"));
    assertThat(plan).isInstanceOf(TurnPlan.Replay.class);
    assertThat(((TurnPlan.Replay) plan).why()).contains("expired");
  }

  /** A turn whose session key is {@code key}: the registry entry is re-keyed to the turn's own key. */
  private static ChatTurn turnFor(Registry registry, String key) {
    ChatTurn turn = turn("hello");
    Conversation c = registry.get(key).orElseThrow();
    registry.put(new Conversation(turn.sessionKey(), c.url(), c.effort(), c.deliveredCount(), c.deliveredDigest(),
        c.turns(), c.openedAtEpochSecond(), c.status(), null, c.estimatedInput(), c.estimatedOutput(), null,
        c.lastUsedEpochSecond(), null, c.temporary(), 0, null));
    return turn;
  }

  @Test
  void aTombstonedConversationIsNeverResumed() {
    Registry registry = Registry.inMemory();
    Conversations conversations = new Conversations(registry, CLOCK);
    ChatTurn first = turn("hello");
    answered(conversations, first, "https://chatgpt.com/c/abc");
    assertThat(conversations.plan(turn("hello", "more"))).as("before: a delta").isInstanceOf(TurnPlan.Deliver.class);

    registry.tombstone(first.sessionKey(), "https://chatgpt.com/c/abc", CLOCK.instant().getEpochSecond());
    TurnPlan next = conversations.plan(turn("hello", "more"));

    assertThat(next).isInstanceOf(TurnPlan.Replay.class);
    assertThat(((TurnPlan.Replay) next).why()).isEqualTo("the conversation is deleted");
    assertThat(next.text()).startsWith("PROTOCOL").contains("USER\nhello", "USER\nmore");
  }

  @Test
  void aConversationOutsideTheConfiguredProjectIsReplayedIntoOne() {
    Registry registry = Registry.inMemory();
    ChatTurn first = turn("hello");
    answered(new Conversations(registry, CLOCK), first, "https://chatgpt.com/c/abc");
    Conversations inProject = new Conversations(registry, CLOCK, new ConversationPlace.Project("My Work"));

    TurnPlan outside = inProject.plan(turn("hello", "more"));
    assertThat(outside).isInstanceOf(TurnPlan.Replay.class);
    assertThat(((TurnPlan.Replay) outside).why()).contains("not in the project My Work");

    answered(inProject, turn("hello", "more"), "https://chatgpt.com/g/g-p-0f1e2d-my-work/c/def");
    assertThat(registry.get(first.sessionKey()).orElseThrow().project()).isEqualTo("0f1e2d-my-work");
    assertThat(inProject.plan(turn("hello", "more", "again"))).isInstanceOf(TurnPlan.Deliver.class);

    Conversations byUrl = new Conversations(registry, CLOCK,
        new ConversationPlace.Project("https://chatgpt.com/g/g-p-0f1e2d-my-work/project"));
    assertThat(byUrl.plan(turn("hello", "more", "again"))).isInstanceOf(TurnPlan.Deliver.class);
    Conversations other = new Conversations(registry, CLOCK, new ConversationPlace.Project("Other"));
    TurnPlan elsewhere = other.plan(turn("hello", "more", "again"));
    assertThat(elsewhere).isInstanceOf(TurnPlan.Replay.class);
    assertThat(((TurnPlan.Replay) elsewhere).why()).contains("in the project 0f1e2d-my-work, not in Other");
  }

  @Test
  void temporaryModeMarksNewConversationsAndReplaysOnesFromTheHistory() {
    Registry registry = Registry.inMemory();
    ChatTurn first = turn("hello");
    answered(new Conversations(registry, CLOCK), first, "https://chatgpt.com/c/abc");
    Conversations temporary = new Conversations(registry, CLOCK, new ConversationPlace.Temporary());

    TurnPlan plan = temporary.plan(turn("hello", "more"));
    assertThat(plan).isInstanceOf(TurnPlan.Replay.class);
    assertThat(((TurnPlan.Replay) plan).why()).contains("not a temporary chat");

    answered(temporary, turn("hello", "more"), "https://chatgpt.com/c/tmp");
    Conversation entry = registry.get(first.sessionKey()).orElseThrow();
    assertThat(entry.temporary()).isTrue();
    assertThat(entry.lastUsedEpochSecond()).isEqualTo(CLOCK.instant().getEpochSecond());
    assertThat(temporary.plan(turn("hello", "more", "again"))).isInstanceOf(TurnPlan.Deliver.class);
  }
}

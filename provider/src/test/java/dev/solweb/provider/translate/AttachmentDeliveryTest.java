package dev.solweb.provider.translate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.solweb.provider.TestClock;
import dev.solweb.provider.model.Attachment;
import dev.solweb.provider.protocol.Reply;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * translate keeps a conversation's files: a delta uploads only the files its conversation does
 * not hold (by sha256), a replay re-attaches the newest ten and names the rest in a note, and the
 * registry remembers what each conversation holds, across a restart too.
 */
class AttachmentDeliveryTest {
  private static final String URL = "https://chat.invalid/c/files";

  @TempDir Path home;
  private final TestClock clock = new TestClock();

  private static Message user(String text, Attachment... files) {
    return new Message(Message.Role.USER, text, List.of(), null, List.of(files));
  }

  private static Attachment png(String name, int seed) {
    return TestFiles.pngAttachment(name, seed);
  }

  /** A history of {@code count} screenshots, one per user message, each answered, then {@code last}. */
  private static ChatTurn screens(int count, String last) {
    List<Message> history = new ArrayList<>();
    for (int i = 1; i <= count; i++) {
      history.add(user("screen " + i, png("screen-" + i + ".png", i)));
      history.add(ConversationsTest.assistant("seen " + i));
    }
    history.add(user(last));
    return ConversationsTest.turn(history.toArray(Message[]::new));
  }

  /** Plans {@code turn} and records a plain answer; returns the plan. */
  private static TurnPlan answered(Conversations conversations, ChatTurn turn, String answer) {
    TurnPlan plan = conversations.plan(turn);
    conversations.sending(plan);
    conversations.record(plan, new TurnOutcome.Replied(new Reply.Final(answer), URL, 1, 0, 5, List.of()));
    return plan;
  }

  @Test
  void aDeltaUploadsOnlyTheNewFilesAndNamesTheOnesTheConversationHolds() {
    Conversations conversations = Conversations.inMemory(clock);
    Attachment shot = png("shot.png", 1);
    Attachment second = png("second.png", 2);
    ChatTurn first = ConversationsTest.turn(user("what is broken here?", shot));
    TurnPlan opened = answered(conversations, first, "the button");

    // The client re-sends shot.png with its history, and again in its new message; only second.png is new.
    ChatTurn next = ConversationsTest.extend(first, ConversationsTest.assistant("the button"),
        user("and now?", second, png("shot.png", 1)));
    TurnPlan plan = conversations.plan(next);

    assertThat(opened.attachments()).extracting(Attachment::sha256).containsExactly(shot.sha256());
    assertThat(opened.text()).endsWith("USER\nwhat is broken here?\n[attached: shot.png]");
    assertThat(plan).isInstanceOf(TurnPlan.Deliver.class);
    assertThat(plan.attachments()).extracting(Attachment::sha256).containsExactly(second.sha256());
    assertThat(plan.text()).isEqualTo("USER\nand now?\n[attached: second.png]\n"
        + "[attached earlier in this conversation: shot.png]");
  }

  @Test
  void aFileSentTwiceInOneTurnIsUploadedOnce() {
    Conversations conversations = Conversations.inMemory(clock);
    Attachment shot = png("shot.png", 1);

    TurnPlan plan = conversations.plan(ConversationsTest.turn(user("one", shot), ConversationsTest.assistant("ok"),
        user("same again", png("shot.png", 1))));

    assertThat(plan.attachments()).extracting(Attachment::sha256).containsExactly(shot.sha256());
  }

  @Test
  void aReplayReattachesTheNewestTenAndANoteNamesTheOlderOnes() {
    Conversations conversations = Conversations.inMemory(clock);

    TurnPlan plan = conversations.plan(screens(12, "compare the last two"));

    assertThat(plan).isInstanceOf(TurnPlan.Replay.class);
    assertThat(plan.attachments()).extracting(Attachment::name)
        .containsExactly("screen-3.png", "screen-4.png", "screen-5.png", "screen-6.png", "screen-7.png", "screen-8.png",
            "screen-9.png", "screen-10.png", "screen-11.png", "screen-12.png");
    assertThat(plan.text()).contains("USER\nscreen 1\n[not attached: screen-1.png, see the NOTE]")
        .contains("USER\nscreen 12\n[attached: screen-12.png]")
        .endsWith("NOTE\nA message takes at most 10 files, so the 10 newest are attached and these 2 older ones are"
            + " not: screen-1.png, screen-2.png. Ask for any of them you still need.");
  }

  @Test
  void aFileAReplayLeftOutIsUploadedWhenALaterTurnSendsItAgain() {
    Conversations conversations = Conversations.inMemory(clock);
    ChatTurn replayed = screens(11, "go on");
    TurnPlan replay = answered(conversations, replayed, "going");

    TurnPlan plan = conversations.plan(ConversationsTest.extend(replayed, ConversationsTest.assistant("going"),
        user("look at the first one again", png("screen-1.png", 1)), user("and the last", png("screen-11.png", 11))));

    assertThat(replay.attachments()).extracting(Attachment::name).doesNotContain("screen-1.png").hasSize(10);
    assertThat(plan.attachments()).extracting(Attachment::name).containsExactly("screen-1.png");
    assertThat(plan.text()).contains("[attached: screen-1.png]")
        .contains("[attached earlier in this conversation: screen-11.png]");
  }

  @Test
  void theRegistryKeepsEachConversationsFilesByShaAndNameAcrossARestartAndNeverTheirBytes() throws Exception {
    Path file = home.resolve("registry.json");
    Attachment shot = png("shot.png", 7);
    ChatTurn first = ConversationsTest.turn(user("see", shot));
    answered(Conversations.persistent(file, clock), first, "seen");

    Conversations restarted = Conversations.persistent(file, clock);
    TurnPlan plan = restarted.plan(ConversationsTest.extend(first, ConversationsTest.assistant("seen"),
        user("again", png("shot.png", 7))));

    assertThat(plan).isInstanceOf(TurnPlan.Deliver.class);
    assertThat(plan.attachments()).isEmpty();
    assertThat(restarted.current(first.sessionKey()).orElseThrow().files())
        .containsExactly(new Conversation.HeldFile(shot.sha256(), "shot.png"));
    String onDisk = java.nio.file.Files.readString(file);
    assertThat(onDisk).contains(shot.sha256()).contains("shot.png")
        .doesNotContain(java.util.Base64.getEncoder().encodeToString(shot.bytes()).substring(0, 40));
  }

  @Test
  void anotherFileInTheSameHistoryIsAnotherHistory() {
    ChatTurn withOne = ConversationsTest.turn(user("see", png("shot.png", 1)));
    ChatTurn withOther = ConversationsTest.turn(user("see", png("shot.png", 2)));
    ChatTurn withNone = ConversationsTest.turn(user("see"));

    assertThat(withOne.historyDigest()).isNotEqualTo(withOther.historyDigest());
    assertThat(withOne.sessionKey()).isNotEqualTo(withOther.sessionKey());
    // A message without files digests as it did before files existed: recorded conversations stay valid.
    assertThat(withNone.historyDigest())
        .isEqualTo(SessionKey.sha256Hex("\n{\"role\":\"USER\",\"content\":\"see\",\"tool_call_id\":\"\",\"tool_calls\":[]}"));
    assertThat(withOne.messages().get(0)).isEqualTo(user("see", png("shot.png", 1)));
  }
}

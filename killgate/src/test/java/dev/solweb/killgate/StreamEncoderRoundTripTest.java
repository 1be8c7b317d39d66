package dev.solweb.killgate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.solweb.killgate.fakesol.StreamEncoder;
import dev.solweb.killgate.fakesol.StreamEncoder.Format;
import dev.solweb.provider.seat.playwright.traffic.ConversationStreamDecoder;
import dev.solweb.provider.seat.playwright.traffic.StreamEvent;
import dev.solweb.provider.seat.playwright.traffic.StreamTurn;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** fakesol's encoder through the seat's decoder: what fakesol sends is what the seat reads. */
class StreamEncoderRoundTripTest {

  /** The middle of fakesol's fake resume token: it must never surface in an event. */
  static final String TOKEN_PAYLOAD = "eyJmYWtlc29sIjoicmVzdW1lIn0";
  static final String MARKDOWN = "Here, w\u00f6rld \uD83D\uDE42:\n\n```json\n{\"tool\": \"final\", \"text\": \"done\"}\n```\n\nBye.";

  static StreamEncoder.Turn turn(Format format, int piece, List<StreamEncoder.Previous> resend, List<String> adjustments) {
    return new StreamEncoder.Turn(format, "c-42", resend.isEmpty(), "u-42", "hi", "a-42", "gpt-5-thinking", adjustments,
        MARKDOWN, 3.0, resend, piece);
  }

  static StreamTurn read(List<List<String>> bodies, int chunk) {
    StreamTurn t = new StreamTurn();
    for (List<String> body : bodies) {
      byte[] b = String.join("", body).getBytes(StandardCharsets.UTF_8);
      ConversationStreamDecoder d = new ConversationStreamDecoder();
      t.beginBody();
      for (int i = 0; i < b.length; i += chunk) {
        List<StreamEvent> events = d.feed(b, i, Math.min(chunk, b.length - i));
        assertThat(events.toString()).doesNotContain(TOKEN_PAYLOAD);
        t.accept(events);
      }
      t.accept(d.end());
    }
    return t;
  }


  @ParameterizedTest
  @EnumSource(Format.class)
  void aWholeBodyDecodesToTheScriptedAnswerInEitherFormat(Format format) {
    for (int piece : new int[] {1, 7, 10_000}) {
      for (int chunk : new int[] {1, 13, 1 << 20}) {
        StreamTurn t = read(List.of(StreamEncoder.body(turn(format, piece, List.of(), List.of()))), chunk);
        assertThat(t.complete()).as("piece %d chunk %d", piece, chunk).isTrue();
        assertThat(t.answerText()).contains(MARKDOWN);
        assertThat(t.conversationId()).isEqualTo("c-42");
        assertThat(t.modelSlug()).isEqualTo("gpt-5-thinking");
        assertThat(t.thinkingSeconds()).isEqualTo(3.0);
        assertThat(t.inputMessageId()).isEqualTo("u-42");
      }
    }
  }

  @ParameterizedTest
  @EnumSource(Format.class)
  void aFollowUpThatReSendsTheOldAnswerFirstYieldsOnlyTheNewOne(Format format) {
    StreamEncoder.Turn t = turn(format, 5, List.of(new StreamEncoder.Previous("a-41", "the old answer")),
        List.of("auto:smaller_model:reached_message_cap"));
    StreamTurn read = read(List.of(StreamEncoder.body(t)), 64);
    assertThat(read.complete()).isTrue();
    assertThat(read.answerMessageId()).contains("a-42");
    assertThat(read.answerText()).contains(MARKDOWN);
    assertThat(read.modelAdjustments()).containsExactly("auto:smaller_model:reached_message_cap");
  }

  @Test
  void aBodyCutBeforeItsFinishIsNotCompleteAndAResumeCompletesIt() {
    StreamEncoder.Turn t = turn(Format.V1, 4, List.of(), List.of());
    List<String> cut = new java.util.ArrayList<>(StreamEncoder.preamble(t));
    cut.addAll(StreamEncoder.answerUnfinished(t));
    StreamTurn dropped = read(List.of(cut), 50);
    assertThat(dropped.complete()).isFalse();
    assertThat(dropped.answerText()).contains(MARKDOWN);
    assertThat(read(List.of(cut, StreamEncoder.resumed(t)), 50).complete()).isTrue();
  }

  @Test
  void aHandoffBodyHasNoAnswerUntilTheSocketItemsArrive() {
    StreamEncoder.Turn t = turn(Format.V1, 4, List.of(), List.of());
    StreamTurn handed = read(List.of(StreamEncoder.handoff(t, "conversation-turn-a-42")), 50);
    assertThat(handed.complete()).isFalse();
    assertThat(handed.handoff()).extracting(StreamEvent.HandoffOption::topicId).containsOnly("conversation-turn-a-42");
    List<String> socket = new java.util.ArrayList<>(StreamEncoder.answer(t));
    socket.addAll(StreamEncoder.terminal(t));
    StreamTurn followed = read(List.of(StreamEncoder.handoff(t, "conversation-turn-a-42"), socket), 50);
    assertThat(followed.complete()).isTrue();
    assertThat(followed.answerText()).contains(MARKDOWN);
  }
}

package dev.solweb.provider.seat.playwright.traffic;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class HandoffFramesTest {

  static String item(String id, String sse) {
    return "{\"type\": \"message\", \"payload\": {\"topic_id\": \"conversation-turn-a-7\", \"payload\": {\"type\": \"conversation-turn-stream\", "
        + "\"stream_item_id\": \"" + id + "\", \"encoded_item\": " + com.fasterxml.jackson.databind.node.TextNode.valueOf(sse) + "}}}";
  }

  @Test
  void encodedItemsFeedTheDecoderRepeatsAreDroppedAndDoneEndsTheTopic() {
    HandoffFrames frames = new HandoffFrames();
    String add = "data: {\"p\": \"\", \"o\": \"add\", \"v\": {\"message\": {\"id\": \"a-7\", \"author\": {\"role\": \"assistant\"}, "
        + "\"content\": {\"content_type\": \"text\", \"parts\": [\"Pro \"]}, \"status\": \"in_progress\", \"channel\": \"final\", \"recipient\": \"all\"}, \"conversation_id\": \"c-7\"}}\n\n";
    String finish = "data: {\"p\": \"\", \"o\": \"patch\", \"v\": [{\"p\": \"/message/content/parts/0\", \"o\": \"append\", \"v\": \"answer\"}, "
        + "{\"p\": \"/message/status\", \"o\": \"replace\", \"v\": \"finished_successfully\"}, {\"p\": \"/message/end_turn\", \"o\": \"replace\", \"v\": true}]}";
    StreamTurn turn = new StreamTurn();
    ConversationStreamDecoder decoder = new ConversationStreamDecoder();
    turn.beginBody();
    for (String frame : new String[] {item("1", add), item("1", add), item("2", finish), "{\"type\": \"presence\"}", "not json",
        item("3", "data: {\"type\": \"message_stream_complete\", \"conversation_id\": \"c-7\"}\n\n"),
        "{\"payload\": {\"topic_id\": \"conversation-turn-a-7\", \"payload\": {\"type\": \"done\"}}}"}) {
      HandoffFrames.Item it = frames.read(frame);
      if (it instanceof HandoffFrames.Encoded e) {
        assertThat(e.topicId()).isEqualTo("conversation-turn-a-7");
        turn.accept(decoder.feed(e.sseText().getBytes(StandardCharsets.UTF_8)));
      } else if (it instanceof HandoffFrames.Finished f) {
        assertThat(f.topicId()).isEqualTo("conversation-turn-a-7");
        turn.accept(decoder.end());
      }
    }
    assertThat(turn.answerText()).as("the replayed first item counted once").contains("Pro answer");
    assertThat(turn.complete()).isTrue();
    assertThat(turn.conversationId()).isEqualTo("c-7");
  }

  @Test
  void framesOfNoTurnAreIgnored() {
    HandoffFrames frames = new HandoffFrames();
    assertThat(frames.read("{\"type\": \"ping\"}")).isInstanceOf(HandoffFrames.Ignored.class);
    assertThat(frames.read("")).isInstanceOf(HandoffFrames.Ignored.class);
    assertThat(frames.read("[1,2]")).isInstanceOf(HandoffFrames.Ignored.class);
  }
}

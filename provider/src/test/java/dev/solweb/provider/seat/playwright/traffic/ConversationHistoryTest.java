package dev.solweb.provider.seat.playwright.traffic;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The page's history JSON (REAL-PAGE row 18; shapes written here), both shapes, from its bytes. */
class ConversationHistoryTest {

  private static ConversationHistory decode(String json) {
    return ConversationHistory.decode(json.getBytes(StandardCharsets.UTF_8)).orElseThrow();
  }

  private static String message(String id, String role, String text, String status, boolean endTurn) {
    return """
        {"id": "%s", "author": {"role": "%s"}, "content": {"content_type": "text", "parts": ["%s"]}, "status": "%s",
         "end_turn": %s, "recipient": "all", "channel": %s, "metadata": {"model_slug": "gpt-5-6-thinking"}}"""
        .formatted(id, role, text, status, endTurn, role.equals("assistant") ? "\"final\"" : "null");
  }

  @Test
  void aFinishedAnswerAfterTheUserMessageIsTheAnswerItsCitationsRemoved() {
    ConversationHistory h = decode("""
        {"conversation_id": "c-1", "current_node": "a-2", "async_status": null, "page_info": {"has_more": false},
         "messages": [%s, %s, %s, %s]}""".formatted(
        message("u-1", "user", "first", "finished_successfully", false),
        message("a-1", "assistant", "old answer", "finished_successfully", true),
        message("u-2", "user", "second", "finished_successfully", false),
        message("a-2", "assistant", "new \uE200cite\uE202x\uE201answer 🙂", "finished_successfully", true)));
    assertThat(h.conversationId()).isEqualTo("c-1");
    assertThat(h.answerAfter("u-2")).isEqualTo(new ConversationHistory.Answered("a-2", "new answer 🙂", "gpt-5-6-thinking"));
    assertThat(h.answerAfter("u-1")).as("the answer before the next user message, not a later one")
        .isEqualTo(new ConversationHistory.Answered("a-1", "old answer", "gpt-5-6-thinking"));
  }

  @Test
  void anAnswerStillBeingWrittenOrAConversationStillStreamingIsWriting() {
    ConversationHistory partial = decode("""
        {"conversation_id": "c-1", "async_status": 3, "messages": [%s, %s]}""".formatted(
        message("u-1", "user", "q", "finished_successfully", false),
        message("a-1", "assistant", "half of it", "in_progress", false)));
    assertThat(partial.asyncStatus()).isEqualTo(ConversationHistory.STREAMING);
    assertThat(partial.answerAfter("u-1")).isInstanceOf(ConversationHistory.Writing.class);
    // Row 30: after a reload the current node can be a thoughts record while async_status says streaming.
    ConversationHistory thinking = decode("""
        {"async_status": 3, "current_node": "t-1", "messages": [%s,
          {"id": "t-1", "author": {"role": "assistant"}, "content": {"content_type": "thoughts"}, "status": "in_progress"}]}"""
        .formatted(message("u-1", "user", "q", "finished_successfully", false)));
    assertThat(thinking.answerAfter("u-1")).isInstanceOf(ConversationHistory.Writing.class);
  }

  @Test
  void noAnswerAfterTheMessageOrNoSuchMessageIsNothingToRecover() {
    ConversationHistory h = decode("""
        {"conversation_id": "c-1", "messages": [%s]}""".formatted(message("u-1", "user", "q", "finished_successfully", false)));
    assertThat(h.answerAfter("u-1")).isInstanceOf(ConversationHistory.Nothing.class);
    assertThat(h.answerAfter("u-404")).isInstanceOfSatisfying(ConversationHistory.Nothing.class,
        n -> assertThat(n.why()).contains("u-404"));
  }

  @Test
  void theOlderMappingShapeIsReadAlongTheCurrentNode() {
    ConversationHistory h = decode("""
        {"current_node": "a-2", "mapping": {
          "root": {"id": "root", "message": null, "parent": null, "children": ["u-1"]},
          "u-1": {"id": "u-1", "message": %s, "parent": "root", "children": ["a-1", "a-2"]},
          "a-1": {"id": "a-1", "message": %s, "parent": "u-1", "children": []},
          "a-2": {"id": "a-2", "message": %s, "parent": "u-1", "children": []}}}""".formatted(
        message("u-1", "user", "q", "finished_successfully", false),
        message("a-1", "assistant", "a regenerated sibling", "finished_successfully", true),
        message("a-2", "assistant", "the current one", "finished_successfully", true)));
    assertThat(h.messages()).extracting(ConversationHistory.Message::id).containsExactly("u-1", "a-2");
    assertThat(h.answerAfter("u-1")).isEqualTo(new ConversationHistory.Answered("a-2", "the current one", "gpt-5-6-thinking"));
  }

  @Test
  void anErrorBodyOrAnotherShapeIsNoHistory() {
    assertThat(ConversationHistory.decode("{\"detail\": {\"code\": \"conversation_not_found\"}}".getBytes(StandardCharsets.UTF_8)))
        .isEmpty();
    assertThat(ConversationHistory.decode("not json".getBytes(StandardCharsets.UTF_8))).isEmpty();
  }

  @Test
  void streamStatusReadsThePagesThreeStatesAndNothingElse() {
    assertThat(StreamStatus.decode(200, "{\"status\": \"IS_STREAMING\"}".getBytes(StandardCharsets.UTF_8)))
        .isEqualTo(StreamStatus.IS_STREAMING);
    assertThat(StreamStatus.decode(200, "{\"stream_status\": \"COMPLETE\"}".getBytes(StandardCharsets.UTF_8)))
        .isEqualTo(StreamStatus.COMPLETE);
    assertThat(StreamStatus.decode(200, "\"FAILURE\"".getBytes(StandardCharsets.UTF_8))).isEqualTo(StreamStatus.FAILURE);
    assertThat(StreamStatus.decode(404, "{\"status\": \"COMPLETE\"}".getBytes(StandardCharsets.UTF_8))).isEqualTo(StreamStatus.UNKNOWN);
    assertThat(StreamStatus.decode(200, "{\"status\": \"MAYBE\"}".getBytes(StandardCharsets.UTF_8))).isEqualTo(StreamStatus.UNKNOWN);
  }
}

package dev.solweb.provider.seat.playwright.traffic;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The page's request bodies (REAL-PAGE rows 17 and 31, shapes written here), decoded from their bytes. */
class ObservedRequestTest {

  private static final String PROMPT = "créer hello.txt 🙂 SECRET";

  private static byte[] bytes(String json) {
    return json.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void aTurnRequestNamesItsModelEffortUserMessageAndConversationAndNeverItsText() {
    String body = """
        {"action": "next", "messages": [{"id": "3f1c2a9e-1111-4222-8333-944455556666", "author": {"role": "user"},
          "create_time": 1760000000.123, "content": {"content_type": "text", "parts": ["%s"]},
          "metadata": {"attachments": [{"name": "plan.md"}]}}],
         "conversation_id": "6929a1b2-0c3d-8000-a1b2-c3d4e5f60718", "parent_message_id": "a-0",
         "model": "gpt-5-6-thinking", "thinking_effort": "extended", "supported_encodings": ["v1"],
         "client_prepare_state": "success", "conversation_mode": {"kind": "gizmo_interaction",
           "gizmo_id": "g-p-6929a1b20c3d8000a1b2c3d4e5f60718"}}""".formatted(PROMPT);
    ObservedRequest r = ObservedRequest.decode("/backend-api/f/conversation", bytes(body), 42).orElseThrow();
    assertThat(r.kind()).isEqualTo(ObservedRequest.Kind.TURN);
    assertThat(r.userMessageId()).isEqualTo("3f1c2a9e-1111-4222-8333-944455556666");
    assertThat(r.conversationId()).isEqualTo("6929a1b2-0c3d-8000-a1b2-c3d4e5f60718");
    assertThat(r.parentMessageId()).isEqualTo("a-0");
    assertThat(r.model()).isEqualTo("gpt-5-6-thinking");
    assertThat(r.thinkingEffort()).isEqualTo("extended");
    assertThat(r.prepareState()).isEqualTo("success");
    assertThat(r.gizmoId()).isEqualTo("g-p-6929a1b20c3d8000a1b2c3d4e5f60718");
    assertThat(r.temporary()).isFalse();
    assertThat(r.atMillis()).isEqualTo(42);
    assertThat(r.toString()).doesNotContain("SECRET").doesNotContain("plan.md");
  }

  @Test
  void aPrepareNamesTheEffortButItsPartialQueryIdIsNotTheMessageId() {
    String body = """
        {"action": "next", "model": "gpt-6-thinking", "thinking_effort": "max", "client_prepare_source": "composer_editor_state",
         "client_prepare_dispatch": "debounced", "client_prepare_state": "none",
         "partial_query": {"id": "draft-7", "author": {"role": "user"}, "content": {"content_type": "text", "parts": ["%s"]}}}"""
        .formatted(PROMPT);
    ObservedRequest r = ObservedRequest.decode(ObservedRequest.PREPARE_PATH, bytes(body), 0).orElseThrow();
    assertThat(r.kind()).isEqualTo(ObservedRequest.Kind.PREPARE);
    assertThat(r.userMessageId()).isNull();
    assertThat(r.prepareDispatch()).isEqualTo("debounced");
    assertThat(r.namesEffort()).isTrue();
    assertThat(r.effortWords()).isEqualTo("model gpt-6-thinking, thinking_effort max");
    assertThat(r.toString()).doesNotContain("SECRET").doesNotContain("draft-7");
  }

  @Test
  void anOlderPagesBareSiblingNamesNoEffortAndATemporaryChatSaysSo() {
    ObservedRequest bare = ObservedRequest.decode(ObservedRequest.PREPARE_PATH, bytes("{\"action\": \"next\"}"), 0).orElseThrow();
    assertThat(bare.namesEffort()).isFalse();
    assertThat(bare.effortWords()).isEqualTo("model (none), thinking_effort (none)");
    ObservedRequest temporary = ObservedRequest.decode("/backend-api/conversation",
        bytes("{\"messages\": [{\"id\": \"u\"}], \"history_and_training_disabled\": true}"), 0).orElseThrow();
    assertThat(temporary.temporary()).isTrue();
    assertThat(temporary.userMessageId()).isEqualTo("u");
  }

  @Test
  void whatIsNotAnObjectOrNotOneOfThePathsIsNothing() {
    assertThat(ObservedRequest.decode("/backend-api/f/conversation", bytes("not json"), 0)).isEmpty();
    assertThat(ObservedRequest.decode("/backend-api/f/conversation", bytes("[1, 2]"), 0)).isEmpty();
    assertThat(ObservedRequest.decode("/backend-api/f/conversation", null, 0)).isEmpty();
    assertThat(ObservedRequest.decode("/backend-api/f/conversation/resume", bytes("{}"), 0)).as("a resume is no new turn").isEmpty();
    assertThat(ObservedRequest.decode("/backend-api/f/conversationx", bytes("{}"), 0)).isEmpty();
    // A body cut in the middle of a multi-byte character is unreadable, not a crash.
    byte[] cut = java.util.Arrays.copyOf(bytes("{\"model\": \"🙂"), 12);
    assertThat(ObservedRequest.decode("/backend-api/f/conversation", cut, 0)).isEmpty();
  }
}

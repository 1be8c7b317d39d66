package dev.solweb.provider.seat.playwright.page;

import static org.assertj.core.api.Assertions.assertThat;

import dev.solweb.provider.model.Effort;
import dev.solweb.provider.seat.playwright.page.PageVerdicts.Verdict;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The page rules that need no browser: banners, URLs, labels. */
class ChatGptPageRulesTest {

  private final ChatGptPage page = new ChatGptPage(null, URI.create("https://chat.invalid/"));

  @Test
  void transientWebUrlsAreNeverDurable() {
    assertThat(page.durableUrl("https://chat.invalid/c/WEB:0b6f7d1e-1111-4222-8333-944455556666")).isEmpty();
    assertThat(page.durableUrl("https://chat.invalid/c/WEB%3A0b6f7d1e-1111-4222-8333-944455556666")).isEmpty();
    assertThat(page.durableUrl("https://chat.invalid/")).isEmpty();
    assertThat(page.durableUrl("https://chat.invalid/c/6929a1b2-0c3d-8000-a1b2-c3d4e5f60718?model=x#y"))
        .contains("https://chat.invalid/c/6929a1b2-0c3d-8000-a1b2-c3d4e5f60718");
    assertThat(page.durableUrl("https://chat.invalid/g/g-p-abc/c/6929a1b2-0c3d-8000")).contains("https://chat.invalid/g/g-p-abc/c/6929a1b2-0c3d-8000");
  }

  @Test
  void otherOriginsAreNeverManaged() {
    assertThat(page.durableUrl("https://evil.example/c/6929a1b2-0c3d-8000-a1b2")).isEmpty();
    assertThat(page.durableUrl("http://chat.invalid/c/6929a1b2-0c3d-8000-a1b2")).isEmpty();
  }

  @Test
  void bannersAreClassifiedByOneTable() {
    assertThat(PageVerdicts.verdict("You've reached our limit of messages per 3 hours.")).isEqualTo(Verdict.CAP);
    assertThat(PageVerdicts.verdict("You've hit the Free plan limit for GPT-5. Responses will use another model until your limit resets after 4:04 PM."))
        .isEqualTo(Verdict.CAP_DOWNGRADE);
    assertThat(PageVerdicts.verdict("The message you submitted was too long, please reload the conversation and submit something shorter."))
        .isEqualTo(Verdict.TOO_LONG);
    assertThat(PageVerdicts.verdict("Something went wrong. If this issue persists please contact us.")).isEqualTo(Verdict.ERROR);
    assertThat(PageVerdicts.verdict("Unable to load conversation 1234")).isEqualTo(Verdict.MISSING);
    assertThat(PageVerdicts.verdict("Copied!")).isEqualTo(Verdict.OTHER);
  }

  @Test
  void theRealPageTextsOfRows7And8AreClassified() {
    // REAL-PAGE row 7: a feature cap blocks uploads only, so it is no fault for a text turn.
    String featureCap = "Files, images, and data analysis are unavailable until usage resets at 3:42 PM";
    assertThat(PageVerdicts.verdict(featureCap)).isEqualTo(Verdict.FEATURE_CAP);
    assertThat(Verdict.FEATURE_CAP.fault()).isFalse();
    assertThat(PageVerdicts.verdict("ChatGPT is at capacity right now")).isEqualTo(Verdict.CAPACITY);
    assertThat(PageVerdicts.verdict("We're experiencing high demand. Please try again soon.")).isEqualTo(Verdict.CAPACITY);
    assertThat(PageVerdicts.verdict("Unusual activity has been detected from your device. Try again later.")).isEqualTo(Verdict.UNUSUAL_ACTIVITY);
    // Row 8, in the assistant message's .text-token-text-error.
    assertThat(PageVerdicts.verdict("You've reached the maximum length for this conversation, but you can keep talking by starting a new chat."))
        .isEqualTo(Verdict.CONVERSATION_FULL);
  }

  /** Rows 19, 29 and 30: phases that are not the end, a structured question that is not an answer, the terminal texts. */
  @Test
  void interruptedAndSafetyReviewAreNoEndsAndAStructuredQuestionIsNoAnswer() {
    assertThat(PageVerdicts.verdict("Connection interrupted. Waiting for the complete answer")).isEqualTo(Verdict.INTERRUPTED);
    assertThat(Verdict.INTERRUPTED.kind()).isNull();
    assertThat(PageVerdicts.verdict("Наши системы выполняют дополнительную обработку…")).isEqualTo(Verdict.REVIEWING);
    assertThat(Verdict.REVIEWING.kind()).isNull();
    assertThat(Verdict.REVIEWING.fault()).isFalse();
    assertThat(PageVerdicts.verdict("Waiting for your answer")).isEqualTo(Verdict.QUESTION);
    assertThat(PageVerdicts.verdict("Ожидание вашего ответа")).isEqualTo(Verdict.QUESTION);
    assertThat(Verdict.QUESTION.detail("Waiting for your answer", true)).contains("structured question").endsWith("nothing was resent");
    for (String terminal : List.of("Resume stream unavailable", "Error in message stream", "Stream cache expired",
        "Stream recovery polling timed out", "Message delivery timed out. Please try again",
        "A network error occurred. Please check your connection and try again.")) {
      assertThat(PageVerdicts.verdict(terminal)).as(terminal).isEqualTo(Verdict.ERROR);
    }
  }

  /** Row 20: the page's own error codes, each to its typed failure. */
  @Test
  void thePagesErrorCodesMapToTheirVerdicts() {
    assertThat(PageVerdicts.byCode("conversation_too_large")).contains(Verdict.CONVERSATION_FULL);
    assertThat(Verdict.CONVERSATION_FULL.kind()).isEqualTo(dev.solweb.provider.failure.ProviderFailure.Kind.CONTEXT_OVERFLOW);
    assertThat(Verdict.CONVERSATION_FULL.retiresConversation()).isTrue();
    assertThat(PageVerdicts.byCode("model_cap_exceeded")).contains(Verdict.CAP);
    for (String gone : List.of("conversation_not_found", "conversation_deleted", "history_disabled_conversation_not_found",
        "history_disabled_conversation_expired")) {
      assertThat(PageVerdicts.byCode(gone)).as(gone).contains(Verdict.MISSING);
    }
    assertThat(PageVerdicts.byCode("rate_limited")).isEmpty();
    assertThat(PageVerdicts.byCode(null)).isEmpty();
  }

  @Test
  void effortLabelsMapInBothLocalesAndNothingElseMaps() {
    assertThat(EffortLabels.effort("Extra High")).contains(Effort.XHIGH);
    assertThat(EffortLabels.effort(" high ")).contains(Effort.HIGH);
    assertThat(EffortLabels.effort("Высокий")).contains(Effort.HIGH);
    assertThat(EffortLabels.effort("Средний")).contains(Effort.MEDIUM);
    assertThat(EffortLabels.effort("Instant")).contains(Effort.INSTANT);
    assertThat(EffortLabels.effort("Instant5.5")).isEmpty();
    assertThat(EffortLabels.effort("Thinking effort")).isEmpty();
    assertThat(EffortLabels.effort("GPT-5.6 Sol")).isEmpty();
    for (Effort e : Effort.values()) {
      assertThat(EffortLabels.effort(EffortLabels.label(e, "ru"))).contains(e);
      assertThat(EffortLabels.effort(EffortLabels.label(e, "en"))).contains(e);
    }
  }

  @Test
  void statusLinesAreNotAnswerText() {
    assertThat(ChatGptPage.withoutStatusLines("Thinking\nThe answer")).isEqualTo("The answer");
    assertThat(ChatGptPage.withoutStatusLines("Думаю…\nОтвет")).isEqualTo("Ответ");
    assertThat(ChatGptPage.withoutStatusLines("Thinking about it, yes.")).isEqualTo("Thinking about it, yes.");
  }

  @Test
  void theLate2026TextsOfRows19To21And29AreClassified() {
    // Row 19: a recovering connection and a safety review are live work, not the end; row 30's "Resume
    // stream unavailable" is the end.
    assertThat(PageVerdicts.verdict("Connection interrupted. Waiting for the complete answer")).isEqualTo(Verdict.INTERRUPTED);
    assertThat(PageVerdicts.verdict("Наши системы выполняют дополнительную обработку…")).isEqualTo(Verdict.REVIEWING);
    assertThat(Verdict.INTERRUPTED.kind()).isNull();
    assertThat(Verdict.INTERRUPTED.working()).isTrue();
    assertThat(Verdict.REVIEWING.working()).isTrue();
    assertThat(PageVerdicts.verdict("Resume stream unavailable")).isEqualTo(Verdict.ERROR);
    assertThat(PageVerdicts.verdict("Stream recovery polling timed out")).isEqualTo(Verdict.ERROR);
    // Row 29: a structured question fails the turn that asked, unavailable; the model has not answered.
    assertThat(PageVerdicts.verdict("Ожидание вашего ответа")).isEqualTo(Verdict.QUESTION);
    assertThat(Verdict.QUESTION.kind()).isEqualTo(dev.solweb.provider.failure.ProviderFailure.Kind.UNAVAILABLE);
    assertThat(Verdict.QUESTION.detail("Waiting for your answer", true)).contains("has not answered", "nothing was resent");
    // Row 20's Russian text of a full conversation.
    assertThat(PageVerdicts.verdict("Вы достигли максимальной длины этого обсуждения, но можете продолжить обсуждение, начав новый чат."))
        .isEqualTo(Verdict.CONVERSATION_FULL);
    assertThat(PageVerdicts.verdict("Conversation not found")).isEqualTo(Verdict.MISSING);
  }

  @Test
  void octobersVeryHighIsExtraHigh() {
    assertThat(EffortLabels.effort("Very High")).contains(Effort.XHIGH);
    assertThat(EffortLabels.effort("Очень высокий")).contains(Effort.XHIGH);
  }
}

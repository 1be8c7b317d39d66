package dev.solweb.provider.seat.playwright.traffic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.failure.ProviderFailure.Kind;
import dev.solweb.provider.model.Effort;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class StreamVerdictsTest {

  static final Instant NOW = Instant.parse("2026-10-01T12:00:00Z");

  static StreamTurn turn(String body) {
    StreamTurn t = new StreamTurn();
    ConversationStreamDecoder d = new ConversationStreamDecoder();
    t.accept(d.feed(body.getBytes(StandardCharsets.UTF_8)));
    t.accept(d.end());
    return t;
  }

  @Test
  void a429IsCappedUntilClearsInAndWithoutItAnEstimate() {
    ProviderFailure f = StreamVerdicts.httpFailure(new PageStream.HttpError("/backend-api/f/conversation", 429,
        "{\"detail\": {\"message\": \"Too many requests\", \"clears_in\": 120}}"), NOW);
    assertThat(f.kind()).isEqualTo(Kind.CAPPED);
    assertThat(f.resumeAt()).isEqualTo("2026-10-01T12:02:00Z");
    assertThat(f.detail()).contains("Too many requests");
    ProviderFailure g = StreamVerdicts.httpFailure(new PageStream.HttpError("/backend-api/f/conversation", 429, "not json"), NOW);
    assertThat(g.resumeAt()).isEqualTo("2026-10-01T13:00:00Z");
    assertThat(g.detail()).contains("estimate");
  }

  /** Row 51's cap codes in a stream error frame: capped until the page's own counter at zero resets (row 50). */
  @Test
  void aCapCodeInTheStreamIsCappedUntilTheModelsCounterResets() {
    StreamTurn coded = turn("data: {\"type\": \"error\", \"error\": {\"code\": \"model_cap_exceeded\", \"message\": \"cap\"}}\n\n"
        + "data: {\"type\": \"conversation_detail_metadata\", \"limits_progress\": [{\"feature_name\": \"deep_research\", \"remaining\": 3}],"
        + " \"model_limits\": [{\"model_slug\": \"gpt-5-6-pro\", \"remaining\": 0, \"reset_after\": \"2026-10-03T08:00:00+00:00\"}]}\n\n");
    assertThat(coded.errorCodes()).containsExactly("model_cap_exceeded");
    assertThat(dev.solweb.provider.seat.playwright.page.PageVerdicts.byCode("work_usage_limit_exceeded").orElseThrow().cap())
        .isTrue();
    ProviderFailure f = StreamVerdicts.codedCap(coded, "model_cap_exceeded", NOW);
    assertThat(f.kind()).isEqualTo(Kind.CAPPED);
    assertThat(f.resumeAt()).isEqualTo("2026-10-03T08:00:00Z");
    assertThat(f.detail()).contains("model_cap_exceeded").doesNotContain("estimate");
    ProviderFailure bare = StreamVerdicts.codedCap(turn("data: {\"type\": \"error\", \"error\": {\"code\":"
        + " \"work_usage_limit_exceeded\"}}\n\n"), "work_usage_limit_exceeded", NOW);
    assertThat(bare.resumeAt()).isEqualTo("2026-10-01T13:00:00Z");
    assertThat(bare.detail()).contains("estimate");
  }

  @Test
  void a403UnusualActivityIsUnavailableAndSaysAPersonMustLook() {
    ProviderFailure f = StreamVerdicts.httpFailure(new PageStream.HttpError("/backend-api/f/conversation", 403,
        "{\"detail\": \"Unusual activity has been detected from your device. Try again later.\"}"), NOW);
    assertThat(f.kind()).isEqualTo(Kind.UNAVAILABLE);
    assertThat(f.detail()).contains("Unusual activity").contains("a person must check");
    assertThat(StreamVerdicts.httpFailure(new PageStream.HttpError("/p", 403, "<html>Just a moment</html>"), NOW).detail())
        .contains("Cloudflare");
    assertThat(StreamVerdicts.httpFailure(new PageStream.HttpError("/p", 500, "{}"), NOW).kind()).isEqualTo(Kind.UNAVAILABLE);
  }

  @Test
  void streamErrorsAndModelLimitsAtZeroAreTypedButAFeatureLimitIsNot() {
    StreamTurn capText = turn("data: {\"message\": null, \"error\": \"You've reached our limit of messages per 3 hours.\"}\n\n"
        + "data: {\"type\": \"conversation_detail_metadata\", \"limits_progress\": [{\"feature_name\": \"gpt-5-thinking\", \"remaining\": 0, \"reset_after\": \"2026-10-01T15:00:00+00:00\"}]}\n\n");
    ProviderFailure f = StreamVerdicts.streamFailure(capText, NOW).orElseThrow();
    assertThat(f.kind()).isEqualTo(Kind.CAPPED);
    assertThat(f.resumeAt()).isEqualTo("2026-10-01T15:00:00Z");

    StreamTurn other = turn("data: {\"message\": null, \"error\": \"Something went wrong while generating the response.\"}\n\n");
    assertThat(StreamVerdicts.streamFailure(other, NOW).orElseThrow().kind()).isEqualTo(Kind.UNAVAILABLE);

    StreamTurn model = turn("data: {\"type\": \"conversation_detail_metadata\", \"limits_progress\": [{\"feature_name\": \"gpt-5-thinking\", \"remaining\": 0}]}\n\n");
    assertThat(StreamVerdicts.streamFailure(model, NOW).orElseThrow().resumeAt()).isEqualTo("2026-10-01T13:00:00Z");

    StreamTurn feature = turn("data: {\"type\": \"conversation_detail_metadata\", \"limits_progress\": [{\"feature_name\": \"deep_research\", \"remaining\": 0}]}\n\n");
    assertThat(StreamVerdicts.streamFailure(feature, NOW)).isEmpty();
  }

  @Test
  void aCompleteAnswerIsNeverAFailureWhateverTheLimitsSay() {
    String body = ConversationStreamDecoderTest.V1_NEW_CHAT.replace("\"remaining\": 25", "\"remaining\": 0")
        .replace("deep_research", "gpt-5-6-thinking");
    StreamTurn t = turn(body);
    assertThat(t.complete()).isTrue();
    assertThat(StreamVerdicts.streamFailure(t, NOW)).isEmpty();
  }

  @Test
  void modelAdjustmentsOrALowerSlugAreADowngrade() {
    assertThat(StreamVerdicts.downgrade(Effort.HIGH, "gpt-5-6-thinking", List.of("auto:smaller_model:reached_message_cap")))
        .hasValueSatisfying(s -> assertThat(s).contains("reached_message_cap"));
    assertThat(StreamVerdicts.downgrade(Effort.HIGH, "gpt-5-6-mini", List.of())).isPresent();
    assertThat(StreamVerdicts.downgrade(Effort.PRO, "gpt-5-6-thinking", List.of())).isPresent();
    assertThat(StreamVerdicts.downgrade(Effort.HIGH, "gpt-5-6-thinking", List.of())).isEmpty();
    assertThat(StreamVerdicts.downgrade(Effort.HIGH, null, List.of())).isEmpty();
  }

  @Test
  void anHttpErrorBodyNamesItsCodeAndTheCodeItsVerdict() {
    PageStream.HttpError gone = new PageStream.HttpError("/backend-api/f/conversation", 404,
        "{\"detail\": {\"message\": \"Conversation not found\", \"code\": \"conversation_not_found\"}}");
    assertThat(StreamVerdicts.codeOf(gone)).contains(dev.solweb.provider.seat.playwright.page.PageVerdicts.Verdict.MISSING);
    PageStream.HttpError large = new PageStream.HttpError("/backend-api/f/conversation", 400, "{\"code\": \"conversation_too_large\"}");
    assertThat(StreamVerdicts.codeOf(large)).contains(dev.solweb.provider.seat.playwright.page.PageVerdicts.Verdict.CONVERSATION_FULL);
    assertThat(StreamVerdicts.codeOf(new PageStream.HttpError("/x", 500, "Internal Server Error"))).isEmpty();
  }
}

package dev.solweb.provider.failure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.solweb.provider.failure.ProviderFailure.Kind;
import dev.solweb.provider.translate.ContextBudget;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class ProviderFailureTest {
  private static final Instant NOW = Instant.parse("2026-11-30T17:00:00Z");
  private static final Instant RESUME = Instant.parse("2026-11-30T19:30:00Z");

  /** Pi's overflow test (PI-FACTS.md §5): these patterns, and no rate-limit wording. */
  private static final Pattern PI_OVERFLOW = Pattern.compile(
      "exceeds the context window|prompt is too long|context[_ ]length[_ ]exceeded|too many tokens",
      Pattern.CASE_INSENSITIVE);

  private static boolean piReadsAsOverflow(String text) {
    String lower = text.toLowerCase(Locale.ROOT);
    return PI_OVERFLOW.matcher(text).find() && !lower.contains("rate limit") && !lower.contains("too many requests");
  }

  @Test
  void compactJsonHasTheFixedFieldOrder() {
    ProviderFailure capped = ProviderFailure.capped("usage cap reached", RESUME, NOW);

    assertThat(capped.toJson()).isEqualTo("{\"kind\":\"capped\",\"detail\":\"usage cap reached\","
        + "\"retry_after_seconds\":9000,\"resume_at\":\"2026-11-30T19:30:00Z\"}");
  }

  @Test
  void compactJsonOmitsNullFields() {
    assertThat(ProviderFailure.of(Kind.PROTOCOL, "bad reply").toJson())
        .isEqualTo("{\"kind\":\"protocol\",\"detail\":\"bad reply\"}");
    assertThat(ProviderFailure.of(Kind.CONTEXT_OVERFLOW, "x").toJson())
        .isEqualTo("{\"kind\":\"context_overflow\",\"detail\":\"x\"}");
  }

  @Test
  void fromJsonReadsBackWhatToJsonWrote() throws Exception {
    List<ProviderFailure> failures = new ArrayList<>();
    failures.add(ProviderFailure.capped("cap \"quoted\" ünïcode", RESUME, NOW));
    for (Kind kind : Kind.values()) {
      failures.add(ProviderFailure.of(kind, "detail of " + kind));
    }

    for (ProviderFailure failure : failures) {
      assertThat(ProviderFailure.fromJson(failure.toJson())).isEqualTo(failure);
    }
  }

  @Test
  void messageIsKindColonDetailWithResumeAtWhenKnown() {
    assertThat(ProviderFailure.capped("usage cap reached", RESUME, NOW).message())
        .isEqualTo("capped: usage cap reached resume_at=2026-11-30T19:30:00Z");
    assertThat(ProviderFailure.of(Kind.TIMEOUT, "the turn took longer than 300 s").message())
        .isEqualTo("timeout: the turn took longer than 300 s");
  }

  @Test
  void cappedRetryAfterIsAtLeastOneSecondAndAgesWithTheClock() {
    ProviderFailure capped = ProviderFailure.capped("cap", RESUME, NOW);

    assertThat(capped.at(NOW.plusSeconds(1000)).retryAfterSeconds()).isEqualTo(8000);
    assertThat(capped.at(RESUME.plusSeconds(60)).retryAfterSeconds()).isEqualTo(1);
    assertThat(ProviderFailure.of(Kind.UNAVAILABLE, "x").at(NOW)).isEqualTo(ProviderFailure.of(Kind.UNAVAILABLE, "x"));
  }

  @Test
  void httpStatusesPerKind() {
    assertThat(Kind.CAPPED.httpStatus()).isEqualTo(429);
    assertThat(Kind.UNAVAILABLE.httpStatus()).isEqualTo(503);
    assertThat(Kind.PROTOCOL.httpStatus()).isEqualTo(502);
    assertThat(Kind.CONTEXT_OVERFLOW.httpStatus()).isEqualTo(400);
    assertThat(Kind.TIMEOUT.httpStatus()).isEqualTo(504);
    assertThat(Kind.CANCELLED.httpStatus()).isEqualTo(499);
  }

  @Test
  void noNonOverflowFailureReadsAsOverflowToPi() {
    // The details the daemon actually produces (seat, dispatcher, turn), one per site.
    List<ProviderFailure> failures = List.of(
        ProviderFailure.capped("usage cap reached (You've hit the Plus plan limit for GPT-5)", RESUME, NOW),
        ProviderFailure.capped("usage cap reached (banner; reset time not shown, assuming 1 h)", RESUME, NOW),
        ProviderFailure.of(Kind.UNAVAILABLE, "logged out: login wall, no composer"),
        ProviderFailure.of(Kind.UNAVAILABLE, "Cloudflare challenge page"),
        ProviderFailure.of(Kind.UNAVAILABLE, "ChatGPT showed \"Something went wrong\"; Retry was not clicked"),
        ProviderFailure.of(Kind.UNAVAILABLE, "no browser seat is alive: seat 0 crashed"),
        ProviderFailure.of(Kind.UNAVAILABLE, "solwebd is shutting down"),
        ProviderFailure.of(Kind.UNAVAILABLE, "the effort control reads \"Medium\" but the request asked for "
            + "sol-web-high (\"High\"); refusing to send under another effort"),
        ProviderFailure.of(Kind.UNAVAILABLE, "browser connection lost; the turn may have reached ChatGPT and is not "
            + "resent; the seat was rebuilt"),
        ProviderFailure.of(Kind.PROTOCOL, "the model broke the reply protocol twice; after one correction: "
            + "the reply had 2 code blocks; exactly one is allowed"),
        ProviderFailure.of(Kind.TIMEOUT, "the turn took longer than 300 s (SOLWEBD_TURN_TIMEOUT); Stop was clicked"),
        ProviderFailure.of(Kind.CANCELLED, "the client disconnected"),
        ProviderFailure.of(Kind.CANCELLED, "Stop clicked; the turn was cancelled"));

    for (ProviderFailure failure : failures) {
      assertThat(failure.kind()).isNotEqualTo(Kind.CONTEXT_OVERFLOW);
      // Pi sees the message and, appended, the compact JSON (PI-FACTS.md §4).
      String piText = failure.kind().httpStatus() + " " + failure.message() + " " + failure.toJson();
      assertThat(piReadsAsOverflow(piText)).as("Pi would compact on: %s", piText).isFalse();
    }
  }

  @Test
  void contextBudgetOverflowsReadAsOverflowToPi() {
    ProviderFailure window = ContextBudget.check(100_000, 0, 10_000, 0).orElseThrow();
    ProviderFailure mandatory = ContextBudget.check(0, 0, 110_000, 110_000).orElseThrow();

    for (ProviderFailure failure : List.of(window, mandatory)) {
      assertThat(failure.kind()).isEqualTo(Kind.CONTEXT_OVERFLOW);
      assertThat(piReadsAsOverflow(failure.message())).as(failure.message()).isTrue();
    }
  }

  @Test
  void thePatternCheckItselfRecognisesOverflowAndRateLimitWording() {
    assertThat(piReadsAsOverflow("400 Your input exceeds the context window of this model")).isTrue();
    assertThat(piReadsAsOverflow("context_length_exceeded")).isTrue();
    assertThat(piReadsAsOverflow("too many tokens, rate limit")).isFalse();
  }
}

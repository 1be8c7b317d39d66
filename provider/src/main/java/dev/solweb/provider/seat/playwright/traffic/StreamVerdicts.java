package dev.solweb.provider.seat.playwright.traffic;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.solweb.provider.failure.ProviderFailure.Kind;
import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.platform.Json;
import dev.solweb.provider.seat.playwright.page.PageVerdicts.Verdict;
import dev.solweb.provider.seat.playwright.page.PageVerdicts;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What the page's stream means for a turn, apart from the page: which HTTP error answers and
 * stream frames are typed failures (../shared/CHATGPT-STREAM.md "Errors"), and whether the model
 * that answered is a downgrade. Pure: the seat hands it what {@link PageStream} gathered.
 */
public final class StreamVerdicts {

  /** A 429 that names no time: the cap is assumed to last this long (as for a banner without one). */
  static final Duration CAP_ESTIMATE = Duration.ofHours(1);

  private StreamVerdicts() {}

  /**
   * The failure an HTTP error on the turn path means: 429 is {@code capped} (until {@code clears_in}
   * from now, else an estimate), 403 "unusual activity" or a Cloudflare 403 is {@code unavailable}
   * (a person must look), anything else {@code unavailable}. Always after Send: nothing is resent.
   */
  public static ProviderFailure httpFailure(PageStream.HttpError e, Instant now) {
    JsonNode body = parse(e.body());
    JsonNode detail = body.path("detail");
    String message = detail.isTextual() ? detail.asText()
        : detail.path("message").isTextual() ? detail.path("message").asText()
        : body.path("message").isTextual() ? body.path("message").asText() : clip(e.body());
    if (e.status() == 429) {
      JsonNode clears = detail.path("clears_in").isNumber() ? detail.path("clears_in") : body.path("clears_in");
      Instant resume = clears.isNumber() ? now.plusSeconds(Math.max(1, clears.asLong())) : now.plus(CAP_ESTIMATE);
      return ProviderFailure.capped("ChatGPT answered HTTP 429: " + message
          + (clears.isNumber() ? "" : "; it named no reset time, resume_at is an estimate"), resume, now);
    }
    if (e.status() == 403) {
      String why = message.toLowerCase(Locale.ROOT).contains("unusual activity")
          ? "ChatGPT refused the turn (HTTP 403): " + message + "; a person must check the account in the seat's browser"
          : "ChatGPT refused the turn (HTTP 403, likely a Cloudflare check): " + message;
      return ProviderFailure.of(Kind.UNAVAILABLE, why + "; nothing was resent");
    }
    return ProviderFailure.of(Kind.UNAVAILABLE, "ChatGPT answered HTTP " + e.status() + " to the turn: " + message
        + "; nothing was resent");
  }

  /** Row 53: the turn's 403 says "unusual activity" (the account, not the turn, is in question). */
  public static boolean unusualActivity(PageStream.HttpError e) {
    return e.status() == 403 && e.body() != null && e.body().toLowerCase(Locale.ROOT).contains("unusual activity");
  }

  /** The page's own error code of an HTTP error body ({@code detail.code}, or {@code code}), with its verdict (row 20). */
  public static Optional<Verdict> codeOf(PageStream.HttpError e) {
    JsonNode body = parse(e.body());
    JsonNode code = body.path("detail").path("code").isTextual() ? body.path("detail").path("code") : body.path("code");
    return code.isTextual() ? PageVerdicts.byCode(code.asText()) : Optional.empty();
  }

  /**
   * The failure the stream itself reports for a turn that did NOT complete: an error frame (a cap
   * text is {@code capped}), or a limit at zero (capped until its {@code reset_after}).
   */
  public static Optional<ProviderFailure> streamFailure(StreamTurn turn, Instant now) {
    if (turn.complete()) {
      return Optional.empty();
    }
    for (String error : turn.errors()) {
      Verdict kind = PageVerdicts.verdict(error);
      if (kind == Verdict.CAP || kind == Verdict.CAP_DOWNGRADE) {
        return Optional.of(ProviderFailure.capped("usage cap (stream): " + clip(error), limitReset(turn, now)
            .orElse(now.plus(CAP_ESTIMATE)), now));
      }
      return Optional.of(ProviderFailure.of(Kind.UNAVAILABLE, "the stream reported an error: \"" + clip(error)
          + "\"; Retry was not clicked and nothing was resent"));
    }
    for (StreamEvent.Limit l : turn.limits()) {
      if (l.remaining() != null && l.remaining() == 0 && isTextLimit(l, turn)) {
        return Optional.of(ProviderFailure.capped("usage cap (stream): no " + l.feature() + " messages left",
            parseTime(l.resetAfter()).orElse(now.plus(CAP_ESTIMATE)), now));
      }
    }
    return Optional.empty();
  }

  /** A limit on a feature (deep research, images) does not stop text turns; one on the model does. */
  private static boolean isTextLimit(StreamEvent.Limit l, StreamTurn turn) {
    String f = l.feature() == null ? "" : l.feature().toLowerCase(Locale.ROOT);
    String slug = turn.modelSlug() == null ? "" : turn.modelSlug().toLowerCase(Locale.ROOT);
    return f.startsWith("gpt") || f.contains("message") || (!slug.isEmpty() && f.equals(slug));
  }

  /** The first future reset of a counter at zero: a feature's ({@code limits_progress}) or a model's ({@code model_limits}). */
  private static Optional<Instant> limitReset(StreamTurn turn, Instant now) {
    Optional<Instant> feature = turn.limits().stream().filter(l -> l.remaining() != null && l.remaining() == 0)
        .map(l -> parseTime(l.resetAfter())).flatMap(Optional::stream).filter(now::isBefore).findFirst();
    if (feature.isPresent()) {
      return feature;
    }
    return turn.counters().stream().flatMap(c -> c.modelLimits().stream())
        .filter(l -> l.remaining() != null && l.remaining() == 0)
        .map(l -> parseTime(l.resetAfter())).flatMap(Optional::stream).filter(now::isBefore).findFirst();
  }

  /**
   * A cap the stream names by its code ({@code model_cap_exceeded}, {@code work_usage_limit_exceeded}:
   * REAL-PAGE row 51): {@code capped} until the page's own counter at zero resets (row 50), else an
   * estimate the detail says is one. After Send: nothing is resent.
   */
  public static ProviderFailure codedCap(StreamTurn turn, String code, Instant now) {
    Optional<Instant> reset = limitReset(turn, now);
    return ProviderFailure.capped("usage cap (the stream's error " + code + ")"
        + (reset.isPresent() ? "" : "; the page named no reset time, resume_at is an estimate"),
        reset.orElse(now.plus(CAP_ESTIMATE)), now);
  }

  /**
   * Whether the stream shows an answer from below the effort's tier: a {@code model_adjustments}
   * entry that names a smaller model or a cap, or a slug {@link WireEffort#isDowngrade} refuses.
   */
  public static Optional<String> downgrade(Effort effort, String slug, List<String> adjustments) {
    for (String a : adjustments) {
      String s = a.toLowerCase(Locale.ROOT);
      if (s.contains("smaller_model") || s.contains("cap") || s.contains("downgrade")) {
        return Optional.of("the stream says the model was adjusted (" + a + ")");
      }
    }
    if (WireEffort.isDowngrade(effort, slug)) {
      return Optional.of("the answer came from " + slug + ", below the " + effort.label() + " tier");
    }
    return Optional.empty();
  }

  private static Optional<Instant> parseTime(String iso) {
    if (iso == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(OffsetDateTime.parse(iso).toInstant());
    } catch (DateTimeParseException e) {
      try {
        return Optional.of(Instant.parse(iso));
      } catch (DateTimeParseException e2) {
        return Optional.empty();
      }
    }
  }

  private static JsonNode parse(String body) {
    try {
      return body == null || body.isBlank() ? Json.MAPPER.createObjectNode() : Json.MAPPER.readTree(body);
    } catch (JsonProcessingException e) {
      return Json.MAPPER.createObjectNode();
    }
  }

  private static String clip(String s) {
    String one = s == null ? "" : s.replaceAll("\\s+", " ").strip();
    return one.length() > 300 ? one.substring(0, 300) + "…" : one;
  }
}

package dev.solweb.provider.scenario;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.solweb.provider.platform.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import dev.solweb.provider.model.Effort;
import java.util.List;
import java.util.Map;

/**
 * A scripted ChatGPT: what the page looks like and what it answers, per conversation. One format
 * serves both {@code ScriptedSeat} (no browser) and killgate's fakesol page (real Chromium).
 * The format is documented in the README ("Scenario format").
 *
 * @param account the logged-in account a probe reports
 * @param state the page state at start: {@code ready}, {@code logged_out}, {@code capped},
 *     {@code challenged}
 * @param capResumeAt for {@code state: capped}, when the cap lifts (ISO-8601)
 * @param conversations scripts for conversations whose first typed text contains {@code match},
 *     each used by at most one conversation, in order
 * @param defaultReplies the replies of any other new conversation
 * @param dom fakesol: which captured shape of chatgpt.com the page imitates ({@link #DOMS}; default
 *     the newest); ScriptedSeat ignores it
 * @param locale fakesol: the page's UI language, {@code en} or {@code ru} (default {@code en})
 * @param windowedTurns fakesol: keep only this many turns mounted in the thread, as long real
 *     conversations do (0, the default: all; the turn-key shapes mount 3 to 6 by themselves)
 * @param mode fakesol: the Chat/Work switch as the browser left it, {@code chat} (default) or
 *     {@code work} (REAL-PAGE rows 21, 27); the 2026-10 shape shows it
 * @param cappedEfforts fakesol: effort tiers shown disabled, by canonical label ({@code Pro}, ...), each
 *     with when its limit lifts (ISO-8601), which its tooltip names (row 21)
 * @param sliderDropsFirstKey fakesol: the first arrow key on the effort slider does not move it (row 26)
 */
@JsonIgnoreProperties(ignoreUnknown = false)
public record Scenario(
    @JsonProperty("account") String account,
    @JsonProperty("state") String state,
    @JsonProperty("cap_resume_at") String capResumeAt,
    @JsonProperty("conversations") List<ConversationScript> conversations,
    @JsonProperty("default") List<ScriptedReply> defaultReplies,
    @JsonProperty("dom") String dom,
    @JsonProperty("locale") String locale,
    @JsonProperty("windowed_turns") int windowedTurns,
    @JsonProperty("mode") String mode,
    @JsonProperty("capped_efforts") Map<String, String> cappedEfforts,
    @JsonProperty("slider_drops_first_key") boolean sliderDropsFirstKey) {

  /** The page shapes fakesol can imitate, oldest first (see ../shared/REAL-PAGE.md). */
  public static final List<String> DOMS = List.of("2026-03", "2026-07", "2026-08", "2026-09", "2026-09-turnkey", "2026-09-en", "2026-10", "2026-11");
  public static final String NEWEST_DOM = "2026-10";
  public static final List<String> LOCALES = List.of("en", "ru");

  public static final String DEFAULT_ACCOUNT = "scripted@solweb.invalid";
  private static final ObjectMapper JSON =
      Json.MAPPER.copy().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  public Scenario {
    account = account == null ? DEFAULT_ACCOUNT : account;
    state = state == null ? "ready" : state;
    conversations = conversations == null ? List.of() : List.copyOf(conversations);
    defaultReplies = defaultReplies == null ? List.of() : List.copyOf(defaultReplies);
    dom = dom == null ? NEWEST_DOM : dom;
    locale = locale == null ? "en" : locale;
    if (!DOMS.contains(dom)) {
      throw new IllegalArgumentException("scenario dom must be one of " + DOMS + ", got: " + dom);
    }
    if (!LOCALES.contains(locale)) {
      throw new IllegalArgumentException("scenario locale must be one of " + LOCALES + ", got: " + locale);
    }
    mode = mode == null ? "chat" : mode;
    if (!List.of("chat", "work").contains(mode)) {
      throw new IllegalArgumentException("scenario mode must be chat or work, got: " + mode);
    }
    cappedEfforts = cappedEfforts == null ? Map.of() : Map.copyOf(cappedEfforts);
    for (Map.Entry<String, String> capped : cappedEfforts.entrySet()) {
      if (Effort.fromLabel(capped.getKey()).isEmpty()) {
        throw new IllegalArgumentException("scenario capped_efforts: " + capped.getKey() + " is no effort label ("
            + java.util.Arrays.stream(Effort.values()).map(Effort::label).toList() + ")");
      }
      try {
        java.time.Instant.parse(capped.getValue());
      } catch (java.time.format.DateTimeParseException e) {
        throw new IllegalArgumentException("scenario capped_efforts." + capped.getKey() + " must be an ISO-8601 instant, got: "
            + capped.getValue(), e);
      }
    }
    if (windowedTurns < 0) {
      throw new IllegalArgumentException("scenario windowed_turns must be >= 0, got: " + windowedTurns);
    }
    if (!List.of("ready", "logged_out", "capped", "challenged").contains(state)) {
      throw new IllegalArgumentException(
          "scenario state must be ready|logged_out|capped|challenged, got: " + state);
    }
  }

  /** One conversation's script. {@code match} null or empty matches any first text. */
  public record ConversationScript(
      @JsonProperty("match") String match, @JsonProperty("replies") List<ScriptedReply> replies) {
    public ConversationScript {
      replies = replies == null ? List.of() : List.copyOf(replies);
    }
  }

  /**
   * Loads a scenario by file path, or by the name of a bundled one ({@code demo}, ...).
   *
   * @throws IllegalArgumentException naming the file or name and what is wrong with it
   */
  public static Scenario load(String fileOrName) {
    Path file = Path.of(fileOrName);
    try {
      if (Files.isRegularFile(file)) {
        return JSON.readValue(file.toFile(), Scenario.class);
      }
      if (fileOrName.matches("[a-z0-9][a-z0-9-]*")) {
        try (InputStream in = Scenario.class.getResourceAsStream("/scenarios/" + fileOrName + ".json")) {
          if (in != null) {
            return JSON.readValue(in, Scenario.class);
          }
        }
      }
    } catch (IOException e) {
      throw new IllegalArgumentException("scenario " + fileOrName + " is not valid: " + e.getMessage(), e);
    }
    throw new IllegalArgumentException(
        "no scenario file or bundled scenario named " + fileOrName + " (bundled: " + String.join(", ", bundled()) + ")");
  }

  public static Scenario parse(String json) {
    try {
      return JSON.readValue(json, Scenario.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The same scenario on another page shape (fakesol {@code --dom}). */
  public Scenario withDom(String newDom) {
    return new Scenario(account, state, capResumeAt, conversations, defaultReplies, newDom, locale, windowedTurns, mode,
        cappedEfforts, sliderDropsFirstKey);
  }

  /** The same scenario in another UI language (fakesol {@code --locale}). */
  public Scenario withLocale(String newLocale) {
    return new Scenario(account, state, capResumeAt, conversations, defaultReplies, dom, newLocale, windowedTurns, mode,
        cappedEfforts, sliderDropsFirstKey);
  }

  /** The names of the bundled scenarios. */
  public static List<String> bundled() {
    return List.of("demo", "echo", "pi-demo", "batch");
  }
}

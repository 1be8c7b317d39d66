package dev.solweb.provider.seat.scripted;

import dev.solweb.provider.json.Json;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A scripted ChatGPT: what the page looks like and what it answers, per conversation. One format
 * serves both {@link ScriptedSeat} (no browser) and killgate's fakesol page (real Chromium).
 * The format is documented in the README ("Scenario format").
 *
 * @param account the logged-in account a probe reports
 * @param state the page state at start: {@code ready}, {@code logged_out}, {@code capped},
 *     {@code challenged}
 * @param capResumeAt for {@code state: capped}, when the cap lifts (ISO-8601)
 * @param conversations scripts for conversations whose first typed text contains {@code match},
 *     each used by at most one conversation, in order
 * @param defaultReplies the replies of any other new conversation
 */
@JsonIgnoreProperties(ignoreUnknown = false)
public record Scenario(
    @JsonProperty("account") String account,
    @JsonProperty("state") String state,
    @JsonProperty("cap_resume_at") String capResumeAt,
    @JsonProperty("conversations") List<ConversationScript> conversations,
    @JsonProperty("default") List<ScriptedReply> defaultReplies) {

  public static final String DEFAULT_ACCOUNT = "scripted@solweb.invalid";
  private static final ObjectMapper JSON =
      Json.MAPPER.copy().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  public Scenario {
    account = account == null ? DEFAULT_ACCOUNT : account;
    state = state == null ? "ready" : state;
    conversations = conversations == null ? List.of() : List.copyOf(conversations);
    defaultReplies = defaultReplies == null ? List.of() : List.copyOf(defaultReplies);
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

  /** The names of the bundled scenarios. */
  public static List<String> bundled() {
    return List.of("demo", "echo", "pi-demo");
  }
}

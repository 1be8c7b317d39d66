package dev.solweb.factory.pi;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.solweb.provider.failure.ProviderFailure;
import java.util.Optional;

/**
 * Recovers the typed {@link ProviderFailure} from Pi's {@code errorMessage}.
 *
 * <p>solwebd puts the compact ProviderFailure JSON in {@code error.metadata.raw}; Pi's OpenAI
 * provider shows {@code "<status> <error.message>"} and appends that raw value after a newline
 * (PI-FACTS §4; pi-ai openai-completions.js). So the failure is the LAST line of the message,
 * parsed exactly; nothing is inferred from the status or the prose. A message without it (a
 * connection error, a Pi-side failure) yields empty: the caller records Pi's text as untyped.
 */
public final class FailureText {

  private FailureText() {}

  public static Optional<ProviderFailure> parse(String piErrorMessage) {
    if (piErrorMessage == null) {
      return Optional.empty();
    }
    int newline = piErrorMessage.lastIndexOf('\n');
    if (newline < 0) {
      return Optional.empty();
    }
    String raw = piErrorMessage.substring(newline + 1).strip();
    if (!raw.startsWith("{")) {
      return Optional.empty();
    }
    try {
      return Optional.of(ProviderFailure.fromJson(raw));
    } catch (JsonProcessingException | IllegalArgumentException | NullPointerException e) {
      return Optional.empty();
    }
  }
}

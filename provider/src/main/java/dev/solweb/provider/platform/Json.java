package dev.solweb.provider.platform;

import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The one Jackson configuration of the project's Java side (provider, factory-plugin, killgate).
 * An {@link ObjectMapper} is thread-safe once configured and costly to build, so main code shares
 * this instance; a reader that needs a stricter or looser rule derives it with
 * {@code MAPPER.copy()} so the base settings stay one.
 */
public final class Json {
  public static final ObjectMapper MAPPER = new ObjectMapper();

  private Json() {}
}

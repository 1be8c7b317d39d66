package dev.solweb.factory.pi;

import com.fasterxml.jackson.databind.ObjectMapper;

/** The module's one configured ObjectMapper (thread-safe once configured). */
public final class Json {
  public static final ObjectMapper MAPPER = new ObjectMapper();

  private Json() {}
}

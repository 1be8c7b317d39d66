package dev.solweb.factory.receipt;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import dev.solweb.provider.platform.Json;
import java.io.IOException;
import java.util.Optional;

/**
 * Finds the Factory Report in a phase's final text: the LAST top-level JSON object in it (seed
 * 001, "Protocol truth": final prose must contain the Report JSON). Objects nested inside another
 * object are not candidates; fences and prose around the object are ignored. Factory's own Report
 * parser stays the authority on whether the object is a valid Report; this only carries it into
 * the receipt.
 */
public final class ReportExtractor {

  private ReportExtractor() {}

  public static Optional<JsonNode> lastTopLevelObject(String text) {
    if (text == null) {
      return Optional.empty();
    }
    JsonNode last = null;
    int i = 0;
    while (i < text.length()) {
      if (text.charAt(i) != '{') {
        i++;
        continue;
      }
      int end = objectEnd(text, i);
      if (end < 0) {
        i++;
        continue;
      }
      try {
        last = Json.MAPPER.readTree(text.substring(i, end));
      } catch (IOException e) {
        i++;
        continue;
      }
      i = end;
    }
    return Optional.ofNullable(last);
  }

  /** The end offset (exclusive) of the JSON object starting at {@code start}, or -1. */
  private static int objectEnd(String text, int start) {
    try (JsonParser parser = Json.MAPPER.getFactory().createParser(text.substring(start))) {
      JsonNode node = Json.MAPPER.readTree(parser);
      if (node == null || !node.isObject()) {
        return -1;
      }
      return start + (int) parser.currentLocation().getCharOffset();
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }
}

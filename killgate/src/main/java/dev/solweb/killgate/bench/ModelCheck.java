package dev.solweb.killgate.bench;

import com.fasterxml.jackson.databind.JsonNode;
import dev.solweb.killgate.fakesol.FakeSol;
import dev.solweb.provider.platform.Json;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * The bench's own oracle for the model a Send ran on (REAL-PAGE rows 61, 62, 64): on a page that
 * shows model families, every thinking turn belongs on the newest Sol row that is not retiring and
 * not an Instant row, read from fakesol's {@code /control} (the rows as this account sees them and
 * the model each turn request named). Written apart from the seat's rule on purpose.
 */
final class ModelCheck {

  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private ModelCheck() {}

  /** Why a turn request ran on the wrong model, or null (none did, or the page shows no model families). */
  static String wrongModel(FakeSol sol) {
    JsonNode control;
    try {
      HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(sol.url().resolve("/control")).timeout(Duration.ofSeconds(10))
          .build(), HttpResponse.BodyHandlers.ofString());
      control = Json.MAPPER.readTree(r.body());
    } catch (Exception e) {
      return "fakesol's /control could not be read: " + e;
    }
    if (!control.path("models").isArray()) {
      return null;
    }
    String expected = newestSol(control.path("models"));
    for (JsonNode turn : control.path("turn_models")) {
      if (!turn.path("row").asText("").equals(expected)) {
        return "sent on model " + turn.path("model").asText() + " (row " + turn.path("row").asText(null) + "), expected "
            + expected;
      }
    }
    return null;
  }

  private static String newestSol(JsonNode rows) {
    String best = null;
    double version = -1;
    for (JsonNode r : rows) {
      if ("Sol".equals(r.path("family").asText(null)) && !r.path("retiring").asBoolean() && !r.path("instant").asBoolean()
          && Double.parseDouble(r.path("version").asText("0")) > version) {
        version = Double.parseDouble(r.path("version").asText("0"));
        best = r.path("name").asText();
      }
    }
    return best;
  }
}

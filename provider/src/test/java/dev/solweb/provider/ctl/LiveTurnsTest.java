package dev.solweb.provider.ctl;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.solweb.provider.platform.Json;
import dev.solweb.provider.translate.SessionKey;
import org.junit.jupiter.api.Test;

/** The clients' progress-line text for each state, and which turn is a client's own. */
class LiveTurnsTest {
  private static final String MINE = "v1." + "m".repeat(43);
  private static final String OTHER = "v1." + "o".repeat(43);

  private static JsonNode healthz(String turns) throws Exception {
    return Json.MAPPER.readTree("{\"state\": \"ready\", \"turns\": [" + turns + "]}");
  }

  private static String turn(String client, String effort, String state, double elapsed, double thinking, int chars) {
    return "{\"session\": \"0123456789abcdef\", \"client\": " + (client == null ? "null" : "\"" + SessionKey.clientTag(client) + "\"")
        + ", \"effort\": \"" + effort + "\", \"state\": \"" + state + "\", \"elapsed_s\": " + elapsed
        + ", \"thinking_s\": " + thinking + ", \"chars_received\": " + chars + "}";
  }

  private static String line(String state, double elapsed, double thinking, int chars) throws Exception {
    return LiveTurns.of(healthz(turn(MINE, "high", state, elapsed, thinking, chars))).get(0).line();
  }

  @Test
  void eachStateReadsAsOneShortLine() throws Exception {
    assertThat(line("queued", 3.9, 0, 0)).isEqualTo("gpt: queued (elapsed 3 s)");
    assertThat(line("typing", 4.0, 0, 0)).isEqualTo("gpt: typing (elapsed 4 s)");
    assertThat(line("sent", 5.5, 0, 0)).isEqualTo("gpt: sent (elapsed 5 s)");
    assertThat(line("thinking", 50.2, 42.7, 0)).isEqualTo("gpt: thinking 42 s (elapsed 50 s)");
    assertThat(line("writing", 61.0, 42.0, 1204)).isEqualTo("gpt: thinking 42 s, writing 1,204 chars (elapsed 61 s)");
    assertThat(line("writing", 9.0, 0, 17)).isEqualTo("gpt: writing 17 chars (elapsed 9 s)");
    assertThat(line("complete", 62.0, 42.0, 1204)).isEqualTo("gpt: complete, 1,204 chars (elapsed 62 s)");
  }

  @Test
  void aClientFindsOnlyItsOwnTurnByTheTagOfItsHeader() throws Exception {
    JsonNode h = healthz(turn(OTHER, "high", "writing", 9, 0, 5) + "," + turn(MINE, "high", "thinking", 7, 3, 0) + ","
        + turn(null, "pro", "sent", 2, 0, 0));
    assertThat(LiveTurns.ofClient(h, MINE)).hasValueSatisfying(t -> assertThat(t.state()).isEqualTo("thinking"));
    assertThat(LiveTurns.ofClient(h, "v1." + "z".repeat(43))).isEmpty();
    assertThat(LiveTurns.ofAnonymous(h, "pro")).hasValueSatisfying(t -> assertThat(t.state()).isEqualTo("sent"));
    assertThat(LiveTurns.ofAnonymous(h, "high")).as("turns with a header are some other client's").isEmpty();
  }

  @Test
  void aDaemonThatListsNoTurnsHasNone() throws Exception {
    assertThat(LiveTurns.of(Json.MAPPER.readTree("{\"state\": \"ready\"}"))).isEmpty();
  }
}

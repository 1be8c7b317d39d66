package dev.solweb.provider.seat.playwright.page;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which radios the probe may try: unread rows of the last run, never a model row (REAL-PAGE rows 32, 62). */
class EffortProbeTest {

  private static List<Map<String, Object>> menu(Object... runsAndLabels) {
    List<Map<String, Object>> radios = new ArrayList<>();
    for (int i = 0; i < runsAndLabels.length; i += 2) {
      String label = (String) runsAndLabels[i + 1];
      radios.add(Map.of("index", i / 2, "run", runsAndLabels[i], "first", label, "full", label));
    }
    return radios;
  }

  private static List<String> labels(List<Map<String, Object>> rows) {
    return rows.stream().map(r -> (String) r.get("first")).toList();
  }

  @Test
  void theUnreadRowsAfterTheModelRowsAreTheCandidates() {
    List<Map<String, Object>> spanish = menu(0, "Latest", 0, "6", 0, "GPT-6.2 Sol", 0, "GPT-6.2 Astra", 1, "Medio", 1, "Alto");
    assertThat(labels(EffortProbe.candidates(spanish))).containsExactly("Medio", "Alto");
  }

  @Test
  void aReadableRowIsNoCandidateAndModelRowsNeverAre() {
    assertThat(labels(EffortProbe.candidates(menu(0, "GPT-6.2 Sol", 1, "보통", 1, "Pro")))).containsExactly("보통");
    assertThat(EffortProbe.candidates(menu(0, "Latest", 0, "GPT-6.2 Sol", 0, "GPT-6.2 Sol Instant")))
        .as("an Instant row shows no efforts: the last run is the models").isEmpty();
    assertThat(EffortProbe.candidates(List.of())).isEmpty();
  }
}

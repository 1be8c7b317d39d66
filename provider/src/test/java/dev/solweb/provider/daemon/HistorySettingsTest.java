package dev.solweb.provider.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.solweb.provider.translate.ConversationPlace;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HistorySettingsTest {

  @Test
  void unsetAndEmptyValuesMeanTheHistoryAndNoRetention() {
    assertThat(HistorySettings.fromEnv(Map.of())).isEqualTo(HistorySettings.DEFAULT);
    assertThat(HistorySettings.fromEnv(Map.of("SOLWEBD_PROJECT", " ", "SOLWEBD_TEMPORARY", "", "SOLWEBD_RETENTION_DAYS", "")))
        .isEqualTo(HistorySettings.DEFAULT);
    assertThat(HistorySettings.fromEnv(Map.of("SOLWEBD_TEMPORARY", "0", "SOLWEBD_RETENTION_DAYS", "off")))
        .isEqualTo(HistorySettings.DEFAULT);
  }

  @Test
  void aProjectByNameOrUrlTemporaryChatsAndRetention() {
    assertThat(HistorySettings.fromEnv(Map.of("SOLWEBD_PROJECT", "My Work")).place())
        .isEqualTo(new ConversationPlace.Project("My Work"));
    assertThat(HistorySettings.fromEnv(Map.of("SOLWEBD_PROJECT", "https://chatgpt.com/g/g-p-0f1e-my-work/project")).place())
        .isEqualTo(new ConversationPlace.Project("https://chatgpt.com/g/g-p-0f1e-my-work/project"));
    assertThat(HistorySettings.fromEnv(Map.of("SOLWEBD_TEMPORARY", "1")).place()).isEqualTo(new ConversationPlace.Temporary());
    HistorySettings retained = HistorySettings.fromEnv(Map.of("SOLWEBD_RETENTION_DAYS", "14"));
    assertThat(retained.retention()).isEqualTo(Duration.ofDays(14));
    assertThat(retained.describe()).isEqualTo("the history, deleted after 14 idle days");
  }

  @Test
  void bothPlacesOrBadValuesAreAClearStartUpError() {
    assertThatThrownBy(() -> HistorySettings.fromEnv(Map.of("SOLWEBD_PROJECT", "My Work", "SOLWEBD_TEMPORARY", "1")))
        .hasMessageContaining("SOLWEBD_PROJECT and SOLWEBD_TEMPORARY are both set");
    assertThatThrownBy(() -> HistorySettings.fromEnv(Map.of("SOLWEBD_TEMPORARY", "maybe")))
        .hasMessageContaining("SOLWEBD_TEMPORARY must be 1");
    assertThatThrownBy(() -> HistorySettings.fromEnv(Map.of("SOLWEBD_PROJECT", "https://chatgpt.com/c/abc")))
        .hasMessageContaining("not a project's");
    assertThatThrownBy(() -> HistorySettings.fromEnv(Map.of("SOLWEBD_RETENTION_DAYS", "0")))
        .hasMessageContaining("SOLWEBD_RETENTION_DAYS must be a whole number of days");
    assertThatThrownBy(() -> HistorySettings.fromEnv(Map.of("SOLWEBD_RETENTION_DAYS", "a week")))
        .hasMessageContaining("SOLWEBD_RETENTION_DAYS");
  }
}

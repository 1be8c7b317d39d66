package dev.solweb.provider.seat.playwright;

import static org.assertj.core.api.Assertions.assertThat;

import dev.solweb.provider.seat.TurnProgress.Stage;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The stages a send reports: a safety review is a phase between the others, never the end. */
class ProgressFeedTest {

  @Test
  void aSafetyReviewIsReportedOnceAsAPhaseAndWritingGoesOnAfterIt() {
    List<String> seen = new ArrayList<>();
    ProgressFeed feed = new ProgressFeed();
    feed.listener((stage, chars) -> seen.add(stage + " " + chars));
    feed.typing();
    feed.sent();
    feed.poll(false, false, false, 10, null);
    feed.poll(false, false, true, 10, null);
    feed.poll(false, false, true, 12, null);
    feed.poll(false, false, false, 20, null);
    feed.complete(20);
    assertThat(seen).containsExactly("TYPING 0", "SENT 0", "WRITING 10", "REVIEWING 10", "WRITING 20", "COMPLETE 20");
    assertThat(seen).filteredOn(s -> s.startsWith(Stage.REVIEWING.name())).hasSize(1);
  }
}

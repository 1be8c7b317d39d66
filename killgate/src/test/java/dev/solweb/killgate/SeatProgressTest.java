package dev.solweb.killgate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.seat.SeatReply;
import dev.solweb.provider.seat.TurnProgress;
import dev.solweb.provider.seat.TurnProgress.Stage;
import dev.solweb.provider.seat.playwright.PlaywrightSeat;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the Playwright seat reports while a send runs on fakesol: typing and sent from its own
 * steps, thinking from the page's markers, writing with the characters received, complete with
 * the answer's length. Only the order and the counts are asserted, never how long a stage took.
 */
class SeatProgressTest extends SeatHarness {

  static final String CALL = "{\"tool\": \"write\", \"arguments\": {\"path\": \"a.txt\", \"content\": \"hi\\n\"}}";
  static final String PROSE = "Writing the file now, as asked.";
  /** The markdown fakesol's page carries for that reply: the prose, then the block fenced as json. */
  static final String MARKDOWN = PROSE + "\n\n```json\n" + CALL + "\n```";

  record Report(Stage stage, int chars) {}

  private final List<Report> reports = new ArrayList<>();
  /** Records each report; the first writing lets fakesol's held thinking start (see the first test). */
  private final TurnProgress recorder = (stage, chars) -> {
    reports.add(new Report(stage, chars));
    if (stage == Stage.WRITING) {
      sol.releaseThinking();
    }
  };

  private PlaywrightSeat ready(String stream) throws Exception {
    PlaywrightSeat seat = seatOn(scenario("{\"default\": [{\"prose\": \"" + PROSE + "\", \"blocks\": [" + TextNode.valueOf(CALL)
        + "], \"thinking_ms\": 400, \"stream_ms\": 600" + (stream == null ? "" : ", \"stream\": " + stream) + "}]}"));
    seat.openNew();
    seat.setEffort(Effort.HIGH);
    seat.progress(recorder);
    return seat;
  }

  /** The stages in order, a run of writing reports counted once. */
  private List<Stage> stages() {
    List<Stage> stages = new ArrayList<>();
    for (Report r : reports) {
      if (stages.isEmpty() || stages.get(stages.size() - 1) != r.stage()) {
        stages.add(r.stage());
      }
    }
    return stages;
  }

  private List<Integer> writingChars() {
    return reports.stream().filter(r -> r.stage() == Stage.WRITING).map(Report::chars).toList();
  }

  @Test
  void aStreamedTurnReportsEachStageAsThePageShowsItAndEndsWithTheAnswersLength() throws Exception {
    PlaywrightSeat seat = ready(null);
    // The page's thinking waits until the seat reported the first half: on a busy machine its poll
    // could otherwise land only after the thinking began (one 600/n ms step), and miss that half.
    sol.holdThinking();
    SeatReply reply = seat.send("write a.txt");

    assertThat(reply.source()).isEqualTo(SeatReply.Source.STREAM);
    // fakesol's page writes half the answer, thinks (cot_token ... final_channel_token), then writes the rest.
    assertThat(stages()).containsExactly(Stage.TYPING, Stage.SENT, Stage.WRITING, Stage.THINKING, Stage.WRITING,
        Stage.COMPLETE);
    List<Integer> chars = writingChars();
    assertThat(chars).isSorted().allMatch(n -> n > 0);
    assertThat(chars.get(chars.size() - 1)).isEqualTo(MARKDOWN.length());
    assertThat(reports.get(reports.size() - 1)).isEqualTo(new Report(Stage.COMPLETE, MARKDOWN.length()));
    assertThat(sol.sends()).hasSize(1);
  }

  @Test
  void withTheAnswerOnAChannelTheSeatCannotSeeTheDomsTextIsCounted() throws Exception {
    SeatReply reply = ready("{\"fault\": \"handoff_unfollowed\"}").send("write a.txt");

    assertThat(reply.source()).isEqualTo(SeatReply.Source.DOM);
    assertThat(stages()).startsWith(Stage.TYPING, Stage.SENT).endsWith(Stage.WRITING, Stage.COMPLETE);
    assertThat(stages()).doesNotHaveDuplicates();
    Report complete = reports.get(reports.size() - 1);
    List<Integer> chars = writingChars();
    assertThat(complete.chars()).isPositive().isEqualTo(chars.get(chars.size() - 1));
  }

  @Test
  void aSeatWhoseListenerWasTakenBackReportsNowhere() throws Exception {
    PlaywrightSeat seat = ready(null);
    seat.progress(TurnProgress.NONE);
    seat.send("write a.txt");
    assertThat(reports).isEmpty();
  }
}

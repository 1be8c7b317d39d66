package dev.solweb.provider.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.solweb.provider.model.Effort;
import dev.solweb.provider.seat.TurnProgress.Stage;
import dev.solweb.provider.translate.ChatInput;
import dev.solweb.provider.translate.Message;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** One turn's progress on a clock the test moves: states, elapsed time and summed thinking. */
class LiveTurnTest {
  private final ManualTime time = new ManualTime();

  private LiveTurn turn() {
    return new LiveTurn(TurnRequest.chat(new ChatInput(Effort.XHIGH, List.of(Message.user("task")), List.of(),
        Optional.of("v1." + "c".repeat(43)))), time::now);
  }

  @Test
  void thinkingIsSummedOverACorrectionSendAndCharsStartOverWithEachSend() {
    LiveTurn turn = turn();
    assertThat(turn.view().state()).isEqualTo("queued");
    time.advance(Duration.ofSeconds(4));
    turn.started();
    turn.report(Stage.SENT, 0);
    turn.report(Stage.THINKING, 0);
    time.advance(Duration.ofSeconds(10));
    turn.report(Stage.WRITING, 300);
    time.advance(Duration.ofSeconds(2));
    turn.report(Stage.COMPLETE, 320);
    turn.report(Stage.TYPING, 0); // the reply broke the protocol: one correction send
    assertThat(turn.view().charsReceived()).isZero();
    turn.report(Stage.SENT, 0);
    turn.report(Stage.THINKING, 0);
    time.advance(Duration.ofSeconds(3));

    LiveTurn.View view = turn.view();
    assertThat(view.state()).isEqualTo("thinking");
    assertThat(view.thinkingSeconds()).isEqualTo(13.0);
    assertThat(view.elapsedSeconds()).isEqualTo(19.0);
    assertThat(view.effort()).isEqualTo("xhigh");
    assertThat(view.client()).hasSize(12);
  }
}

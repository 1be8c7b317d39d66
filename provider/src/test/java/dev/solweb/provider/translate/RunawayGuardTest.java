package dev.solweb.provider.translate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.platform.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RunawayGuardTest {
  private final RunawayGuard guard = new RunawayGuard(3);

  private static ChatTurn turn(List<Message> messages) {
    return ChatTurn.of(new ChatInput(Effort.HIGH, messages, List.of(), Optional.empty()));
  }

  private static Message call(int n, String path) throws Exception {
    return new Message(Message.Role.ASSISTANT, "", List.of(new Message.ToolCallRef("call_" + n + "_0000000" + n % 10,
        "Read", Json.MAPPER.readTree("{\"file_path\": \"" + path + "\"}"))), null);
  }

  /** The history after {@code steps} answers of one call each, each with its result. */
  private static List<Message> after(int steps, String... paths) throws Exception {
    List<Message> history = new ArrayList<>(List.of(Message.user("go")));
    for (int i = 1; i <= steps; i++) {
      Message call = call(i, paths.length == 0 ? "a.txt" : paths[(i - 1) % paths.length]);
      history.add(call);
      history.add(new Message(Message.Role.TOOL, "x", List.of(), call.toolCalls().get(0).id()));
    }
    return history;
  }

  @Test
  void theSameCallMoreThanTheLimitInARowIsAProtocolFailureNamingTheLoop() throws Exception {
    for (int steps = 0; steps <= 3; steps++) {
      assertThat(guard.check(turn(after(steps)))).as("step %d", steps).isEmpty();
    }

    Optional<ProviderFailure> refused = guard.check(turn(after(4)));

    assertThat(refused).hasValueSatisfying(failure -> {
      assertThat(failure.kind()).isEqualTo(ProviderFailure.Kind.PROTOCOL);
      assertThat(failure.detail()).contains("runaway loop", "4 times in a row", "Read {\"file_path\":\"a.txt\"}",
          "SOLWEBD_LOOP_LIMIT=3");
    });
  }

  @Test
  void aRetryOfTheSameRequestIsNoStepAndOtherArgumentsBreakTheStreak() throws Exception {
    for (int steps = 1; steps <= 3; steps++) {
      assertThat(guard.check(turn(after(steps)))).isEmpty();
      assertThat(guard.check(turn(after(steps)))).as("the same request again, step %d", steps).isEmpty();
    }
    assertThat(guard.check(turn(after(4, "a.txt", "a.txt", "a.txt", "b.txt")))).isEmpty();
    assertThat(guard.check(turn(after(5, "a.txt", "a.txt", "a.txt", "b.txt", "a.txt")))).isEmpty();
  }

  @Test
  void theLimitIsAWholeNumberOfAtLeastOne() {
    assertThat(RunawayGuard.parseLimit(" 12 ")).isEqualTo(12);
    assertThatThrownBy(() -> RunawayGuard.parseLimit("0")).hasMessageContaining("SOLWEBD_LOOP_LIMIT");
    assertThatThrownBy(() -> RunawayGuard.parseLimit("many")).hasMessageContaining("whole number");
  }
}

package dev.solweb.killgate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.solweb.provider.model.Effort;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.SeatProbe;
import dev.solweb.provider.seat.SeatReply;
import dev.solweb.provider.seat.playwright.PlaywrightSeat;
import dev.solweb.provider.seat.scripted.ScenarioPlayer;
import java.util.List;
import org.junit.jupiter.api.Test;

class SeatBasicsTest extends SeatHarness {

  @Test
  void aTurnReturnsProseBlocksTheDurableUrlAndTheSlug() throws Exception {
    PlaywrightSeat seat = seatOn(scenario("""
        {"account": "owner@example.invalid",
         "default": [{"prose": "Here is the call.", "blocks": ["{\\"tool\\": \\"write\\"}"], "stream_ms": 200}]}
        """));
    SeatProbe probe = seat.probe();
    assertThat(probe.state()).isEqualTo(SeatProbe.State.READY);
    assertThat(probe.account()).isEqualTo("owner@example.invalid");

    seat.openNew();
    assertThat(seat.setEffort(Effort.HIGH)).isEqualTo("High");
    SeatReply reply = seat.send("hello");

    List<ScenarioPlayer.Send> sends = sol.sends();
    assertThat(sends).hasSize(1);
    assertThat(sends.get(0).text()).isEqualTo("hello");
    assertThat(sends.get(0).effort()).isEqualTo(Effort.HIGH);
    assertThat(reply.prose()).isEqualTo("Here is the call.");
    assertThat(reply.codeBlocks()).containsExactly("{\"tool\": \"write\"}");
    assertThat(reply.modelSlug()).isEqualTo("gpt-5-thinking");
    assertThat(reply.conversationUrl()).isEqualTo(sol.url() + "c/" + sends.get(0).conversationId());
  }
}

package dev.solweb.provider.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.TestClock;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.platform.Json;
import dev.solweb.provider.seat.BrowserSeat;
import dev.solweb.provider.seat.PageCounters;
import dev.solweb.provider.seat.SeatProbe;
import dev.solweb.provider.seat.SeatReply;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The {@code limits} object: the page's counters exactly as a seat read them, solweb's Sends per
 * effort and model in 3 h and 7 d, the budget used, and the plan's allowance marked published.
 */
class LimitsReportTest {
  private final TestClock clock = new TestClock();

  @Test
  void thePagesCountersAsReadBesideTheSendsAndThePublishedAllowance() throws Exception {
    SendLedger ledger = SendLedger.inMemory();
    AccountPacing pacing = new AccountPacing(SendGate.unpaced(), ledger, SendBudget.parse("high=120/3h"), clock);
    ObjectNode before = Json.MAPPER.createObjectNode();
    LimitsReport.toJson(pacing, clock.instant(), before);
    assertThat(before.path("limits_progress")).isEmpty();
    assertThat(before.path("published").path("allowances")).as("no plan read: nothing published shown").isEmpty();

    Instant now = clock.instant();
    ledger.record(now.minus(Duration.ofDays(2)), Effort.HIGH, "gpt-5-thinking");
    ledger.record(now.minus(Duration.ofHours(1)), Effort.HIGH, "gpt-5-thinking");
    ledger.record(now.minus(Duration.ofMinutes(5)), Effort.PRO, null);
    pacing.observe(new Reading(new PageCounters("plus",
        List.of(new PageCounters.Counter("deep_research", 24, "2026-12-31T00:00:00+00:00"),
            new PageCounters.Counter("image_gen", null, null)),
        List.of(new PageCounters.Counter("gpt-5-thinking", 0, "2026-12-04T21:00:00+00:00")),
        List.of("image_gen"), "gpt-5-6", now)));
    ObjectNode limits = Json.MAPPER.createObjectNode();
    LimitsReport.toJson(pacing, now, limits);

    assertThat(limits.path("plan").asText()).isEqualTo("plus");
    assertThat(limits.path("limits_progress").toString()).isEqualTo("[{\"feature_name\":\"deep_research\",\"remaining\":24,"
        + "\"reset_after\":\"2026-12-31T00:00:00+00:00\"},{\"feature_name\":\"image_gen\",\"remaining\":null,\"reset_after\":null}]");
    assertThat(limits.path("model_limits").get(0).path("remaining").asInt()).isZero();
    assertThat(limits.path("blocked_features").get(0).asText()).isEqualTo("image_gen");
    assertThat(limits.path("sends").toString()).isEqualTo("{\"3h\":{\"high\":{\"gpt-5-thinking\":1},\"pro\":{\"unknown\":1}},"
        + "\"7d\":{\"high\":{\"gpt-5-thinking\":2},\"pro\":{\"unknown\":1}}}");
    assertThat(limits.path("budget").get(0).path("used").asInt()).isEqualTo(1);
    assertThat(limits.path("published").path("source").asText()).contains("published", "not measured", "row 54");
    assertThat(limits.path("published").path("allowances").get(0).path("messages").asInt()).isEqualTo(160);
  }

  /** A seat that read these counters on its last send. */
  private record Reading(PageCounters read) implements BrowserSeat {
    @Override
    public Optional<PageCounters> counters() {
      return Optional.of(read);
    }

    @Override
    public SeatProbe probe() {
      return SeatProbe.ready("owner@example.invalid");
    }

    @Override
    public void openNew() {}

    @Override
    public void resume(String conversationUrl) {}

    @Override
    public Effort setEffort(Effort effort) {
      return effort;
    }

    @Override
    public SeatReply send(String text) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void stop() {}

    @Override
    public void close() {}
  }
}

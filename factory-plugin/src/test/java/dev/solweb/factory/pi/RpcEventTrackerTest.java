package dev.solweb.factory.pi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.solweb.factory.pi.PiResult.Outcome;
import dev.solweb.factory.pi.RpcEventTracker.Step;
import dev.solweb.provider.platform.Json;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The end-of-run decision, fed recorded Pi RPC lines; no process. */
class RpcEventTrackerTest {

  final RpcEventTracker tracker = new RpcEventTracker();

  private Step feed(String json) throws Exception {
    return tracker.accept(Json.MAPPER.readTree(json), 1000);
  }

  private Step idleProbeAnswer() throws Exception {
    String id = Json.MAPPER.readTree(tracker.nextProbeCommand()).path("id").asText();
    return feed("{\"type\":\"response\",\"id\":\"" + id + "\",\"command\":\"get_state\",\"success\":true,"
        + "\"data\":{\"isStreaming\":false,\"isCompacting\":false,\"sessionId\":\"s-1\"}}");
  }

  static final String ERROR_END = "{\"type\":\"agent_end\",\"messages\":[{\"role\":\"user\"},{\"role\":\"assistant\","
      + "\"content\":[],\"stopReason\":\"error\",\"errorMessage\":\"400 context_overflow: too long\\n"
      + "{\\\"kind\\\":\\\"context_overflow\\\",\\\"detail\\\":\\\"too long\\\"}\"}]}";

  @Test
  void aCompactionAfterAgentEndKeepsTheRunOpenUntilTheRetriedPromptEnds() throws Exception {
    assertThat(feed("{\"type\":\"agent_start\"}")).isEqualTo(Step.CONTINUE);
    assertThat(feed(ERROR_END)).isEqualTo(Step.PROBE);
    assertThat(feed("{\"type\":\"compaction_start\",\"reason\":\"overflow\"}")).isEqualTo(Step.CONTINUE);
    assertThat(idleProbeAnswer()).as("compacting: not the end").isEqualTo(Step.CONTINUE);
    assertThat(feed("{\"type\":\"compaction_end\",\"reason\":\"overflow\",\"willRetry\":true,\"aborted\":false}"))
        .isEqualTo(Step.PROBE);
    assertThat(idleProbeAnswer()).as("retry of the prompt pending").isEqualTo(Step.CONTINUE);
    feed("{\"type\":\"agent_start\"}");
    feed("{\"type\":\"message_end\",\"message\":{\"role\":\"assistant\",\"stopReason\":\"stop\","
        + "\"content\":[{\"type\":\"text\",\"text\":\"ok {\\\"status\\\":\\\"done\\\"}\"}],"
        + "\"usage\":{\"input\":900,\"output\":12}}}");
    assertThat(feed("{\"type\":\"agent_end\",\"messages\":[]}")).isEqualTo(Step.PROBE);
    assertThat(idleProbeAnswer()).isEqualTo(Step.DONE);

    PiResult r = tracker.result(null, null, null, 0, Instant.EPOCH, Instant.EPOCH);
    assertThat(r.outcome()).isEqualTo(Outcome.COMPLETED);
    assertThat(r.finalText()).isEqualTo("ok {\"status\":\"done\"}");
    assertThat(r.compactions()).singleElement().satisfies(c -> {
      assertThat(c.reason()).isEqualTo("overflow");
      assertThat(c.willRetry()).isTrue();
    });
    assertThat(r.piSessionId()).isEqualTo("s-1");
    assertThat(r.estimatedInput()).isEqualTo(900);
  }

  @Test
  void aPendingAutoRetryIsNotTheEnd() throws Exception {
    feed("{\"type\":\"agent_start\"}");
    feed(ERROR_END.replace("context_overflow", "unavailable").replace("400", "503"));
    feed("{\"type\":\"auto_retry_start\",\"attempt\":1,\"maxAttempts\":3,\"delayMs\":2000}");
    assertThat(idleProbeAnswer()).isEqualTo(Step.CONTINUE);
    assertThat(feed("{\"type\":\"auto_retry_end\",\"success\":false,\"attempt\":1}")).isEqualTo(Step.PROBE);
    assertThat(idleProbeAnswer()).isEqualTo(Step.DONE);
    PiResult r = tracker.result(null, null, null, 0, Instant.EPOCH, Instant.EPOCH);
    assertThat(r.retriesSeen()).isEqualTo(1);
    assertThat(r.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(r.providerFailure().kind().wireName()).isEqualTo("unavailable");
  }

  @Test
  void stillStreamingAfterAgentEndAsksAgainLater() throws Exception {
    feed("{\"type\":\"agent_end\",\"messages\":[]}");
    String id = Json.MAPPER.readTree(tracker.nextProbeCommand()).path("id").asText();
    assertThat(feed("{\"type\":\"response\",\"id\":\"" + id + "\",\"command\":\"get_state\",\"success\":true,"
        + "\"data\":{\"isStreaming\":true,\"isCompacting\":false}}")).isEqualTo(Step.PROBE_LATER);
  }

  @Test
  void aRefusedPromptEndsTheRunAsAPiError() throws Exception {
    assertThat(feed("{\"type\":\"response\",\"id\":\"prompt-1\",\"command\":\"prompt\",\"success\":false,"
        + "\"error\":\"No API key found for gpt\"}")).isEqualTo(Step.DONE);
    PiResult r = tracker.result(null, null, null, 0, Instant.EPOCH, Instant.EPOCH);
    assertThat(r.outcome()).isEqualTo(Outcome.ERROR);
    assertThat(r.errorMessage()).contains("No API key found");
    assertThat(r.providerFailure()).isNull();
  }

  @Test
  void rejectedToolCallsAreProtocolRepairs() throws Exception {
    feed("{\"type\":\"tool_execution_start\",\"toolCallId\":\"c1\",\"toolName\":\"frobnicate\",\"args\":{}}");
    feed("{\"type\":\"tool_execution_end\",\"toolCallId\":\"c1\",\"toolName\":\"frobnicate\",\"isError\":true,"
        + "\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"Tool frobnicate not found\"}]}}");
    PiResult r = tracker.result(null, null, null, 0, Instant.EPOCH, Instant.EPOCH);
    assertThat(r.protocolRepairs()).containsExactly("Tool frobnicate not found");
    assertThat(r.toolEvents()).singleElement().satisfies(e -> assertThat(e.status()).isEqualTo("error"));
  }

  @Test
  void toolArgumentsAndResultsAreBounded() throws Exception {
    String big = "x".repeat(10_000);
    feed("{\"type\":\"tool_execution_start\",\"toolCallId\":\"c1\",\"toolName\":\"bash\",\"args\":{\"command\":\"" + big + "\"}}");
    feed("{\"type\":\"tool_execution_end\",\"toolCallId\":\"c1\",\"toolName\":\"bash\",\"isError\":false,"
        + "\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"" + big + "\"}]}}");
    ToolEvent e = tracker.result(null, null, null, 0, Instant.EPOCH, Instant.EPOCH).toolEvents().get(0);
    assertThat(e.args().length()).isLessThan(ToolEvent.BOUND + 40);
    assertThat(e.result()).endsWith("more chars]");
  }
}

package dev.solweb.factory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.solweb.factory.pi.PiResult.Outcome;
import dev.solweb.factory.retry.RetryPolicy.Verdict;
import dev.solweb.factory.testing.FakeChatServer;
import dev.solweb.factory.testing.PiFixture;
import dev.solweb.provider.failure.ProviderFailure.Kind;
import dev.solweb.provider.failure.ProviderFailure;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.platform.Json;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SolAttemptTest {

  @TempDir Path tmp;

  private SolAttempt.Spec spec(PiFixture fx, String id, Effort effort) {
    return new SolAttempt.Spec(id, 2, effort, fx.workspace, "task", List.of("read", "write"), Duration.ofSeconds(60),
        fx.pi, fx.managedDir, tmp.resolve("acct"), tmp.resolve("receipts"), fx.parentEnv(), Set.of(PiFixture.TOKEN),
        "workstation", "owner@example.invalid");
  }

  @Test
  void badIdsAndInstantAreRefusedBeforeAnythingIsCreated() throws Exception {
    PiFixture fx = new PiFixture(tmp, "http://127.0.0.1:9/v1");
    assertThatThrownBy(() -> SolAttempt.prepare(spec(fx, "", Effort.HIGH))).hasMessageContaining("empty");
    assertThatThrownBy(() -> SolAttempt.prepare(spec(fx, "x\uDC00", Effort.HIGH))).hasMessageContaining("surrogate");
    assertThatThrownBy(() -> SolAttempt.prepare(spec(fx, "ok", Effort.INSTANT))).hasMessageContaining("instant");
    assertThat(tmp.resolve("acct")).doesNotExist();
    assertThat(tmp.resolve("receipts")).doesNotExist();
  }

  @Test
  void aCappedAttemptWritesItsReceiptAndForbidsAnImmediateRetry() throws Exception {
    try (FakeChatServer server = new FakeChatServer(PiFixture.TOKEN)) {
      PiFixture fx = new PiFixture(tmp, server.baseUrl());
      ProviderFailure cap = new ProviderFailure(Kind.CAPPED, "usage cap", 120L, "2026-12-01T01:00:00Z");
      server.then(new FakeChatServer.Error(cap));
      SolAttempt attempt = SolAttempt.prepare(spec(fx, "factory-7", Effort.XHIGH));

      SolAttempt.Result r = attempt.run(n -> { });

      assertThat(r.pi().outcome()).isEqualTo(Outcome.FAILED);
      assertThat(r.decision().verdict()).isEqualTo(Verdict.NO_IMMEDIATE_RETRY);
      JsonNode receipt = Json.MAPPER.readTree(r.receiptFile().toFile());
      assertThat(receipt.path("attempt").asInt()).isEqualTo(2);
      assertThat(receipt.path("model").asText()).isEqualTo("gpt/sol-web-xhigh");
      assertThat(receipt.path("client_session").asText()).isEqualTo(attempt.session().value());
      assertThat(receipt.path("provider_failure").toString()).isEqualTo(
          "{\"kind\":\"capped\",\"detail\":\"usage cap\",\"retry_after_seconds\":120,\"resume_at\":\"2026-12-01T01:00:00Z\"}");
      assertThat(receipt.path("retry").path("resume_at").asText()).isEqualTo("2026-12-01T01:00:00Z");
      assertThat(server.requests()).hasSize(1);
      assertThat(server.requests().get(0).body()).contains("\"name\":\"read\"").contains("\"name\":\"write\"")
          .doesNotContain("\"name\":\"bash\"");
    }
  }
}

package dev.solweb.factory.receipt;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.solweb.factory.pi.PiRequest;
import dev.solweb.factory.pi.PiResult;
import dev.solweb.factory.pi.PiRunner;
import dev.solweb.factory.session.ClientSession;
import dev.solweb.factory.testing.FakeChatServer;
import dev.solweb.factory.testing.PiFixture;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.platform.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A token planted everywhere a run can carry it (Pi's stderr, a tool's output, the model's final
 * text, a header-like line) never reaches a receipt or a log on disk.
 */
class ReceiptRedactionTest {

  @TempDir Path tmp;

  @Test
  void noReceiptOrLogContainsThePlantedTokenOrAHeaderValue() throws Exception {
    String foreignBearer = "abcDEF1234567890zyx";
    try (FakeChatServer server = new FakeChatServer(PiFixture.TOKEN)) {
      PiFixture fx = new PiFixture(tmp, server.baseUrl());
      // Pi wrapped so its stderr carries the token and a header line, as a debug dump would.
      Path noisyPi = tmp.resolve("bin/noisy-pi");
      PiFixture.writeScript(noisyPi, "#!/bin/sh\necho \"token $(solwebctl token)\" >&2\n"
          + "echo 'Authorization: Bearer " + foreignBearer + "' >&2\nexec '" + fx.pi + "' \"$@\"\n");
      server.then(FakeChatServer.toolCall("bash", "{\"command\":\"cat $SOLWEBD_HOME/solwebd.token\"}"))
          .then(FakeChatServer.text("The token is " + PiFixture.TOKEN + "\nx-api-key: " + foreignBearer
              + "\n{\"status\":\"done\",\"leak\":\"" + PiFixture.TOKEN + "\"}"));
      Path logs = tmp.resolve("receipts/logs");
      ClientSession session = ClientSession.derive("redaction");
      PiRunner runner = new PiRunner(new PiRequest(noisyPi, fx.workspace, fx.accountDir, session,
          "gpt/sol-web-medium", PiRequest.DEFAULT_TOOLS, "leak it", Duration.ofSeconds(60),
          logs.resolve("pi.stderr.log"), fx.parentEnv(), Set.of(PiFixture.TOKEN)));

      PiResult result = runner.run(n -> { });
      assertThat(result.toolEvents().get(0).result()).as("the tool really read it").contains(PiFixture.TOKEN);
      Path file = new ReceiptWriter(tmp.resolve("receipts"), runner.redactor()).write(AttemptReceipt.of(
          new AttemptReceipt.Context(1, Effort.MEDIUM, "h", "a", session.value(), logs.resolve("pi.stderr.log").toString()),
          result));

      List<Path> written;
      try (Stream<Path> s = Files.walk(tmp.resolve("receipts"))) {
        written = s.filter(Files::isRegularFile).toList();
      }
      assertThat(written).hasSize(2);
      for (Path p : written) {
        String text = Files.readString(p);
        assertThat(text).as(p.toString()).doesNotContain(PiFixture.TOKEN).doesNotContain(foreignBearer)
            .contains(Redactor.MARK);
      }
      JsonNode receipt = Json.MAPPER.readTree(file.toFile());
      assertThat(receipt.path("report").path("leak").asText()).isEqualTo(Redactor.MARK);
      assertThat(receipt.path("client_session").asText()).isEqualTo(session.value());
      for (Path p : written) {
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(p))).as(p.toString()).isEqualTo("rw-------");
      }
    }
  }

  @Test
  void aRunWithoutAReportIsMarkedMissingAndBillingIsNeverAZeroCost() throws Exception {
    try (FakeChatServer server = new FakeChatServer(PiFixture.TOKEN)) {
      PiFixture fx = new PiFixture(tmp, server.baseUrl());
      server.then(FakeChatServer.text("no report here"));
      ClientSession session = ClientSession.derive("no-report");
      PiResult result = new PiRunner(new PiRequest(fx.pi, fx.workspace, fx.accountDir, session, "gpt/sol-web-pro",
          PiRequest.DEFAULT_TOOLS, "hi", Duration.ofSeconds(60), tmp.resolve("l/e.log"), fx.parentEnv(), Set.of()))
          .run(n -> { });
      AttemptReceipt r = AttemptReceipt.of(new AttemptReceipt.Context(3, Effort.PRO, "h", "a", session.value(), "l"), result);
      JsonNode json = Json.MAPPER.readTree(new ReceiptWriter(tmp.resolve("r"), Redactor.none()).render(r));

      assertThat(json.path("attempt").asInt()).isEqualTo(3);
      assertThat(json.path("model").asText()).isEqualTo("gpt/sol-web-pro");
      assertThat(json.path("effort").asText()).isEqualTo("pro");
      assertThat(json.has("report")).isTrue();
      assertThat(json.path("report").isNull()).isTrue();
      assertThat(json.path("report_missing").asBoolean()).isTrue();
      assertThat(json.path("billing").asText()).isEqualTo("unavailable");
      assertThat(json.toString()).doesNotContain("\"cost\"");
      assertThat(json.path("provider_failure").isNull()).isTrue();
      assertThat(json.path("context_occupancy").toString())
          .isEqualTo("{\"estimated\":true,\"input\":1200,\"output\":40,\"window\":120000}");
    }
  }
}

package dev.solweb.killgate.gate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.solweb.provider.platform.Json;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The kill gate on the other seat: solwebd's real Playwright seat driving fakesol in headless
 * Chromium (/usr/bin/chromium, installed by bin/test). Every check must pass and every control
 * must fail, as on the scripted seat.
 */
abstract class KillGateOnFakesol {

  static final Path REPO = Path.of("").toAbsolutePath().getParent();

  @TempDir Path reports;

  @Test
  void everyCheckPassesAndEveryControlFailsOnFakesol() throws Exception {
    Map<String, String> env = new HashMap<>(System.getenv());
    env.put("SOLWEB_ROOT", REPO.toString());
    CommandLine cl = KillGate.commandLine(env);
    StringWriter out = new StringWriter();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(out));
    int exit = cl.execute("--seat", "fakesol", "--report", reports.toString());
    JsonNode report = Json.MAPPER.readTree(reports.resolve("report.json").toFile());

    assertThat(report.path("checks")).as(out.toString()).hasSize(KillGate.all().size());
    for (JsonNode check : report.path("checks")) {
      String name = "check " + check.path("number").asInt() + ": " + check.path("summary").asText()
          + " / control: " + check.path("control").path("summary").asText();
      assertThat(check.path("verdict").asText()).as(name).isEqualTo("PASS");
      assertThat(check.path("control").path("failed_as_expected").asBoolean()).as(name).isTrue();
    }
    assertThat(report.path("seat").asText()).isEqualTo("fakesol");
    assertThat(report.path("rung").asText()).startsWith("accepted");
    assertThat(exit).as(out.toString()).isEqualTo(0);
  }
}

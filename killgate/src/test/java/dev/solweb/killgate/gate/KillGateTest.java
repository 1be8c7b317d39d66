package dev.solweb.killgate.gate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.solweb.provider.platform.Json;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The kill gate itself, in {@code mvn verify}: every check with the pinned real Pi against
 * solwebd on the scripted seat must pass and every negative control must fail; and a gate whose
 * controls are deliberately given the check's own input must say so (exit 1, rung "invalid").
 * Then the gate on fakesol and the long task, nested here so one test fork runs all of them one
 * after another: they mostly wait on Pi and the pages, and the other fork meanwhile runs the
 * CPU-heavy seat tests (two cores; CI time).
 */
class KillGateTest {

  static final Path REPO = Path.of("").toAbsolutePath().getParent();

  @TempDir Path reports;

  @Nested
  class OnFakesol extends KillGateOnFakesol {}

  @Nested
  class LongTasks extends LongTaskChecks {}

  private record Run(int exit, String out, JsonNode report) {}

  private Run gate(String... args) throws Exception {
    Map<String, String> env = new HashMap<>(System.getenv());
    env.put("SOLWEB_ROOT", REPO.toString());
    CommandLine cl = KillGate.commandLine(env);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    int exit = cl.execute(args);
    String text = out + "\n" + err;
    return new Run(exit, text, Json.MAPPER.readTree(reports.resolve("report.json").toFile()));
  }

  @Test
  void everyCheckPassesAndEveryControlFailsOnTheScriptedSeat() throws Exception {
    Run run = gate("--seat", "scripted", "--report", reports.toString());

    assertThat(run.report().path("checks")).as(run.out()).hasSize(KillGate.all().size());
    for (JsonNode check : run.report().path("checks")) {
      String name = "check " + check.path("number").asInt() + ": " + check.path("summary").asText()
          + " / control: " + check.path("control").path("summary").asText();
      assertThat(check.path("verdict").asText()).as(name).isEqualTo("PASS");
      assertThat(check.path("control").path("failed_as_expected").asBoolean()).as(name).isTrue();
      assertThat(check.path("agrees").asBoolean()).as(name).isTrue();
    }
    assertThat(run.report().path("all_agree").asBoolean()).isTrue();
    assertThat(run.report().path("rung").asText()).startsWith("accepted");
    assertThat(run.exit()).as(run.out()).isEqualTo(0);
    assertThat(reports.resolve("report.md")).content().contains("| 10 |").contains("| 11 |").contains("Decision ladder");
  }

  @Test
  void controlsGivenTheChecksOwnInputArePassesTheGateReports() throws Exception {
    Run run = gate("--seat", "scripted", "--only", "1,5,6,8,10,11", "--break", "1,5,6,8,10,11", "--report",
        reports.toString());

    assertThat(run.exit()).as(run.out()).isEqualTo(1);
    assertThat(run.report().path("checks")).hasSize(6);
    for (JsonNode check : run.report().path("checks")) {
      String name = "check " + check.path("number").asInt();
      assertThat(check.path("verdict").asText()).as(name).isEqualTo("PASS");
      assertThat(check.path("control").path("failed_as_expected").asBoolean()).as(name + " control").isFalse();
      assertThat(check.path("agrees").asBoolean()).as(name).isFalse();
    }
    assertThat(run.report().path("rung").asText()).startsWith("invalid");
  }
}

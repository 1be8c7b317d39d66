package dev.solweb.killgate.gate;

import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.platform.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * report.json and report.md: one row per check (verdict, evidence, control result), the
 * benchmark figures, and the decision-ladder rung reached (seed 001).
 */
final class Report {

  private Report() {}

  /** The rung: accepted, a ladder rung, or "invalid" when a control passed (the gate proved nothing). */
  static String rung(List<CheckResult> results, int expectedChecks) {
    List<Integer> errored = results.stream().filter(r -> r.summary().startsWith("gate error"))
        .map(CheckResult::number).toList();
    if (!errored.isEmpty()) {
      return "error: the gate could not run check(s) " + errored + "; no rung decided";
    }
    if (results.stream().anyMatch(r -> !r.controlFailed())) {
      return "invalid: a negative control passed, so its check cannot fail; fix the gate before trusting any verdict";
    }
    int all = KillGate.all().size();
    if (results.size() == all && results.stream().allMatch(CheckResult::agrees)) {
      return "accepted: all " + all + " checks pass and every negative control fails -> provider accepted (Approach 1)";
    }
    int rung = results.stream().filter(r -> !r.passed()).mapToInt(CheckResult::rungIfFailed).min().orElse(0);
    if (rung == 0) {
      return "partial: only " + results.size() + " of " + all + " checks ran (all that ran agree); no rung decided";
    }
    return switch (rung) {
      case 1 -> "rung 1: solwebd violates the semantics a check needs -> fix solwebd once, rerun";
      case 2 -> "rung 2: Pi's standard provider drops required metadata -> scoped Pi provider extension, rerun";
      default -> "rung 3: Pi cannot complete the contract -> record evidence, revise to Approach 2";
    };
  }

  static ObjectNode json(String seat, Instant started, long wallMs, List<CheckResult> results, String rung,
      String piVersion, List<String> notes) {
    ObjectNode root = Json.MAPPER.createObjectNode();
    root.put("schema", "solweb.killgate.report/v1");
    root.put("seat", seat);
    root.put("started_at", started.toString());
    root.put("wall_ms", wallMs);
    root.put("pi", piVersion);
    root.put("all_agree", results.stream().allMatch(CheckResult::agrees));
    root.put("rung", rung);
    ArrayNode checks = root.putArray("checks");
    for (CheckResult r : results) {
      ObjectNode c = checks.addObject();
      c.put("number", r.number()).put("title", r.title()).put("verdict", r.passed() ? "PASS" : "FAIL")
          .put("summary", r.summary());
      c.set("evidence", r.evidence());
      ObjectNode control = c.putObject("control");
      control.put("input", r.control()).put("failed_as_expected", r.controlFailed()).put("summary", r.controlSummary());
      control.set("evidence", r.controlEvidence());
      c.put("agrees", r.agrees()).put("wall_ms", r.wallMillis()).put("requests", r.requests());
      ArrayNode typed = c.putArray("typed_chars_per_turn");
      r.typedChars().forEach(typed::add);
    }
    ObjectNode bench = root.putObject("benchmark");
    bench.put("seat", seat).put("suite_wall_ms", wallMs);
    ObjectNode perCheck = bench.putObject("requests_per_check");
    ObjectNode typedPer = bench.putObject("typed_chars_per_turn");
    long typedSum = 0;
    long turns = 0;
    for (CheckResult r : results) {
      perCheck.put(Integer.toString(r.number()), r.requests());
      ArrayNode t = typedPer.putArray(Integer.toString(r.number()));
      r.typedChars().forEach(t::add);
      typedSum += r.typedChars().stream().mapToLong(Integer::longValue).sum();
      turns += r.typedChars().size();
    }
    bench.put("typed_chars_mean_per_turn", turns == 0 ? 0 : typedSum / turns);
    results.stream().filter(r -> r.number() == 4).findFirst()
        .ifPresent(r -> bench.set("pi_tool_step_overhead_ms", r.evidence().path("tool_step_overhead_ms")));
    ArrayNode n = root.putArray("notes");
    notes.forEach(n::add);
    return root;
  }

  static String markdown(ObjectNode report) {
    StringBuilder md = new StringBuilder();
    md.append("# Kill gate report (seat: ").append(report.path("seat").asText()).append(")\n\n");
    md.append("Started ").append(report.path("started_at").asText()).append(", wall ")
        .append(String.format("%.1f", report.path("wall_ms").asLong() / 1000.0)).append(" s, Pi ")
        .append(report.path("pi").asText()).append(".\n\n");
    md.append("| # | Check | Verdict | Evidence | Negative control | Control result |\n");
    md.append("|---|---|---|---|---|---|\n");
    for (var c : report.path("checks")) {
      var control = c.path("control");
      md.append("| ").append(c.path("number").asInt()).append(" | ").append(cell(c.path("title").asText()))
          .append(" | ").append(c.path("verdict").asText()).append(" | ").append(cell(c.path("summary").asText()))
          .append(" | ").append(cell(control.path("input").asText())).append(" | ")
          .append(control.path("failed_as_expected").asBoolean() ? "FAILED as expected: " : "PASSED (disagrees): ")
          .append(cell(control.path("summary").asText())).append(" |\n");
    }
    var bench = report.path("benchmark");
    md.append("\n## Benchmark (").append(bench.path("seat").asText()).append(")\n\n");
    md.append("- suite wall time: ").append(String.format("%.1f s", bench.path("suite_wall_ms").asLong() / 1000.0)).append('\n');
    md.append("- requests at solwebd per check (check + control): ").append(bench.path("requests_per_check")).append('\n');
    md.append("- typed characters per turn: mean ").append(bench.path("typed_chars_mean_per_turn").asLong())
        .append("; per check ").append(bench.path("typed_chars_per_turn")).append('\n');
    md.append("- Pi tool-step overhead (ms; next request start - tool-call response end - tool run time, check 4): ")
        .append(bench.path("pi_tool_step_overhead_ms")).append('\n');
    if (!report.path("notes").isEmpty()) {
      md.append("\n## Notes\n\n");
      report.path("notes").forEach(note -> md.append("- ").append(note.asText()).append('\n'));
    }
    md.append("\n## Decision ladder\n\n").append(report.path("rung").asText()).append('\n');
    md.append("\nFull evidence per check: report.json.\n");
    return md.toString();
  }

  private static String cell(String text) {
    return text.replace("|", "\\|").replace("\n", " ");
  }

  static void write(Path dir, ObjectNode report) throws IOException {
    Files.createDirectories(dir);
    Files.writeString(dir.resolve("report.json"),
        Json.MAPPER.copy().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(report) + "\n");
    Files.writeString(dir.resolve("report.md"), markdown(report));
  }
}

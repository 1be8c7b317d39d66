package dev.solweb.killgate.gate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.factory.session.ClientSession;
import dev.solweb.provider.platform.Json;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * 8. Cap metadata survives streaming: solwebd commits the stream (200, role chunk), then the cap
 * arrives as an in-stream error; the receipt's provider_failure must equal, field for field, the
 * ProviderFailure solwebd put in {@code error.metadata.raw} (kind, detail, retry_after_seconds,
 * resume_at), with the scripted resume_at. Control: a cap with a different resume_at must change
 * the receipt (the receipt no longer matches the first cap).
 */
final class Check08CapMetadata implements GateCheck {

  @Override
  public int number() {
    return 8;
  }

  @Override
  public String title() {
    return "Cap metadata survives streaming into the exact receipt";
  }

  @Override
  public CheckResult run(Gate gate) throws Exception {
    long t0 = System.currentTimeMillis();
    String first = Instant.now().plus(3, ChronoUnit.HOURS).truncatedTo(ChronoUnit.MINUTES).toString();
    String second = gate.isBroken(8) ? first
        : Instant.now().plus(5, ChronoUnit.HOURS).truncatedTo(ChronoUnit.MINUTES).toString();
    Seen main = capAt(gate, "check8", first);
    boolean passed = main.committed && main.exact && first.equals(main.receiptFailure.path("resume_at").asText())
        && main.receiptFailure.path("retry_after_seconds").asLong(-1) > 0 && main.requests == 1;
    Seen control = capAt(gate, "check8-control", second);
    boolean changed = !control.receiptFailure.path("resume_at").asText().equals(first)
        && !control.receiptFailure.equals(main.receiptFailure);
    main.evidence.put("scripted_resume_at", first);
    control.evidence.put("scripted_resume_at", second);
    return new CheckResult(number(), title(), passed,
        "stream committed (" + main.status + ", role chunk first) then in-stream cap; receipt provider_failure "
            + main.receiptFailure + (main.exact ? " equals" : " DIFFERS from") + " solwebd's metadata.raw",
        main.evidence, "a cap with resume_at " + second, changed,
        changed ? "receipt changed: resume_at " + control.receiptFailure.path("resume_at").asText()
            : "receipt unchanged", control.evidence, 2, System.currentTimeMillis() - t0,
        main.requests + control.requests, List.of());
  }

  private record Seen(boolean committed, boolean exact, JsonNode receiptFailure, int status, int requests,
      ObjectNode evidence) {}

  private static Seen capAt(Gate gate, String name, String resumeAt) throws Exception {
    try (Rig rig = gate.rig(name, Scenarios.defaults(Scenarios.fault("cap").put("resume_at", resumeAt)))) {
      Rig.Run run = rig.run(ClientSession.derive("killgate-" + name), "K8: hit the cap", Duration.ofSeconds(60));
      List<RecordingProxy.Exchange> requests = rig.proxy.completions();
      RecordingProxy.Exchange x = requests.get(0);
      boolean committed = x.status == 200 && !x.frames.isEmpty() && x.frames.get(0).data().contains("\"role\":\"assistant\"");
      JsonNode raw = Json.MAPPER.createObjectNode();
      for (RecordingProxy.Frame frame : x.frames) {
        if (frame.data().startsWith("{\"error\"")) {
          raw = Json.MAPPER.readTree(Json.MAPPER.readTree(frame.data()).path("error").path("metadata").path("raw").asText("{}"));
        }
      }
      JsonNode receipt = run.receipt().path("provider_failure");
      boolean exact = raw.path("kind").asText().equals("capped")
          && raw.path("kind").equals(receipt.path("kind")) && raw.path("detail").equals(receipt.path("detail"))
          && raw.path("resume_at").equals(receipt.path("resume_at"))
          && raw.path("retry_after_seconds").asLong(-2) == receipt.path("retry_after_seconds").asLong(-3);
      ObjectNode evidence = Gate.evidence();
      evidence.put("requests", requests.size()).put("http_status", x.status).put("stream_committed_before_error", committed)
          .put("frames", x.frames.size());
      evidence.set("solwebd_metadata_raw", raw);
      evidence.set("receipt_provider_failure", receipt);
      evidence.set("receipt_retry", run.receipt().path("retry"));
      evidence.put("receipt_equals_raw", exact);
      return new Seen(committed, exact, receipt, x.status, requests.size(), evidence);
    }
  }
}

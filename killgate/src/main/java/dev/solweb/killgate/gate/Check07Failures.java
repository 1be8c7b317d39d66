package dev.solweb.killgate.gate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.factory.pi.PiResult;
import dev.solweb.factory.pi.PiRunner;
import dev.solweb.factory.session.ClientSession;
import dev.solweb.provider.platform.Json;
import dev.solweb.provider.platform.Poll;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * 7. Typed failures with exact request counts at solwebd and the typed receipt for each, with the
 * shipped Pi settings (the materialized settings.json: agent and SDK retries off):
 * {@code capped} (429: in-stream after commit, then a fail-fast HTTP 429 before commit),
 * {@code unavailable} (503, in-stream), {@code protocol} (502, in-stream after the one repair),
 * {@code timeout} (504, in-stream; SOLWEBD_TURN_TIMEOUT=3 s here), client cancellation (PiRunner
 * cancels while the turn is in flight). Each must be exactly one request.
 * Control: the same faults through an agent dir with Pi's default settings; counts are recorded,
 * and must be higher in total (Pi's defaults retry what its classifier matches).
 */
final class Check07Failures implements GateCheck {

  static final int COPIES = 12;

  @Override
  public int number() {
    return 7;
  }

  @Override
  public String title() {
    return "429/503/502/504/cancel: exact request counts + typed receipts";
  }

  /** One fault: how it is scripted, the receipt kind expected. */
  private record Kind(String name, String status, String expectedKind) {}

  static final List<Kind> KINDS = List.of(
      new Kind("capped", "429 (in-stream)", "capped"),
      new Kind("capped-failfast", "429 (HTTP, before commit)", "capped"),
      new Kind("unavailable", "503 (in-stream)", "unavailable"),
      new Kind("protocol", "502 (in-stream)", "protocol"),
      new Kind("timeout", "504 (in-stream)", "timeout"),
      new Kind("cancelled", "499 (client cancel)", "cancelled"));

  @Override
  public CheckResult run(Gate gate) throws Exception {
    long t0 = System.currentTimeMillis();
    // The check and its control side by side: their own rigs, daemons and sessions; Pi's back-off overlaps.
    CompletableFuture<Map<String, Measured>> control = CompletableFuture.supplyAsync(() -> {
      try {
        return measure(gate, "check7-control", !gate.isBroken(7));
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    Map<String, Measured> shipped = measure(gate, "check7", false);
    Map<String, Measured> defaults = control.join();
    ObjectNode evidence = Gate.evidence();
    ObjectNode controlEvidence = Gate.evidence();
    boolean passed = true;
    int shippedTotal = 0;
    int defaultTotal = 0;
    boolean neverLower = true;
    StringBuilder summary = new StringBuilder();
    StringBuilder controlSummary = new StringBuilder();
    for (Kind kind : KINDS) {
      Measured s = shipped.get(kind.name());
      Measured d = defaults.get(kind.name());
      boolean ok = s.requests == 1 && kind.expectedKind().equals(s.receiptKind)
          && (s.seatReleasedMs == null || s.seatReleasedMs >= 0);
      passed &= ok;
      shippedTotal += s.requests;
      defaultTotal += d.requests;
      neverLower &= d.requests >= s.requests;
      evidence.set(kind.name(), s.json(kind));
      controlEvidence.set(kind.name(), d.json(kind));
      summary.append(kind.name()).append('=').append(s.requests).append(" (").append(s.receiptKind).append(") ");
      controlSummary.append(kind.name()).append('=').append(d.requests).append(' ');
    }
    boolean higher = defaultTotal > shippedTotal && neverLower;
    return new CheckResult(number(), title(), passed, "requests with shipped settings: " + summary.toString().trim(),
        evidence, "Pi's default settings (no settings.json: agent + SDK retries on)", higher,
        "requests with Pi defaults: " + controlSummary.toString().trim() + " (total " + defaultTotal + " vs "
            + shippedTotal + ")", controlEvidence, 2, System.currentTimeMillis() - t0, shippedTotal + defaultTotal,
        List.of());
  }

  private record Measured(int requests, String receiptKind, JsonNode failure, String outcome, long wallMs,
      List<Integer> statuses, Long seatReleasedMs) {
    ObjectNode json(Kind kind) {
      ObjectNode node = Gate.evidence();
      node.put("as", kind.status()).put("requests_at_solwebd", requests).put("http_statuses", statuses.toString())
          .put("outcome", outcome).put("receipt_kind", receiptKind).put("wall_ms", wallMs);
      if (seatReleasedMs != null) {
        node.put("solwebd_active_turns_0_after_ms", seatReleasedMs);
      }
      node.set("receipt_provider_failure", failure);
      return node;
    }
  }

  private static Map<String, Measured> measure(Gate gate, String name, boolean piDefaults) throws Exception {
    Map<String, Measured> out = new LinkedHashMap<>();
    ObjectNode scenario = Scenarios.scenario();
    for (int i = 0; i < COPIES; i++) {
      Scenarios.script(scenario, "K7-UNAV", Scenarios.fault("something_went_wrong"));
      Scenarios.script(scenario, "K7-PROTO", Scenarios.malformed(), Scenarios.malformed());
      Scenarios.script(scenario, "K7-TIMEOUT", Scenarios.fault("hang"));
    }
    ObjectNode slow = Scenarios.fin("too late");
    slow.put("delay_ms", 30_000);
    Scenarios.script(scenario, "K7-CANCEL", slow);
    // 8 s: the malformed case needs two sends, each completing only after the >= 1 s settle window (REAL-PAGE row 3).
    GateDaemon.Settings settings = GateDaemon.Settings.shipped().turnTimeout(Duration.ofSeconds(8));
    try (Rig rig = gate.rig(name, scenario.toString(), settings)) {
      Path agentDir = piDefaults ? rig.defaultSettingsAgentDir() : rig.accountDir;
      // Independent sessions run side by side: Pi's retry back-off (2+4+8 s) overlaps.
      List<CompletableFuture<Measured>> runs = new ArrayList<>();
      for (String kind : List.of("unavailable", "protocol", "timeout")) {
        String marker = switch (kind) {
          case "unavailable" -> "K7-UNAV";
          case "protocol" -> "K7-PROTO";
          default -> "K7-TIMEOUT";
        };
        runs.add(CompletableFuture.supplyAsync(() -> once(rig, agentDir, name + "-" + kind, marker + ": fail", null)));
      }
      for (int i = 0; i < runs.size(); i++) {
        out.put(List.of("unavailable", "protocol", "timeout").get(i), runs.get(i).join());
      }
      out.put("cancelled", once(rig, agentDir, name + "-cancel", "K7-CANCEL: wait", rig));
    }
    String cap = Scenarios.defaults(Scenarios.fault("cap").put("resume_in_s", 7200));
    try (Rig rig = gate.rig(name + "-cap", cap, settings)) {
      Path agentDir = piDefaults ? rig.defaultSettingsAgentDir() : rig.accountDir;
      out.put("capped", once(rig, agentDir, name + "-cap", "K7-CAP: hit the cap", null));
      out.put("capped-failfast", once(rig, agentDir, name + "-cap-failfast", "K7-CAP2: after the cap", null));
    }
    return out;
  }

  /**
   * After a client cancel: how long until solwebd's /healthz shows no active turn (the seat was
   * released: the dispatcher saw the disconnect and clicked Stop), or -1 when it did not within the bound.
   */
  private static long seatReleasedWithinMs(Rig rig, long boundMs) throws Exception {
    java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
    java.net.http.HttpRequest health = java.net.http.HttpRequest.newBuilder(
            java.net.URI.create("http://127.0.0.1:" + rig.daemon.port + "/healthz"))
        .header("Authorization", "Bearer " + rig.daemon.token()).build();
    long t0 = System.currentTimeMillis();
    return Poll.until(Duration.ofMillis(boundMs), Duration.ofMillis(100), () -> {
      String body = http.send(health, java.net.http.HttpResponse.BodyHandlers.ofString()).body();
      return Json.MAPPER.readTree(body).path("active").asInt(-1) == 0
          ? Optional.of(System.currentTimeMillis() - t0) : Optional.<Long>empty();
    }).orElse(-1L);
  }

  /** One Pi phase on its own client session; {@code cancelOn} set: cancelled once its request arrived. */
  private static Measured once(Rig rig, Path agentDir, String sessionName, String task, Rig cancelOn) {
    try {
      ClientSession session = ClientSession.derive("killgate-" + sessionName);
      long t0 = System.currentTimeMillis();
      PiRunner runner = rig.runner(session, task, Duration.ofSeconds(150), agentDir);
      CompletableFuture<Rig.Run> run = CompletableFuture.supplyAsync(() -> {
        try {
          return rig.run(runner, session);
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      if (cancelOn != null) {
        Poll.until(Duration.ofSeconds(60), Duration.ofMillis(50),
            () -> rig.proxy.completions(x -> session.value().equals(x.clientSession())).isEmpty()
                ? Optional.empty() : Optional.of(true));
        Thread.sleep(500);
        runner.cancel();
      }
      Rig.Run done = run.join();
      Long released = cancelOn == null ? null : seatReleasedWithinMs(rig, 10_000);
      List<RecordingProxy.Exchange> mine = rig.proxy.completions(x -> session.value().equals(x.clientSession()));
      PiResult r = done.result();
      JsonNode failure = done.receipt().path("provider_failure");
      return new Measured(mine.size(), failure.path("kind").asText(r.outcome().wireName()), failure,
          r.outcome().wireName(), System.currentTimeMillis() - t0, mine.stream().map(x -> x.status).toList(), released);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}

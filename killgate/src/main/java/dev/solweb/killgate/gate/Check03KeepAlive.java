package dev.solweb.killgate.gate;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.factory.pi.PiResult;
import dev.solweb.factory.session.ClientSession;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * 3. Streaming keep-alives: a 20 s turn streams keep-alive chunks and Pi neither times out nor
 * retries (exactly one request, completed). The daemon runs with a 2 s keep-alive interval
 * instead of the shipped 5 s, so the 20 s turn shows several (about nine) and a gap bound of
 * interval + 1.5 s is meaningful; the mechanism is the same. Control: keep-alives off
 * ({@code SOLWEBD_KEEPALIVE_S=0}) on an 8 s turn: the stream must be seen as silent.
 */
final class Check03KeepAlive implements GateCheck {

  static final Duration INTERVAL = Duration.ofSeconds(2);
  static final long TURN_MS = 20_000;
  static final long CONTROL_TURN_MS = 8_000;

  @Override
  public int number() {
    return 3;
  }

  @Override
  public String title() {
    return "Streaming keep-alives on a 20 s turn";
  }

  @Override
  public CheckResult run(Gate gate) throws Exception {
    long t0 = System.currentTimeMillis();
    Observed main = observe(gate, "check3", INTERVAL, TURN_MS);
    boolean passed = main.requests == 1 && main.outcome == PiResult.Outcome.COMPLETED && main.retries == 0
        && main.keepAlives >= 3 && main.maxGapMs <= INTERVAL.toMillis() + 1500;
    Observed control = observe(gate, "check3-control", gate.isBroken(3) ? INTERVAL : Duration.ZERO, CONTROL_TURN_MS);
    boolean silent = control.keepAlives == 0 && control.maxGapMs > INTERVAL.toMillis() + 1500;
    List<Integer> typed = new ArrayList<>(main.typed);
    typed.addAll(control.typed);
    return new CheckResult(number(), title(), passed,
        main.requests + " request, " + main.keepAlives + " keep-alives, max gap " + main.maxGapMs + " ms, outcome "
            + main.outcome.wireName() + ", Pi retries " + main.retries, main.evidence,
        "keep-alives off (SOLWEBD_KEEPALIVE_S=0), 8 s turn", silent,
        silent ? "silent: 0 keep-alives, max gap " + control.maxGapMs + " ms"
            : "not silent: " + control.keepAlives + " keep-alives, max gap " + control.maxGapMs + " ms",
        control.evidence, 1, System.currentTimeMillis() - t0, main.requests + control.requests, typed);
  }

  private record Observed(int requests, int keepAlives, long maxGapMs, PiResult.Outcome outcome, int retries,
      ObjectNode evidence, List<Integer> typed) {}

  private static Observed observe(Gate gate, String name, Duration keepAlive, long turnMs) throws Exception {
    ObjectNode reply = Scenarios.fin("slow answer {\"status\":\"done\"}");
    reply.put("delay_ms", turnMs);
    reply.put("stream_ms", Math.min(2000, turnMs / 4));
    try (Rig rig = gate.rig(name, Scenarios.defaults(reply), GateDaemon.Settings.shipped().keepAlive(keepAlive))) {
      Rig.Run run = rig.run(ClientSession.derive("killgate-" + name), "K3: answer slowly", Duration.ofSeconds(120));
      List<RecordingProxy.Exchange> requests = rig.proxy.completions();
      RecordingProxy.Exchange first = requests.isEmpty() ? null : requests.get(0);
      int keepAlives = first == null ? 0 : first.keepAlives().size();
      long gap = first == null ? 0 : first.maxGapMillis();
      ObjectNode evidence = Gate.evidence();
      evidence.put("keepalive_interval_ms", keepAlive.toMillis()).put("turn_ms", turnMs)
          .put("requests", requests.size()).put("status", first == null ? 0 : first.status)
          .put("frames", first == null ? 0 : first.frames.size()).put("keepalive_frames", keepAlives)
          .put("max_gap_ms", gap).put("pi_outcome", run.result().outcome().wireName())
          .put("pi_retries", run.result().retriesSeen())
          .put("receipt_outcome", run.receipt().path("outcome").asText());
      return new Observed(requests.size(), keepAlives, gap, run.result().outcome(), run.result().retriesSeen(),
          evidence, Checks.typed(rig.sends()));
    }
  }
}

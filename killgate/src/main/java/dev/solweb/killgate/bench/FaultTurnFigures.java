package dev.solweb.killgate.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.killgate.fakesol.FakeSol;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.scenario.Scenario;
import dev.solweb.provider.seat.SeatReply;
import dev.solweb.provider.seat.playwright.PlaywrightOptions;
import dev.solweb.provider.seat.playwright.PlaywrightSeat;
import dev.solweb.provider.seat.playwright.PlaywrightSeatFactory;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;

/**
 * bench-seat's premature completions: {@code --fault-turns} turns with the real page's DOM faults
 * and, in turn, each kind of stream fault and late-2026 page fault. A reply that is not the turn's
 * final answer (or any reply to a cut turn) completed too early; reported per kind with the
 * answer source the seat used.
 */
final class FaultTurnFigures {

  private static final ObjectMapper JSON = dev.solweb.provider.platform.Json.MAPPER;

  private final String dom;
  private final int faultTurns;
  private final Path chromium;
  private final PrintWriter out;

  FaultTurnFigures(String dom, int faultTurns, Path chromium, PrintWriter out) {
    this.dom = dom;
    this.faultTurns = faultTurns;
    this.chromium = chromium;
    this.out = out;
  }

  /**
   * A kind of fault turn: every one has the real page's DOM faults (a settled Pro preamble, then a
   * thinking phase whose finished-action bar flashes, no /c/&lt;id&gt; in the address bar, a
   * windowed thread, the composer that drops untrusted input); all but the first add a stream fault.
   *
   * @param stream the reply's {@code stream} object, or null
   * @param page more of the reply's page fields (REAL-PAGE rows 14, 19), or null
   * @param cut the stream ends mid-answer: the seat must fail the turn (unavailable), never return it
   */
  private record FaultKind(String name, String stream, String page, boolean cut) {}

  private static final List<FaultKind> FAULT_KINDS = List.of(
      new FaultKind("DOM faults only", null, null, false),
      new FaultKind("stream ended before its terminal frames", "{\"fault\": \"cut\"}", null, true),
      new FaultKind("long silence, then /resume", "{\"fault\": \"silence_resume\", \"silence_ms\": 600}", null, false),
      new FaultKind("handoff to a WebSocket", "{\"fault\": \"handoff_ws\"}", null, false),
      new FaultKind("handoff never followed", "{\"fault\": \"handoff_unfollowed\"}", null, false),
      new FaultKind("follow-up re-sends older finished messages", "{\"resend_older\": true}", null, false),
      new FaultKind("turn-state wrapper stuck at in_progress", null, "{\"turn_state_stuck\": true}", false),
      new FaultKind("safety review mid-answer", null, "{\"safety_review_ms\": 900}", false),
      new FaultKind("connection interrupted, then recovered", null, "{\"connection_interrupted_ms\": 900}", false),
      new FaultKind("connection interrupted, handoff never followed", "{\"fault\": \"handoff_unfollowed\"}",
          "{\"connection_interrupted_ms\": 900}", false));

  /** What the fault turns of one kind came to. */
  private static final class FaultTally {
    int turns;
    int premature;
    final java.util.Map<String, Integer> outcomes = new java.util.TreeMap<>();

    void count(String outcome) {
      outcomes.merge(outcome, 1, Integer::sum);
    }
  }

  /** Runs the fault turns on a fresh fakesol and profile under {@code home} and prints the figures. */
  void report(Path home) throws Exception {
    ObjectNode scenario = JSON.createObjectNode().put("dom", dom).put("windowed_turns", 6);
    ArrayNode replies = scenario.putArray("default");
    for (int i = 0; i < faultTurns + 1; i++) {
      ObjectNode r = replies.addObject().put("prose", "final answer " + i).put("preamble", "Let me think about that.")
          .put("preamble_ms", 1100).put("thinking_ms", 1300).put("flash_action_bar", true).put("no_durable_url", true);
      FaultKind kind = i == 0 ? null : faultKind(i);
      if (kind != null && kind.stream() != null) {
        r.set("stream", JSON.readTree(kind.stream()));
      }
      if (kind != null && kind.page() != null) {
        r.setAll((ObjectNode) JSON.readTree(kind.page()));
      }
    }
    java.util.Map<String, FaultTally> tallies = new java.util.LinkedHashMap<>();
    FAULT_KINDS.forEach(k -> tallies.put(k.name(), new FaultTally()));
    try (FakeSol sol = FakeSol.start(Scenario.parse(scenario.toString()), 0);
         PlaywrightSeatFactory factory = PlaywrightSeatFactory.create(new PlaywrightOptions(sol.url(), true, chromium, null, home))) {
      PlaywrightSeat seat = factory.create(0);
      seat.openNew();
      seat.setEffort(Effort.PRO);
      String url = seat.send("warm up").conversationUrl();
      int premature = 0;
      for (int i = 1; i <= faultTurns; i++) {
        FaultKind kind = faultKind(i);
        FaultTally tally = tallies.get(kind.name());
        tally.turns++;
        seat.probe();
        seat.resume(url);
        seat.setEffort(Effort.PRO);
        try {
          SeatReply reply = seat.send("turn " + i);
          tally.count(reply.source().name().toLowerCase(java.util.Locale.ROOT));
          if (kind.cut() || !reply.prose().equals("final answer " + i)) {
            premature++;
            tally.premature++;
          }
        } catch (dev.solweb.provider.seat.SeatException e) {
          tally.count(e.failure().kind().name().toLowerCase(java.util.Locale.ROOT));
          SeatBench.check(kind.cut(), "turn " + i + " (" + kind.name() + ") failed: " + e.getMessage());
        }
      }
      SeatBench.check(sol.sends().size() == faultTurns + 1, "sends " + sol.sends().size() + " for " + (faultTurns + 1) + " turns");
      out.printf("premature completions with the real page's DOM faults and the stream faults: %d of %d turns "
          + "(every send once: %d sends)%n", premature, faultTurns, sol.sends().size());
      tallies.forEach((name, t) -> out.printf("  %-45s %3d turns, %d premature, outcomes %s%n", name + ":", t.turns,
          t.premature, t.outcomes));
      seat.close();
    }
  }

  private static FaultKind faultKind(int turn) {
    return FAULT_KINDS.get((turn - 1) % FAULT_KINDS.size());
  }
}

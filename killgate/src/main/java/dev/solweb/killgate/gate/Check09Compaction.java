package dev.solweb.killgate.gate;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.factory.pi.Compaction;
import dev.solweb.factory.pi.PiResult;
import dev.solweb.factory.session.ClientSession;
import dev.solweb.provider.scenario.ScenarioPlayer;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * 9. Context: in one Pi session, four prompts of ~30 KB each take solwebd's estimate over the
 * budget at the fourth (estimated input + output + 16000 reserved > 120000), so solwebd refuses
 * that send with a typed context_overflow (nothing typed); Pi compacts (reason overflow): it keeps
 * its recent compaction.keepRecentTokens (15000 of its chars/4 tokens, shipped: the last two
 * prompts, docs/compaction.md) and summarizes the rest in a summary request that opens its own
 * conversation; the retried prompt, its history now
 * rewritten, is replayed into a FRESH browser conversation carrying the summary, with the same
 * X-Overdeck-Client-Session. Shipped values only (models.json window 120000, maxTokens 16000).
 * Control: the same four prompts at ~3 KB must not compact.
 *
 * <p>Measured on the way (first version of this check, Pi's default keepRecentTokens 20000): two
 * prompts of ~50 KB do NOT recover. Pi keeps 20000 of its tokens, about 80 KB, so it summarizes
 * almost nothing and its retry is the same ~107 KB, refused again; Pi then gives up after its one
 * compaction per prompt. Issue 16's LongTask is the long-task proof.
 */
final class Check09Compaction implements GateCheck {

  static final int BIG = 30_000;
  static final int SMALL = 3_000;
  static final int PROMPTS = 4;

  @Override
  public int number() {
    return 9;
  }

  @Override
  public String title() {
    return "Context budget -> Pi compaction -> replay into a fresh conversation";
  }

  @Override
  public CheckResult run(Gate gate) throws Exception {
    long t0 = System.currentTimeMillis();
    RunOutcome main = twoPrompts(gate, "check9", BIG);
    RunOutcome control = twoPrompts(gate, "check9-control", gate.isBroken(9) ? BIG : SMALL);
    return RunOutcome.verdict(this, main, "the same four prompts at ~3 KB each", control,
        control.passed() ? "compacted (it should not)" : "no compaction: " + control.summary(), 3, t0);
  }

  private static RunOutcome twoPrompts(Gate gate, String name, int size) throws Exception {
    ObjectNode scenario = Scenarios.scenario();
    // Order matters: a new conversation takes the first unused script its first text matches.
    Scenarios.script(scenario, "K9-STEP1", Scenarios.fin("ack 1"), Scenarios.fin("ack 2"), Scenarios.fin("ack 3"),
        Scenarios.fin("done without compaction"));
    Scenarios.script(scenario, "summarization", Scenarios.fin("## Goal\nK9-SUMMARY: keep answering the K9 steps."));
    Scenarios.script(scenario, "K9-SUMMARY", Scenarios.fin("done after compaction"));
    ClientSession session = ClientSession.derive("killgate-" + name);
    try (Rig rig = gate.rig(name, scenario.toString())) {
      List<PiResult> earlier = new java.util.ArrayList<>();
      PiResult two;
      try (PiSession pi = new PiSession(rig, session, false, rig.dir.resolve("logs/pi.stderr.log"))) {
        for (int i = 1; i < PROMPTS; i++) {
          earlier.add(pi.prompt("K9-STEP" + i + ": remember this data.\n" + blob(size, (char) ('a' + i)),
              Duration.ofSeconds(120)));
        }
        two = pi.prompt("K9-STEP" + PROMPTS + ": and this data, then answer.\n" + blob(size, 'z'),
            Duration.ofSeconds(180));
      }
      List<RecordingProxy.Exchange> requests = rig.proxy.completions();
      List<ScenarioPlayer.Send> sends = rig.sends();
      boolean overflowSeen = requests.stream().anyMatch(x -> x.responseText().contains("context_overflow"));
      List<Compaction> compactions = two.compactions();
      boolean compacted = compactions.stream().anyMatch(c -> "overflow".equals(c.reason()) && c.willRetry());
      String firstConversation = sends.isEmpty() ? "" : sends.get(0).conversationId();
      ScenarioPlayer.Send last = sends.isEmpty() ? null : sends.get(sends.size() - 1);
      boolean freshReplay = last != null && !last.conversationId().equals(firstConversation)
          && last.text().contains("K9-SUMMARY") && last.text().contains("K9-STEP" + PROMPTS);
      Set<String> identities = new TreeSet<>();
      requests.forEach(x -> identities.add(String.valueOf(x.clientSession())));
      boolean identityKept = identities.size() == 1 && identities.contains(session.value());
      boolean passed = overflowSeen && compacted && freshReplay && identityKept
          && two.outcome() == PiResult.Outcome.COMPLETED && "done after compaction".equals(two.finalText());
      ObjectNode evidence = Gate.evidence();
      evidence.put("prompt_bytes_each", size).put("requests", requests.size())
          .put("solwebd_refused_with_context_overflow", overflowSeen)
          .put("pi_outcomes", earlier.stream().map(r -> r.outcome().wireName()).toList() + " then "
              + two.outcome().wireName())
          .put("final_text", two.finalText()).put("estimated_input_reported", two.estimatedInput());
      ArrayNode c = evidence.putArray("pi_compactions");
      compactions.forEach(x -> c.addObject().put("reason", x.reason()).put("will_retry", x.willRetry())
          .put("aborted", x.aborted()));
      ArrayNode s = evidence.putArray("seat_sends");
      for (ScenarioPlayer.Send send : sends) {
        s.add("conversation " + send.conversationId().substring(0, 8) + ": " + send.text().length() + " chars"
            + (send.text().contains("K9-SUMMARY") ? " (carries the summary)" : "")
            + (send.text().contains("summarization") ? " (summary request)" : ""));
      }
      evidence.put("replay_into_fresh_conversation", freshReplay);
      ArrayNode ids = evidence.putArray("client_sessions_at_solwebd");
      identities.forEach(ids::add);
      for (RecordingProxy.Exchange x : requests) {
        evidence.withArray("request_sizes").add(x.body.length());
      }
      String summary = requests.size() + " requests; overflow " + overflowSeen + "; compactions "
          + compactions.stream().map(Compaction::reason).toList() + "; replay into fresh conversation " + freshReplay
          + "; one client identity " + identityKept;
      return new RunOutcome(passed, summary, evidence, requests.size(), Checks.typed(sends));
    }
  }

  static String blob(int size, char seed) {
    StringBuilder sb = new StringBuilder(size + 100);
    long x = seed * 7919L;
    while (sb.length() < size) {
      x = x * 6364136223846793005L + 1442695040888963407L;
      sb.append((char) ('a' + (int) ((x >>> 33) % 26)));
      if (sb.length() % 80 == 0) {
        sb.append('\n');
      }
    }
    return sb.toString();
  }
}

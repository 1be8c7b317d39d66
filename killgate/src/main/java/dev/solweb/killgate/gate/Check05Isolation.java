package dev.solweb.killgate.gate;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.factory.pi.PiResult;
import dev.solweb.factory.session.ClientSession;
import dev.solweb.provider.scenario.ScenarioPlayer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;

/**
 * 5. Two byte-identical concurrent prompts from two Pi sessions (two client-session values) stay
 * in two distinct browser conversations. Control: the proxy removes X-Overdeck-Client-Session
 * from both; the same two prompts must then collide into one conversation, which proves the
 * header is what separates them.
 */
final class Check05Isolation implements GateCheck {

  static final String TASK = "K5: answer the identical task";

  @Override
  public int number() {
    return 5;
  }

  @Override
  public String title() {
    return "Identical concurrent prompts, different sessions -> two conversations";
  }

  @Override
  public CheckResult run(Gate gate) throws Exception {
    long t0 = System.currentTimeMillis();
    Pair main = runPair(gate, "check5", false);
    boolean passed = main.results.stream().allMatch(r -> r.outcome() == PiResult.Outcome.COMPLETED)
        && main.requests == 2 && main.bodiesIdentical && main.distinctHeaders == 2 && main.conversations == 2;
    Pair control = runPair(gate, "check5-control", !gate.isBroken(5));
    boolean collided = control.conversations == 1 && control.bodiesIdentical;
    List<Integer> typed = new ArrayList<>(main.typed);
    typed.addAll(control.typed);
    return new CheckResult(number(), title(), passed,
        main.requests + " byte-identical requests (" + main.distinctHeaders + " distinct client sessions) -> "
            + main.conversations + " browser conversations, " + main.sends + " sends", main.evidence,
        "X-Overdeck-Client-Session removed by the proxy", collided,
        (collided ? "collided: " : "did not collide: ") + control.requests + " requests -> " + control.conversations
            + " conversation(s), " + control.sends + " send(s)", control.evidence, 1,
        System.currentTimeMillis() - t0, main.requests + control.requests, typed);
  }

  private record Pair(List<PiResult> results, int requests, boolean bodiesIdentical, int distinctHeaders,
      int conversations, int sends, ObjectNode evidence, List<Integer> typed) {}

  private static Pair runPair(Gate gate, String name, boolean dropHeader) throws Exception {
    ObjectNode reply = Scenarios.fin("identical answer {\"status\":\"done\"}");
    reply.put("delay_ms", 1500);
    try (Rig rig = gate.rig(name, Scenarios.defaults(reply))) {
      if (dropHeader) {
        rig.proxy.dropHeader("X-Overdeck-Client-Session");
      }
      ClientSession a = ClientSession.derive("killgate-" + name + "-A");
      ClientSession b = ClientSession.derive("killgate-" + name + "-B");
      CompletableFuture<Rig.Run> ra = async(rig, a);
      CompletableFuture<Rig.Run> rb = async(rig, b);
      List<PiResult> results = List.of(ra.join().result(), rb.join().result());
      List<RecordingProxy.Exchange> requests = rig.proxy.completions();
      Set<String> bodies = new TreeSet<>();
      Set<String> headers = new TreeSet<>();
      for (RecordingProxy.Exchange x : requests) {
        bodies.add(sha256(x.body));
        headers.add(String.valueOf(x.clientSession()));
      }
      Set<String> conversations = new TreeSet<>();
      rig.sends().stream().map(ScenarioPlayer.Send::conversationId).forEach(conversations::add);
      ObjectNode evidence = Gate.evidence();
      evidence.put("header_removed_by_proxy", dropHeader).put("requests", requests.size())
          .put("distinct_request_bodies", bodies.size());
      ArrayNode h = evidence.putArray("client_session_headers_at_solwebd");
      requests.forEach(x -> h.add(x.clientSession() == null ? "(absent)" : x.clientSession()));
      evidence.put("browser_conversations_opened", rig.daemon.conversationsOpened()).put("seat_sends", rig.sends().size());
      ArrayNode outcomes = evidence.putArray("pi_outcomes");
      results.forEach(r -> outcomes.add(r.outcome().wireName() + ": " + r.finalText()));
      int distinctHeaders = (int) requests.stream().map(RecordingProxy.Exchange::clientSession)
          .filter(v -> v != null).distinct().count();
      return new Pair(results, requests.size(), bodies.size() == 1 && requests.size() == 2, distinctHeaders,
          rig.daemon.conversationsOpened(), rig.sends().size(), evidence, Checks.typed(rig.sends()));
    }
  }

  private static CompletableFuture<Rig.Run> async(Rig rig, ClientSession session) {
    return CompletableFuture.supplyAsync(() -> {
      try {
        return rig.run(session, TASK, Duration.ofSeconds(120));
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
  }

  static String sha256(String text) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}

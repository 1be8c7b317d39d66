package dev.solweb.killgate.gate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.factory.pi.PiResult;
import dev.solweb.factory.session.ClientSession;
import dev.solweb.provider.platform.Json;
import dev.solweb.provider.scenario.ScenarioPlayer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

/**
 * 6. Same-session continuation resumes the same conversation: Pi's second prompt in one session
 * makes solwebd type only the delta (no replay) into the first conversation, and a client re-send
 * of that answered request (the exact body and client session, as a retry would send it) causes
 * no browser send. Control: the same request with the first answer rewritten must cause exactly
 * one send, a full replay into a fresh conversation.
 */
final class Check06Resume implements GateCheck {

  @Override
  public int number() {
    return 6;
  }

  @Override
  public String title() {
    return "Same-session retry resumes: delta only; answered re-send -> no browser send";
  }

  @Override
  public CheckResult run(Gate gate) throws Exception {
    long t0 = System.currentTimeMillis();
    ObjectNode scenario = Scenarios.scenario();
    Scenarios.script(scenario, "K6-FIRST", Scenarios.fin("first answer"), Scenarios.fin("second answer"));
    Scenarios.script(scenario, "K6-FIRST", Scenarios.fin("replayed answer"));
    ClientSession session = ClientSession.derive("killgate-check6");
    try (Rig rig = gate.rig("check6", scenario.toString())) {
      ObjectNode evidence = Gate.evidence();
      PiResult one;
      PiResult two;
      try (PiSession pi = new PiSession(rig, session, false, rig.dir.resolve("logs/pi.stderr.log"))) {
        one = pi.prompt("K6-FIRST: the first step", Duration.ofSeconds(90));
        two = pi.prompt("K6-SECOND: the second step", Duration.ofSeconds(90));
      }
      List<ScenarioPlayer.Send> sends = rig.sends();
      evidence.put("pi_outcomes", one.outcome().wireName() + ", " + two.outcome().wireName())
          .put("pi_final_texts", one.finalText() + " | " + two.finalText());
      boolean twoSends = sends.size() == 2;
      ScenarioPlayer.Send first = twoSends ? sends.get(0) : null;
      ScenarioPlayer.Send second = twoSends ? sends.get(1) : null;
      boolean sameConversation = twoSends && first.conversationId().equals(second.conversationId());
      boolean deltaOnly = twoSends && second.text().contains("K6-SECOND") && !second.text().contains("K6-FIRST");
      evidence.put("seat_sends_after_two_prompts", sends.size()).put("same_conversation", sameConversation)
          .put("second_send_chars", twoSends ? second.text().length() : -1)
          .put("first_send_chars", twoSends ? first.text().length() : -1)
          .put("second_send_has_no_replay_of_first_prompt", deltaOnly);

      List<RecordingProxy.Exchange> requests = rig.proxy.completions();
      RecordingProxy.Exchange answered = requests.get(requests.size() - 1);
      Reply resend = post(rig, answered.body, answered.clientSession());
      int sendsAfterResend = rig.sends().size();
      boolean noBrowserSend = sendsAfterResend == sends.size() && resend.status == 200
          && resend.text.contains("second answer");
      evidence.put("resend_status", resend.status).put("resend_answer_from_memory", resend.text.contains("second answer"))
          .put("seat_sends_after_resend", sendsAfterResend);
      boolean passed = one.outcome() == PiResult.Outcome.COMPLETED && two.outcome() == PiResult.Outcome.COMPLETED
          && twoSends && sameConversation && deltaOnly && noBrowserSend;

      // Control: the answered history with its first answer rewritten.
      ObjectNode body = (ObjectNode) Json.MAPPER.readTree(answered.body);
      if (!gate.isBroken(6)) {
        for (JsonNode message : (ArrayNode) body.get("messages")) {
          if ("assistant".equals(message.path("role").asText())) {
            ((ObjectNode) message).put("content", "a rewritten first answer");
            break;
          }
        }
      }
      Reply rewritten = post(rig, body.toString(), answered.clientSession());
      List<ScenarioPlayer.Send> after = rig.sends();
      int newSends = after.size() - sendsAfterResend;
      ScenarioPlayer.Send replay = newSends == 1 ? after.get(after.size() - 1) : null;
      boolean freshReplay = replay != null && !replay.conversationId().equals(first.conversationId())
          && replay.text().contains("K6-FIRST") && replay.text().contains("K6-SECOND");
      ObjectNode controlEvidence = Gate.evidence();
      controlEvidence.put("status", rewritten.status).put("new_seat_sends", newSends)
          .put("fresh_conversation", replay != null && !replay.conversationId().equals(first.conversationId()))
          .put("replay_chars", replay == null ? -1 : replay.text().length())
          .put("replay_contains_whole_history", freshReplay)
          .put("answer", rewritten.text.contains("replayed answer") ? "replayed answer" : "(other)");
      return new CheckResult(number(), title(), passed,
          "2 sends in one conversation; 2nd typed " + (twoSends ? second.text().length() : -1) + " chars (1st "
              + (twoSends ? first.text().length() : -1) + "), no replay; re-send answered from memory with "
              + (sendsAfterResend - sends.size()) + " browser sends", evidence,
          "the same request with the first assistant answer rewritten", freshReplay,
          freshReplay ? "exactly one replay (" + replay.text().length() + " chars) into a fresh conversation"
              : "no fresh replay: " + newSends + " new send(s)", controlEvidence, 1,
          System.currentTimeMillis() - t0, rig.proxy.completions().size(), Checks.typed(after));
    }
  }

  record Reply(int status, String text) {}

  /** A request straight to solwebd (through the recording proxy), as a client retry would send it. */
  static Reply post(Rig rig, String body, String clientSession) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(rig.proxy.baseUrl() + "/chat/completions"))
        .header("Authorization", "Bearer " + rig.daemon.token())
        .header("Content-Type", "application/json")
        .timeout(Duration.ofSeconds(60))
        .POST(HttpRequest.BodyPublishers.ofString(body));
    if (clientSession != null) {
      request.header("X-Overdeck-Client-Session", clientSession);
    }
    HttpResponse<String> response = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()
        .send(request.build(), HttpResponse.BodyHandlers.ofString());
    return new Reply(response.statusCode(), response.body());
  }
}

package dev.solweb.killgate.gate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.factory.pi.PiResult;
import dev.solweb.factory.session.ClientSession;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

/**
 * 2. Bearer authentication works (401 without or with a wrong token, 200 with it; every Pi request
 * carried Authorization), and the token is absent from Pi's and its bash tool's
 * {@code /proc/<pid>/cmdline} and {@code environ} read while they run, from the prompts (request
 * bodies and what the seat typed), Pi's session file, the receipt and solwebd's log and home.
 * Same-user read access is documented, not denied: {@code solwebctl token} prints it.
 * Control: a tool that plants the token in its own environment must be detected.
 */
final class Check02Token implements GateCheck {

  @Override
  public int number() {
    return 2;
  }

  @Override
  public String title() {
    return "Bearer auth; token absent from argv/env/prompts/sessions/receipts/logs";
  }

  @Override
  public CheckResult run(Gate gate) throws Exception {
    long t0 = System.currentTimeMillis();
    String scenario = Scenarios.script(Scenarios.script(Scenarios.scenario(), "K2-TASK",
            Scenarios.tool("bash", Scenarios.args().put("command", "echo tool-ran; sleep 4; echo tool-done")),
            Scenarios.fin("checked {\"status\":\"done\"}")),
        "K2-CONTROL",
        Scenarios.tool("bash", Scenarios.args().put("command",
            gate.isBroken(2) ? "sleep 4; echo planted-nothing" : "KILLGATE_PLANTED=$(solwebctl token) sleep 4; echo planted")),
        Scenarios.fin("control {\"status\":\"done\"}")).toString();
    try (Rig rig = gate.rig("check2", scenario)) {
      String token = rig.daemon.token();
      ObjectNode evidence = Gate.evidence();

      // Bearer on the daemon itself.
      HttpClient http = HttpClient.newHttpClient();
      URI models = URI.create("http://127.0.0.1:" + rig.daemon.port + "/v1/models");
      int none = http.send(HttpRequest.newBuilder(models).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
      int wrong = http.send(HttpRequest.newBuilder(models).header("Authorization", "Bearer not-the-token").build(),
          HttpResponse.BodyHandlers.discarding()).statusCode();
      int right = http.send(HttpRequest.newBuilder(models).header("Authorization", "Bearer " + token).build(),
          HttpResponse.BodyHandlers.discarding()).statusCode();
      evidence.putObject("bearer").put("no_header", none).put("wrong_token", wrong).put("right_token", right);

      ClientSession session = ClientSession.derive("killgate-check2");
      Watch main = runWatched(rig, session, "K2-TASK: run the tool", token, "main");
      rig.receipt(session, main.result);
      ObjectNode runEvidence = main.evidence;
      evidence.set("pi_run", runEvidence);
      List<RecordingProxy.Exchange> requests = rig.proxy.completions();
      boolean allAuthorized = !requests.isEmpty() && requests.stream().allMatch(x -> x.authorizationPresent && x.status == 200);
      evidence.put("pi_requests", requests.size()).put("pi_requests_with_authorization", requests.stream()
          .filter(x -> x.authorizationPresent).count());

      // Files and texts the token must never reach.
      ArrayNode searched = evidence.putArray("searched");
      List<String> leaks = new ArrayList<>();
      for (RecordingProxy.Exchange x : requests) {
        note(searched, leaks, "request body #" + x.index, x.body, token);
      }
      rig.sends().forEach(s -> note(searched, leaks, "seat typed (" + s.text().length() + " chars)", s.text(), token));
      for (Path file : files(rig.accountDir.resolve("sessions"))) {
        note(searched, leaks, "pi session " + rig.dir.relativize(file), Files.readString(file), token);
      }
      for (Path file : files(rig.receipts)) {
        note(searched, leaks, "receipt " + file.getFileName(), Files.readString(file), token);
      }
      for (Path file : files(rig.dir.resolve("logs"))) {
        note(searched, leaks, "pi stderr " + file.getFileName(), Files.readString(file), token);
      }
      for (Path file : files(rig.daemon.home)) {
        if (!file.getFileName().toString().equals("solwebd.token") && !file.toString().contains("/profile/")) {
          note(searched, leaks, "solwebd home " + rig.daemon.home.relativize(file), Files.readString(file), token);
        }
      }
      boolean sessionFileSeen = !files(rig.accountDir.resolve("sessions")).isEmpty();
      evidence.put("pi_session_file_written", sessionFileSeen);
      evidence.set("leaks", gateArray(leaks));

      // Same-user read access: documented, not denied.
      Proc ctl = Proc.run(List.of(gate.repo.resolve("bin/solwebctl").toString(), "token"),
          Map.of("SOLWEBD_HOME", rig.daemon.home.toString(), "PATH", System.getenv("PATH"), "HOME",
              rig.dir.resolve("home").toString()), rig.dir, 30);
      boolean sameUserReads = ctl.exit() == 0 && ctl.stdout().strip().equals(token);
      evidence.put("same_user_solwebctl_token", sameUserReads
          ? "exit 0, prints the token (documented: same-user tools can read it; no sandbox is claimed)"
          : "exit " + ctl.exit() + " (unexpected)");

      boolean passed = none == 401 && wrong == 401 && right == 200 && allAuthorized && main.piSeen && main.toolSeen
          && !main.secretInProcs && leaks.isEmpty() && sessionFileSeen && sameUserReads
          && main.result.outcome() == PiResult.Outcome.COMPLETED;

      // Control: a tool that reads the token and puts it in its own environment.
      Watch control = runWatched(rig, ClientSession.derive("killgate-check2-control"),
          "K2-CONTROL: plant the token", token, "control");
      boolean detected = control.secretInProcs;
      int requestsTotal = rig.proxy.completions().size();
      return new CheckResult(number(), title(), passed,
          "401/401/200 on no/wrong/right bearer; " + requests.size() + " Pi requests all authorized; "
              + main.processes + " processes scanned (Pi " + main.piSeen + ", tool " + main.toolSeen
              + "), token in none; " + searched.size() + " texts/files searched, leaks: " + leaks.size(),
          evidence, "a bash tool runs KILLGATE_PLANTED=$(solwebctl token) sleep 4", detected,
          detected ? "detected: token found in a tool process's environ" : "NOT detected", control.evidence,
          1, System.currentTimeMillis() - t0, requestsTotal, Checks.typed(rig.sends()));
    }
  }

  /** A Pi run watched through /proc while it lasts. */
  private record Watch(PiResult result, ObjectNode evidence, boolean piSeen, boolean toolSeen, boolean secretInProcs,
      int processes) {}

  private static Watch runWatched(Rig rig, ClientSession session, String task, String token, String name)
      throws Exception {
    String marker = "PI_CODING_AGENT_DIR=" + rig.accountDir.toAbsolutePath();
    try (PiSession pi = new PiSession(rig, session, true, rig.dir.resolve("logs/pi-" + name + ".stderr.log"))) {
      CompletableFuture<PiResult> run = CompletableFuture.supplyAsync(() -> {
        try {
          return pi.prompt(task, Duration.ofSeconds(90));
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      Map<Long, ProcScan.Seen> seen = ProcScan.watch(marker, token, run::isDone);
      PiResult result = run.join();
      ObjectNode evidence = Gate.evidence();
      evidence.put("outcome", result.outcome().wireName());
      ArrayNode procs = evidence.putArray("processes");
      boolean piSeen = false;
      boolean toolSeen = false;
      boolean secret = false;
      for (ProcScan.Seen s : seen.values()) {
        procs.addObject().put("pid", s.pid()).put("comm", s.comm())
            .put("cmdline", s.cmdline().length() > 120 ? s.cmdline().substring(0, 120) + "..." : s.cmdline())
            .put("token_in_cmdline", s.secretInCmdline()).put("token_in_environ", s.secretInEnviron());
        piSeen |= s.pid() == pi.pid() || s.cmdline().contains("pi") && s.comm().startsWith("node");
        toolSeen |= s.cmdline().contains("sleep 4") || s.comm().equals("sleep");
        secret |= s.secretInCmdline() || s.secretInEnviron();
      }
      return new Watch(result, evidence, piSeen, toolSeen, secret, seen.size());
    }
  }

  private static void note(ArrayNode searched, List<String> leaks, String what, String text, String token) {
    boolean found = text != null && text.contains(token);
    searched.add(what + (found ? ": TOKEN FOUND" : ": clean"));
    if (found) {
      leaks.add(what);
    }
  }

  private static List<Path> files(Path dir) throws Exception {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      return walk.filter(Files::isRegularFile).toList();
    }
  }

  private static JsonNode gateArray(List<String> items) {
    ArrayNode array = Gate.evidence().arrayNode();
    items.forEach(array::add);
    return array;
  }
}

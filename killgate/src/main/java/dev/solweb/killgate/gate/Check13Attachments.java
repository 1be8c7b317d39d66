package dev.solweb.killgate.gate;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.factory.pi.ChildEnvironment;
import dev.solweb.factory.session.ClientSession;
import dev.solweb.killgate.UploadFiles;
import dev.solweb.killgate.fakesol.FakeSolUploads;
import dev.solweb.provider.model.Attachment;
import dev.solweb.provider.seat.UploadReadiness;
import java.nio.file.Files;
import java.util.List;
import java.util.Set;

/**
 * 13. An image in Pi's prompt (issue 29): the pinned Pi, {@code pi -p @shot.png "..."} (Pi's own
 * file argument, sent as a chat-completions {@code image_url} data URL), on a page whose chip
 * shows before the file is processed (REAL-PAGE row 46; fakesol's early chip). Passes when Pi
 * prints the answer, the page took exactly one Send and that Send carried the file with the
 * sha256 Pi was given, uploaded once. Control: a seat made ready on the chip alone; the page
 * drops the file, so the same run must fail (the seat's own check of the Send body stops it on
 * fakesol; on the scripted seat the file is simply missing).
 */
final class Check13Attachments implements GateCheck {

  static final String TASK = "K13: What is in this image?";
  static final String ANSWER = "K13: coloured noise.";

  @Override
  public int number() {
    return 13;
  }

  @Override
  public String title() {
    return "An image in Pi's prompt reaches the page byte for byte, sent only once processed";
  }

  @Override
  public CheckResult run(Gate gate) throws Exception {
    long t0 = System.currentTimeMillis();
    Attachment shot = UploadFiles.png("shot.png", 3_000, 11);
    RunOutcome main = runOnce(gate, "check13", shot, UploadReadiness.PROCESSED);
    RunOutcome control = runOnce(gate, "check13-control", shot,
        gate.isBroken(13) ? UploadReadiness.PROCESSED : UploadReadiness.CHIP);
    return RunOutcome.verdict(this, main, "the seat clicks Send once the chip shows", control, control.summary(), 1, t0);
  }

  private static RunOutcome runOnce(Gate gate, String name, Attachment shot, UploadReadiness readiness) throws Exception {
    ObjectNode evidence = Gate.evidence().put("upload_readiness", readiness.name().toLowerCase());
    GateDaemon.Settings settings = GateDaemon.Settings.shipped().uploads(readiness);
    try (Rig rig = gate.rig(name, Scenarios.defaults(Scenarios.fin(ANSWER)), settings)) {
      if (rig.daemon.fakesol() != null) {
        rig.daemon.fakesol().uploads().fault(FakeSolUploads.Fault.EARLY_CHIP);
      }
      Files.write(rig.workspace.resolve(shot.name()), shot.bytes());
      Proc run = Proc.run(List.of(gate.pi.toString(), "--offline", "--no-session", "--no-tools", "--model", Rig.MODEL,
              "--thinking", "off", "-p", "@" + shot.name(), TASK),
          ChildEnvironment.build(rig.parentEnv(), rig.accountDir, ClientSession.derive(name), Set.of(rig.daemon.token())),
          rig.workspace, 180);
      List<List<String>> sent = rig.daemon.filesSent();
      int uploads = rig.daemon.fakesol() == null ? sent.stream().mapToInt(List::size).sum()
          : rig.daemon.fakesol().uploads().createRequests();
      boolean answered = run.exit() == 0 && run.stdout().contains(ANSWER);
      boolean oneSend = rig.sends().size() == 1;
      boolean sameBytes = sent.size() == 1 && sent.get(0).equals(List.of(shot.sha256()));
      boolean passed = answered && oneSend && sameBytes && uploads == 1;
      evidence.put("exit", run.exit()).put("answered", answered).put("pi_sent_sha256", shot.sha256())
          .put("pi_sent_bytes", shot.bytes().length).put("upload_requests", uploads).put("page_sends", rig.sends().size());
      ArrayNode turns = evidence.putArray("files_with_each_send");
      sent.forEach(files -> files.forEach(turns.addArray()::add));
      if (!answered) {
        evidence.put("pi_stderr", tail(run.stderr()));
      }
      String summary = "exit " + run.exit() + "; " + rig.sends().size() + " Send(s); their files' sha256 "
          + sent.stream().map(files -> files.stream().map(h -> h.substring(0, 12)).toList()).toList()
          + " (Pi sent " + shot.sha256().substring(0, 12) + "); " + uploads + " upload(s)";
      return new RunOutcome(passed, summary, evidence, rig.proxy.exchanges().size(), Checks.typed(rig.sends()));
    }
  }

  private static String tail(String text) {
    return text.length() <= 600 ? text : text.substring(text.length() - 600);
  }
}

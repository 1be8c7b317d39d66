package dev.solweb.killgate.gate;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * One run of a check's scenario (the check's own, or its control's): whether it passed, what it
 * showed, the requests solwebd saw and the characters the seat typed per turn.
 */
record RunOutcome(boolean passed, String summary, ObjectNode evidence, int requests, List<Integer> typed) {

  /**
   * The check's verdict from its run and its control's run (the control must fail).
   *
   * @param controlSummary what the report says of the control (often its own summary)
   */
  static CheckResult verdict(GateCheck check, RunOutcome main, String controlInput, RunOutcome control,
      String controlSummary, int rungIfFailed, long startedMillis) {
    List<Integer> typed = new ArrayList<>(main.typed);
    typed.addAll(control.typed);
    return new CheckResult(check.number(), check.title(), main.passed, main.summary, main.evidence, controlInput,
        !control.passed, controlSummary, control.evidence, rungIfFailed, System.currentTimeMillis() - startedMillis,
        main.requests + control.requests, typed);
  }
}

package dev.solweb.killgate.gate;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * One check's verdict: the check itself must pass and its negative control must fail (a control
 * that passes would mean the check cannot tell good from bad). Both carry their evidence.
 *
 * @param rungIfFailed the decision-ladder rung a failure of this check points at (1 solwebd
 *     semantics, 2 Pi's standard provider drops metadata, 3 Pi cannot do it)
 * @param requests chat-completion requests solwebd received for the check and its control
 * @param typedChars characters the seat typed per turn (check and control)
 */
record CheckResult(
    int number,
    String title,
    boolean passed,
    String summary,
    ObjectNode evidence,
    String control,
    boolean controlFailed,
    String controlSummary,
    ObjectNode controlEvidence,
    int rungIfFailed,
    long wallMillis,
    int requests,
    List<Integer> typedChars) {

  boolean agrees() {
    return passed && controlFailed;
  }
}

package dev.solweb.killgate.gate;

/** One of the kill-gate checks, with its negative control. */
interface GateCheck {

  int number();

  String title();

  /** Runs the check and its control; failures are results, exceptions are gate errors. */
  CheckResult run(Gate gate) throws Exception;
}

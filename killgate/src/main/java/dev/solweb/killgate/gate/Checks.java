package dev.solweb.killgate.gate;

import dev.solweb.provider.scenario.ScenarioPlayer;
import java.util.List;

/** Small helpers shared by the checks. */
final class Checks {

  private Checks() {}

  /** Characters typed per turn, in order. */
  static List<Integer> typed(List<ScenarioPlayer.Send> sends) {
    return sends.stream().map(s -> s.text().length()).toList();
  }
}

package dev.solweb.killgate.gate;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.provider.platform.Json;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The run's shared context: where everything lives, which seat, the pinned Pi, and which
 * controls are deliberately broken ({@code --break}: the control then gets the check's own
 * input, so it must pass, and the gate must report the disagreement).
 */
final class Gate {

  final Path repo;
  final Path root;
  final Path pi;
  final GateDaemon.SeatKind seat;
  final Path chromium;
  final Set<Integer> broken;
  final List<String> notes = new ArrayList<>();
  /** Where receipts are copied as evidence (the report dir), or null. */
  Path evidenceDir;
  /** The page shape fakesol imitates ({@code --dom}), or null for each scenario's own (the newest). */
  String dom;
  /** What each rig of the current check saw at solwebd and at the seat; drained after each check. */
  final ObjectNode rigLog = Json.MAPPER.createObjectNode();

  Gate(Path repo, Path root, Path pi, GateDaemon.SeatKind seat, Path chromium, Set<Integer> broken) {
    this.repo = repo;
    this.root = root;
    this.pi = pi;
    this.seat = seat;
    this.chromium = chromium;
    this.broken = Set.copyOf(broken);
  }

  boolean isBroken(int check) {
    return broken.contains(check);
  }

  Rig rig(String name, String scenario) throws Exception {
    return Rig.start(this, name, scenario, GateDaemon.Settings.shipped());
  }

  Rig rig(String name, String scenario, GateDaemon.Settings settings) throws Exception {
    return Rig.start(this, name, scenario, settings);
  }

  static ObjectNode evidence() {
    return Json.MAPPER.createObjectNode();
  }
}

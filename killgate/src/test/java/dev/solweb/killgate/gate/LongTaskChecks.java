package dev.solweb.killgate.gate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.solweb.factory.pi.AgentDirMaterializer;
import dev.solweb.factory.pi.PiBinary;
import dev.solweb.provider.translate.ContextBudget;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 16's proof beside the kill gate ({@link LongTask}): with the pinned real Pi and the
 * settings the factory plugin materializes ({@link AgentDirMaterializer#COMPACTION}), the 40-turn
 * task with 40-50 KB tool results completes, every compaction bringing the replay under solwebd's
 * budget; its negative control, the same task with Pi's default settings, fails with Pi's
 * "Context overflow recovery failed". The task on the scripted seat and on fakesol (the Playwright
 * seat, headless Chromium); its control on the scripted seat only: how it fails is decided by Pi's
 * settings and solwebd's budget, which no seat takes part in, so a browser would only repeat its turns.
 */
abstract class LongTaskChecks {

  static final Path REPO = Path.of("").toAbsolutePath().getParent();

  @TempDir Path root;

  @Test
  void theLongTaskCompletesWithTheShippedSettingsAndFailsWithPisDefaultsOnTheScriptedSeat() throws Exception {
    proveOn(GateDaemon.SeatKind.SCRIPTED, true);
  }

  @Test
  void theLongTaskCompletesWithTheShippedSettingsOnFakesol() throws Exception {
    proveOn(GateDaemon.SeatKind.FAKESOL, false);
  }

  /**
   * Issue 24: the same task with the reads made several at a time (size-aware batches) completes
   * too, every replay within the budget, in fewer page turns and fewer typed characters than one
   * call per reply.
   */
  @Test
  void theBatchedLongTaskCompletesInFewerPageTurnsOnTheScriptedSeat() throws Exception {
    Path pi = PiBinary.locate(Map.of(PiBinary.ROOT_ENV, REPO.toString())).orElseThrow();
    Gate gate = new Gate(REPO, root, pi, GateDaemon.SeatKind.SCRIPTED, Path.of("/usr/bin/chromium"), Set.of());
    LongTask.Outcome single;
    try (Rig rig = gate.rig("long-single", LongTask.scenario(LongTask.Script.SINGLE, 0))) {
      single = LongTask.run(rig, "long-single", rig.accountDir);
    }
    LongTask.Outcome batched;
    try (Rig rig = gate.rig("long-batched", LongTask.scenario(LongTask.Script.BATCHED, 0))) {
      batched = LongTask.run(rig, "long-batched", rig.accountDir);
    }
    System.out.println("long task, scripted: one call per reply: " + single.summary() + "\n  batched reads: "
        + batched.summary());

    JsonNode ev = batched.evidence();
    assertThat(single.completed()).as(single.evidence().toPrettyString()).isTrue();
    assertThat(batched.completed()).as(ev.toPrettyString()).isTrue();
    assertThat(ev.path("largest_fresh_replay_bytes").asLong()).isLessThan(ContextBudget.INPUT_CEILING * 9 / 10);
    assertThat(ev.path("tool_turns").asInt()).as("one page turn per reply of calls, and the final answer")
        .isEqualTo(LongTask.replies(LongTask.Script.BATCHED).size() + 1)
        .isLessThan(single.evidence().path("tool_turns").asInt());
    assertThat(ev.path("page_turns").asInt()).isLessThan(single.evidence().path("page_turns").asInt());
    assertThat(ev.path("chars_typed").asLong()).isLessThan(single.evidence().path("chars_typed").asLong());
  }

  private void proveOn(GateDaemon.SeatKind seat, boolean withControl) throws Exception {
    Path pi = PiBinary.locate(Map.of(PiBinary.ROOT_ENV, REPO.toString())).orElseThrow();
    Gate gate = new Gate(REPO, root, pi, seat, Path.of("/usr/bin/chromium"), Set.of());
    LongTask.Outcome shipped;
    try (Rig rig = gate.rig("long", LongTask.scenario())) {
      JsonNode settings = dev.solweb.provider.platform.Json.MAPPER.readTree(rig.accountDir.resolve("settings.json").toFile());
      assertThat(settings.path("compaction").path("keepRecentTokens").asInt()).isEqualTo(15_000);
      shipped = LongTask.run(rig, "long", rig.accountDir);
    }
    System.out.println("long task on " + seat + ": shipped: " + shipped.summary());
    JsonNode ev = shipped.evidence();
    assertThat(shipped.completed()).as(ev.toPrettyString()).isTrue();
    assertThat(ev.path("compactions").asInt()).as("the task is several budgets long").isGreaterThanOrEqualTo(5);
    assertThat(ev.path("refused_context_overflow").asInt()).isEqualTo(ev.path("compactions").asInt());
    assertThat(ev.path("replays_into_fresh_conversations").asInt()).isEqualTo(ev.path("compactions").asInt());
    assertThat(ev.path("largest_fresh_replay_bytes").asLong()).as("every replay fits with margin")
        .isLessThan(ContextBudget.INPUT_CEILING * 9 / 10);
    assertThat(ev.path("final_occupancy_estimate").asLong()).isLessThan(ContextBudget.INPUT_CEILING);

    if (!withControl) {
      return;
    }
    LongTask.Outcome defaults;
    try (Rig rig = gate.rig("long-control", LongTask.scenario())) {
      assertThat(Files.exists(rig.defaultSettingsAgentDir().resolve("settings.json"))).isFalse();
      defaults = LongTask.run(rig, "long-control", rig.defaultSettingsAgentDir());
    }
    System.out.println("long task on " + seat + ": Pi defaults: " + defaults.summary());
    JsonNode control = defaults.evidence();
    assertThat(defaults.completed()).as(control.toPrettyString()).isFalse();
    assertThat(control.path("error").asText()).contains("context_overflow");
    assertThat(control.path("pi_compactions").toString()).contains("Context overflow recovery failed");
  }
}

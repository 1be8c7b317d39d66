package dev.solweb.killgate.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.solweb.killgate.fakesol.FakeSol;
import dev.solweb.killgate.fakesol.PageMutations;
import dev.solweb.provider.model.Effort;
import dev.solweb.provider.platform.Cli;
import dev.solweb.provider.scenario.Scenario;
import dev.solweb.provider.scenario.ScenarioPlayer;
import dev.solweb.provider.seat.SeatException;
import dev.solweb.provider.seat.SeatProbe;
import dev.solweb.provider.seat.SeatReply;
import dev.solweb.provider.seat.playwright.PlaywrightOptions;
import dev.solweb.provider.seat.playwright.PlaywrightSeat;
import dev.solweb.provider.seat.playwright.PlaywrightSeatFactory;
import io.vertx.core.Vertx;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code bench-unseen}: the real Playwright seat on pages nobody measured. Per seed, fakesol renders a
 * base shape the seed picks through the page mutations the seed picks ({@code --mutate SEED}); the
 * seat runs a prose turn at Medium, then an effort change to High and a tool-call turn whose answer
 * holds a code block. Each seed ends {@code exact} (both answers read back equal to fakesol's, each
 * sent once with the effort asked for and, on a page of model families, on the newest Sol row:
 * {@link ModelCheck}), {@code typed} (a typed SeatException; whether its detail names a control is
 * recorded), {@code wrong} (any other answer, a prompt in a reply, a wrong effort or model sent, or
 * no outcome in time) or {@code twice} (a prompt submitted twice). A seed that meets the
 * rate-limit modal follows the account rule (issue 32): the turn is typed {@code unavailable} with
 * its pause, nothing typed; the bench then plays the pause's end once and the seed goes on from
 * that step, so it is {@code exact} only when the seat then dismisses the modal and reads both
 * answers back (its line says "after the account's pause").
 */
@Command(name = "bench-unseen", mixinStandardHelpOptions = true,
    description = "The Playwright seat against fakesol pages rendered through seeded page mutations.")
public final class UnseenBench implements Callable<Integer> {

  private static final ObjectMapper JSON = dev.solweb.provider.platform.Json.MAPPER;
  static final String PROSE_PROMPT = "Name the capital of France in one sentence.";
  static final String PROSE = "The capital of France is Paris.";
  static final String TOOL_PROMPT = "Call the write tool for notes.txt.";
  static final String TOOL_PROSE = "Calling the tool now.";
  static final String TOOL_CALL = "{\"tool\": \"write\", \"path\": \"notes.txt\", \"content\": \"hello\"}";
  /** Words a typed failure's detail uses when it names the control it could not find or use. */
  private static final Pattern CONTROL = Pattern.compile(
      "(?i)\\b(send|stop|composer|pill|effort|picker|slider|menu|reply|answer|turn|copy|sidebar|button|modal|dialog|textbox|editor)\\b");

  @Spec CommandSpec spec;

  @Option(names = "--seeds", description = "how many seeds (default ${DEFAULT-VALUE})")
  int seeds = 40;

  @Option(names = "--first-seed", description = "the first seed (default ${DEFAULT-VALUE})")
  long firstSeed = 1;

  @Option(names = "--require", split = ",", description = "only seeds whose page draws one of these mutations"
      + " (the others are skipped, not counted; e.g. model-families,covered-menu)")
  List<String> require = List.of();

  @Option(names = "--json", description = "print one JSON object instead of the table")
  boolean json;

  @Option(names = "--seed-timeout", description = "seconds a seed may take before it counts as wrong (default ${DEFAULT-VALUE})")
  int seedTimeout = 240;

  @Option(names = "--chromium", description = "Chromium executable (default ${DEFAULT-VALUE})")
  Path chromium = PlaywrightOptions.DEFAULT_CHROMIUM;

  /** How one seed ended. */
  enum Outcome { EXACT, TYPED, WRONG, TWICE }

  /** One seed's result: the page it ran on and how it ended; {@code namesControl} only for typed. */
  record SeedResult(long seed, String dom, List<String> mutations, Outcome outcome, String detail, boolean namesControl) {}

  /** The base shape the seed picks (the mutations come from {@link PageMutations#seeded}). */
  static String baseShape(long seed) {
    return Scenario.DOMS.get(new SplittableRandom(~seed).nextInt(Scenario.DOMS.size()));
  }

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    Tally total = new Tally();
    Map<String, Tally> byMutation = new TreeMap<>();
    Map<String, Tally> byDom = new TreeMap<>();
    Vertx vertx = Vertx.vertx();
    ExecutorService runner = Executors.newSingleThreadExecutor();
    try {
      require.forEach(name -> PageMutations.named(List.of(name), 0)); // an unknown name fails here, before any seed
      int ran = 0;
      for (long seed = firstSeed; ran < seeds; seed++) {
        if (!require.isEmpty() && PageMutations.seeded(seed).names().stream().noneMatch(require::contains)) {
          continue;
        }
        ran++;
        SeedResult r = runSeed(vertx, runner, seed);
        total.add(r);
        r.mutations().forEach(m -> byMutation.computeIfAbsent(m, k -> new Tally()).add(r));
        byDom.computeIfAbsent(r.dom(), k -> new Tally()).add(r);
        err.printf("seed %d  %-16s %-48s %-5s %s%n", r.seed(), r.dom(), String.join(",", r.mutations()),
            r.outcome().name().toLowerCase(Locale.ROOT), r.detail() == null ? ""
                : (r.outcome() == Outcome.TYPED ? (r.namesControl() ? "[names a control] " : "[names no control] ") : "")
                + oneLine(r.detail()));
        err.flush();
      }
    } finally {
      runner.shutdownNow();
      vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
    if (json) {
      ObjectNode o = JSON.createObjectNode().put("seeds", seeds);
      total.into(o);
      ObjectNode by = o.putObject("by_mutation");
      byMutation.forEach((name, t) -> t.into(by.putObject(name)));
      ObjectNode doms = o.putObject("by_dom");
      byDom.forEach((name, t) -> t.into(doms.putObject(name)));
      out.println(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(o));
    } else {
      out.printf("%d seeds: exact %d, typed %d (%d name a control), wrong %d, twice %d%n", seeds, total.exact, total.typed,
          total.typedNamingControl, total.wrong, total.twice);
      out.printf("%-24s %5s %5s %5s %5s%n", "mutation", "exact", "typed", "wrong", "twice");
      byMutation.forEach((name, t) -> out.printf("%-24s %5d %5d %5d %5d%n", name, t.exact, t.typed, t.wrong, t.twice));
      out.printf("%-24s %5s %5s %5s %5s%n", "base shape", "exact", "typed", "wrong", "twice");
      byDom.forEach((name, t) -> out.printf("%-24s %5d %5d %5d %5d%n", name, t.exact, t.typed, t.wrong, t.twice));
    }
    out.flush();
    return 0;
  }

  private SeedResult runSeed(Vertx vertx, ExecutorService runner, long seed) throws Exception {
    String dom = baseShape(seed);
    PageMutations.Plan plan = PageMutations.seeded(seed);
    Path home = Files.createTempDirectory("bench-unseen-" + seed);
    FakeSol sol = FakeSol.start(vertx, false, scenario().withDom(dom), 0, Clock.systemUTC(), plan);
    Future<SeedResult> run = runner.submit(() -> turns(sol, home, seed, dom, plan));
    try {
      return run.get(seedTimeout, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      run.cancel(true);
      return judge(sol, seed, dom, plan, null, null, "no outcome within " + seedTimeout + " s");
    } finally {
      sol.close();
      deleteTree(home);
    }
  }

  private SeedResult turns(FakeSol sol, Path home, long seed, String dom, PageMutations.Plan plan) {
    SeatReply prose = null;
    SeatReply tool = null;
    boolean paused = false;
    try (PlaywrightSeatFactory factory = PlaywrightSeatFactory.create(new PlaywrightOptions(sol.url(), true, chromium, null, home))) {
      PlaywrightSeat seat = factory.create(0);
      try {
        while (true) {
          try {
            SeatProbe probe = seat.probe();
            if (probe.state() != SeatProbe.State.READY) {
              return typedOrWorse(sol, seed, dom, plan, "probe: " + probe, false);
            }
            if (prose == null) {
              seat.openNew();
              seat.setEffort(Effort.MEDIUM);
              prose = seat.send(PROSE_PROMPT);
              seat.probe();
            }
            seat.resume(prose.conversationUrl());
            seat.setEffort(Effort.HIGH);
            tool = seat.send(TOOL_PROMPT);
            SeedResult result = judge(sol, seed, dom, plan, prose, tool, null);
            return paused && result.outcome() == Outcome.EXACT
                ? new SeedResult(seed, dom, plan.names(), Outcome.EXACT, AFTER_PAUSE, false) : result;
          } catch (SeatException e) {
            // The rate-limit modal (row 52) pauses the account, typed, before anything is typed: the
            // dispatcher refuses every turn until the pause is over, then the seat's next sight of the
            // modal dismisses it. The seat cannot tell that moment from now, so the bench plays the
            // pause's end once and goes on from the step that met the modal.
            boolean timedPause = !e.afterSend() && e.accountBlock().flatMap(b -> b.pause()).isPresent()
                && e.failure() != null && e.failure().kind() == dev.solweb.provider.failure.ProviderFailure.Kind.UNAVAILABLE
                && e.failure().retryAfterSeconds() != null;
            if (paused || !timedPause) {
              throw e;
            }
            paused = true;
          }
        }
      } finally {
        seat.close();
      }
    } catch (SeatException e) {
      String detail = e.getMessage() + (e.failure() == null ? "" : " | " + e.failure().message());
      return typedOrWorse(sol, seed, dom, plan, (paused ? "after the account's pause: " : "") + detail, true);
    } catch (Exception e) {
      return judge(sol, seed, dom, plan, prose, tool, "untyped " + e.getClass().getSimpleName() + ": " + e.getMessage());
    }
  }

  /** The detail of a seed that met the rate-limit modal, paused as the account rule asks, and then read back exactly. */
  static final String AFTER_PAUSE = "after the account's pause: the rate-limit modal was met typed (unavailable, "
      + "retry_after_seconds) with nothing typed, then dismissed by the next turn";

  /** A typed failure, unless what fakesol recorded makes it worse (a prompt twice, a wrong effort sent). */
  private SeedResult typedOrWorse(FakeSol sol, long seed, String dom, PageMutations.Plan plan, String detail, boolean typed) {
    SeedResult worse = sendsCheck(sol, seed, dom, plan);
    if (worse != null) {
      return worse;
    }
    return new SeedResult(seed, dom, plan.names(), typed ? Outcome.TYPED : Outcome.WRONG, detail,
        typed && CONTROL.matcher(detail).find());
  }

  private SeedResult judge(FakeSol sol, long seed, String dom, PageMutations.Plan plan, SeatReply prose, SeatReply tool,
      String failure) {
    SeedResult worse = sendsCheck(sol, seed, dom, plan);
    if (worse != null) {
      return worse;
    }
    if (failure != null) {
      return new SeedResult(seed, dom, plan.names(), Outcome.WRONG, failure, false);
    }
    if (!prose.prose().strip().equals(PROSE) || !prose.codeBlocks().isEmpty()) {
      return new SeedResult(seed, dom, plan.names(), Outcome.WRONG, "prose turn read " + prose.prose() + " " + prose.codeBlocks(), false);
    }
    if (!tool.prose().strip().equals(TOOL_PROSE) || !tool.codeBlocks().equals(List.of(TOOL_CALL))) {
      return new SeedResult(seed, dom, plan.names(), Outcome.WRONG, "tool turn read " + tool.prose() + " " + tool.codeBlocks(), false);
    }
    if (sol.sends().size() != 2) {
      return new SeedResult(seed, dom, plan.names(), Outcome.WRONG, "fakesol recorded " + sol.sends().size() + " sends", false);
    }
    return new SeedResult(seed, dom, plan.names(), Outcome.EXACT, null, false);
  }

  /** What fakesol saw sent: a prompt twice, or an effort other than the one asked for, or null. */
  private static SeedResult sendsCheck(FakeSol sol, long seed, String dom, PageMutations.Plan plan) {
    List<ScenarioPlayer.Send> sends = sol.sends();
    for (String prompt : List.of(PROSE_PROMPT, TOOL_PROMPT)) {
      if (sends.stream().filter(s -> s.text().equals(prompt)).count() > 1) {
        return new SeedResult(seed, dom, plan.names(), Outcome.TWICE, "sent twice: " + prompt, false);
      }
    }
    for (ScenarioPlayer.Send s : sends) {
      Effort wanted = s.text().equals(PROSE_PROMPT) ? Effort.MEDIUM : s.text().equals(TOOL_PROMPT) ? Effort.HIGH : null;
      if (wanted == null) {
        return new SeedResult(seed, dom, plan.names(), Outcome.WRONG, "sent a text nobody asked for: " + oneLine(s.text()), false);
      }
      if (s.effort() != wanted) {
        return new SeedResult(seed, dom, plan.names(), Outcome.WRONG, "sent at " + s.effortLabel() + ", asked " + wanted.label(), false);
      }
    }
    String model = sends.isEmpty() ? null : ModelCheck.wrongModel(sol); // rows 61, 62: a Send on the wrong model is wrong
    return model == null ? null : new SeedResult(seed, dom, plan.names(), Outcome.WRONG, model, false);
  }

  private static Scenario scenario() {
    ObjectNode s = JSON.createObjectNode();
    var replies = s.putArray("default");
    replies.addObject().put("prose", PROSE);
    replies.addObject().put("prose", TOOL_PROSE).putArray("blocks").add(TOOL_CALL);
    for (int i = 0; i < 4; i++) {
      replies.addObject().put("prose", "An extra answer nobody should have asked for.");
    }
    return Scenario.parse(s.toString());
  }

  private static String oneLine(String s) {
    String flat = s.replaceAll("\\s+", " ").strip();
    return flat.length() > 240 ? flat.substring(0, 240) + "..." : flat;
  }

  private static void deleteTree(Path dir) {
    try (Stream<Path> walk = Files.walk(dir)) {
      walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (Exception e) {
      // a leftover temp profile is harmless
    }
  }

  /** Counts per outcome. */
  static final class Tally {
    int exact;
    int typed;
    int typedNamingControl;
    int wrong;
    int twice;

    void add(SeedResult r) {
      if (r.namesControl()) {
        typedNamingControl++;
      }
      switch (r.outcome()) {
        case EXACT -> exact++;
        case TYPED -> typed++;
        case WRONG -> wrong++;
        case TWICE -> twice++;
      }
    }

    void into(ObjectNode o) {
      o.put("exact", exact).put("typed", typed).put("wrong", wrong).put("twice", twice).put("typed_naming_a_control", typedNamingControl);
    }
  }

  public static void main(String[] args) {
    Cli.exit(Cli.of(new UnseenBench(), "bench-unseen", 1), args);
  }
}

package dev.solweb.factory.demo;

import com.fasterxml.jackson.databind.JsonNode;
import dev.solweb.factory.cli.FactoryGpt;
import dev.solweb.provider.platform.Cli;
import dev.solweb.provider.platform.Json;
import dev.solweb.provider.platform.Poll;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * The README's main job on the embedded fake, end to end: the real pinned Pi creates a file
 * through Sol, with no ChatGPT account. In a private temp sandbox (never the user's homes):
 *
 * <ol>
 *   <li>choose the seat and say why ({@link DemoSeat});
 *   <li>{@code solwebctl enroll --current-profile} through that seat (a temporary identity);
 *   <li>{@code solwebctl ensure} starts solwebd on an ephemeral port ({@code SOLWEBD_PORT=0}):
 *       a daemon the user runs on 8791 is neither used nor disturbed;
 *   <li>a demo-only managed models.json points provider {@code gpt} at that port;
 *   <li>{@code factory-gpt run --effort high --workspace W --task "create hello.txt containing hi"}
 *       (preflight, Pi in RPC mode, progress, final answer, receipt);
 *   <li>print the receipt, check hello.txt;
 *   <li>always, on every path and on SIGINT/SIGTERM: {@code solwebctl stop} (POST /shutdown), prove
 *       the daemon gone, delete the sandbox.
 * </ol>
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
    description = {
      "The main job on the embedded fake: solwebd on a scripted seat, then `factory-gpt run --effort high` makes "
          + "the real pinned Pi create hello.txt through Sol in a temporary workspace. No ChatGPT account; every "
          + "home is a temporary directory; everything started is stopped.",
      "",
      "Exit codes: 0 the file was created and everything stopped, 1 the run or the check failed, "
          + "2 usage, 4 not installed (Pi), 6 internal."
    })
public final class Demo implements Callable<Integer> {

  static final String TASK = "create hello.txt containing hi";
  static final int OK = 0;
  static final int FAILED = 1;
  static final int USAGE = 2;
  static final int NOT_INSTALLED = 4;
  static final int INTERNAL = 6;
  private static final long CTL_TIMEOUT_S = 180;

  @Spec CommandSpec spec;

  @Option(names = "--http-only",
      description = "The older, smaller demo: a scripted tool loop through solwebd's HTTP API, no Pi.")
  boolean httpOnly;

  @Option(names = "--keep", description = "Keep the temporary sandbox (homes, workspace, receipt, logs) and print it.")
  boolean keep;

  @Option(names = "--seat", paramLabel = "auto|scripted|fakesol", defaultValue = "auto",
      description = "auto (default): the Playwright seat on fakesol in headless Chromium when both are here, else "
          + "the scripted seat; the choice and its reason are printed. fakesol where it cannot run is an error.")
  String seatWanted;

  @Option(names = "--chromium", paramLabel = "PATH", defaultValue = "/usr/bin/chromium",
      description = "Chromium for the Playwright seat (default ${DEFAULT-VALUE}).")
  Path chromium;

  private final Map<String, String> env;

  public Demo(Map<String, String> env) {
    this.env = env;
  }

  public static void main(String[] args) {
    Cli.exit(commandLine(System.getenv()), args);
  }

  /** The configured command line; the test calls this with its own environment and writers. */
  public static CommandLine commandLine(Map<String, String> env) {
    return Cli.of(new Demo(env), "demo", INTERNAL);
  }

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (httpOnly) {
      CommandLine old = new CommandLine(new dev.solweb.provider.demo.HttpOnlyDemo());
      old.setOut(out);
      old.setErr(err);
      return old.execute(keep ? new String[] {"--keep"} : new String[0]);
    }
    String rootVar = env.get("SOLWEB_ROOT");
    if (rootVar == null || rootVar.isBlank()) {
      err.println("demo: SOLWEB_ROOT is not set (bin/demo sets it to the checkout)");
      return NOT_INSTALLED;
    }
    Path root = Path.of(rootVar).toAbsolutePath().normalize();
    if (!Files.isExecutable(root.resolve("tools/pi/node_modules/.bin/pi"))) {
      err.println("demo: the pinned Pi is not installed; run: npm ci --prefix " + root.resolve("tools/pi"));
      return NOT_INSTALLED;
    }
    long started = System.nanoTime();
    DemoSeat.Choice choice;
    try {
      choice = DemoSeat.choose(seatWanted, root, chromium);
    } catch (IllegalArgumentException e) {
      err.println("demo: " + e.getMessage());
      return USAGE;
    }
    DemoSandbox sandbox = DemoSandbox.create(env);
    Stopper stopper = new Stopper(root, sandbox, out);
    Thread onSignal = new Thread(stopper::stopAll, "demo-stop");
    Runtime.getRuntime().addShutdownHook(onSignal);
    int rc;
    try {
      rc = runFullPath(root, choice, sandbox, stopper, out, err);
    } finally {
      stopper.stopAll();
      try {
        Runtime.getRuntime().removeShutdownHook(onSignal);
      } catch (IllegalStateException e) {
        // Already shutting down (a signal): the hook ran stopAll, which only runs once.
      }
    }
    if (stopper.leftRunning()) {
      rc = FAILED;
    }
    out.printf("demo: %s in %.1f s%n", rc == OK ? "done" : "FAILED", (System.nanoTime() - started) / 1e9);
    out.flush();
    return rc;
  }

  private int runFullPath(Path root, DemoSeat.Choice choice, DemoSandbox sandbox, Stopper stopper, PrintWriter out,
      PrintWriter err) throws Exception {
    Path solwebctl = root.resolve("bin/solwebctl");
    Map<String, String> childEnv = sandbox.childEnv(env, root);
    say(out, "seat: " + choice.name() + ", scenario " + DemoSeat.SCENARIO + ": " + choice.why());
    DemoSeat seat;
    if (choice.kind() == DemoSeat.Kind.FAKESOL) {
      out.println("$ fakesol --port 0 --scenario " + DemoSeat.SCENARIO);
      out.flush();
      FakeSolProcess fakesol = FakeSolProcess.start(root, childEnv, DemoSeat.SCENARIO, sandbox.root.resolve("fakesol.log"),
          CTL_TIMEOUT_S);
      stopper.fakesol(fakesol);
      say(out, "fakesol pid " + fakesol.pid() + " serves the imitation ChatGPT page at " + fakesol.url());
      seat = DemoSeat.fakesol(fakesol.url(), chromium, choice.why());
    } else {
      seat = DemoSeat.scripted(choice.why());
    }
    say(out, "sandbox " + sandbox.root + " holds HOME, SOLWEBD_HOME, PI_CODING_AGENT_DIR, the workspace and the"
        + " receipt; your ~/.overdeck and ~/.pi are not touched");

    List<String> enroll = new ArrayList<>(List.of("enroll", "--current-profile", "--json"));
    enroll.addAll(seat.seatArgs());
    CtlCall enrolled = ctl(out, solwebctl, childEnv, enroll);
    if (enrolled.exit() != 0) {
      return fail(err, "solwebctl enroll failed (exit " + enrolled.exit() + "): " + enrolled.stderr());
    }
    say(out, "enrolled " + enrolled.json().path("expected_account").asText() + " (temporary identity.json)");

    List<String> ensure = new ArrayList<>(List.of("ensure", "--json", "--seats", "1"));
    ensure.addAll(seat.seatArgs());
    stopper.daemonMayRun(childEnv);
    CtlCall ensured = ctl(out, solwebctl, childEnv, ensure);
    JsonNode health = ensured.stdout().isEmpty() ? Json.MAPPER.createObjectNode() : ensured.json();
    if (health.path("pid").canConvertToLong()) {
      stopper.daemonPid(health.path("pid").asLong());
    }
    if (ensured.exit() != 0) {
      return fail(err, "solwebctl ensure failed (exit " + ensured.exit() + "): " + ensured.stderr()
          + "; daemon log: " + sandbox.solwebdHome.resolve("solwebd.log"));
    }
    String endpoint = health.path("endpoint").asText();
    say(out, "solwebd pid " + health.path("pid").asText() + " is " + health.path("state").asText() + " on "
        + endpoint + " (a free port chosen by the kernel; 8791 is left to your own daemon)");
    sandbox.writeModels(root.resolve("models.json"), endpoint);
    say(out, "managed models.json copy in " + sandbox.managedAgentDir + " points provider gpt at " + endpoint);

    // Preflight's `solwebctl ensure` must find the daemon started above; if that daemon were gone it
    // would start a new one with the default seat, the real page. An absent launcher makes that a
    // refusal instead (there is no implicit fallback from the fake to the real site).
    Map<String, String> runEnv = new java.util.HashMap<>(childEnv);
    runEnv.put("SOLWEBD_BIN", sandbox.root.resolve("no-second-solwebd").toString());
    List<String> run = List.of("run", "--effort", "high", "--workspace", sandbox.workspace.toString(),
        "--task", TASK, "--receipts", sandbox.receipts.toString(), "--agent-dir", sandbox.accountAgentDir.toString(),
        "--session-id", "solweb-demo-" + UUID.randomUUID(), "--progress", "2", "--timeout", "300");
    out.println("$ factory-gpt " + String.join(" ", quoted(run)));
    out.flush();
    CommandLine factoryGpt = FactoryGpt.commandLine(runEnv);
    factoryGpt.setOut(out);
    factoryGpt.setErr(err);
    int runExit = factoryGpt.execute(run.toArray(String[]::new));
    out.flush();

    Optional<Path> receiptFile = newestReceipt(sandbox.receipts);
    if (receiptFile.isPresent()) {
      say(out, "attempt receipt " + (keep ? receiptFile.get() : receiptFile.get().getFileName()) + ":");
      out.println(Files.readString(receiptFile.get(), StandardCharsets.UTF_8).strip());
    }
    if (runExit != 0) {
      return fail(err, "factory-gpt run exited " + runExit);
    }
    Path hello = sandbox.workspace.resolve("hello.txt");
    String content = Files.isRegularFile(hello) ? Files.readString(hello, StandardCharsets.UTF_8) : null;
    if (content == null || !content.strip().equals("hi")) {
      return fail(err, "check failed: hello.txt " + (content == null ? "does not exist" : "holds " + content.strip()));
    }
    JsonNode receipt = Json.MAPPER.readTree(receiptFile.orElseThrow().toFile());
    say(out, "check: " + sandbox.workspace.relativize(hello) + " holds \"" + content.strip() + "\", written by Pi's "
        + receipt.path("tool_events").path(0).path("tool").asText() + " tool; report " + receipt.path("report"));
    return OK;
  }

  private CtlCall ctl(PrintWriter out, Path solwebctl, Map<String, String> childEnv, List<String> args)
      throws IOException, InterruptedException {
    out.println("$ solwebctl " + String.join(" ", args));
    out.flush();
    return CtlCall.run(solwebctl, childEnv, CTL_TIMEOUT_S, args.toArray(String[]::new));
  }

  private static Optional<Path> newestReceipt(Path receipts) throws IOException {
    if (!Files.isDirectory(receipts)) {
      return Optional.empty();
    }
    try (Stream<Path> files = Files.list(receipts)) {
      return files.filter(p -> p.getFileName().toString().endsWith(".json")).max(Path::compareTo);
    }
  }

  private static List<String> quoted(List<String> args) {
    return args.stream().map(a -> a.matches("[A-Za-z0-9_./:=@-]+") ? a : "\"" + a + "\"").toList();
  }

  static void say(PrintWriter out, String line) {
    out.println("demo: " + line);
    out.flush();
  }

  private static int fail(PrintWriter err, String why) {
    err.println("demo: " + why);
    err.flush();
    return FAILED;
  }

  /**
   * Stops what the demo started, once, from the normal path or a shutdown hook: the daemon by
   * {@code solwebctl stop} (POST /shutdown, then waits for the exit), proven gone by its pid; if
   * that fails, the pid is ended directly (it is ours: ensure reported it). Then the sandbox goes.
   */
  private final class Stopper {
    private final Path root;
    private final DemoSandbox sandbox;
    private final PrintWriter out;
    private final AtomicBoolean done = new AtomicBoolean();
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile Map<String, String> ctlEnv;
    private volatile FakeSolProcess fakesol;
    private volatile long daemonPid = -1;
    private volatile boolean leftRunning;

    Stopper(Path root, DemoSandbox sandbox, PrintWriter out) {
      this.root = root;
      this.sandbox = sandbox;
      this.out = out;
    }

    void daemonMayRun(Map<String, String> env) {
      ctlEnv = env;
    }

    void fakesol(FakeSolProcess process) {
      fakesol = process;
    }

    void daemonPid(long pid) {
      daemonPid = pid;
    }

    boolean leftRunning() {
      return leftRunning;
    }

    /** Runs once; a second caller (main thread after a signal's hook began) waits for the first. */
    void stopAll() {
      if (!done.compareAndSet(false, true)) {
        try {
          finished.await(90, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        return;
      }
      try {
        stopEverything();
      } finally {
        finished.countDown();
      }
    }

    private void stopEverything() {
      try {
        stopDaemon();
      } catch (Exception e) {
        say(out, "stopping solwebd failed: " + e);
      }
      FakeSolProcess page = fakesol;
      if (page != null) {
        try {
          page.close();
          say(out, "fakesol pid " + page.pid() + " stopped");
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      // Anything else whose command line names the private sandbox (a browser on its profile, say)
      // was started for the demo; say so and end it by pid.
      for (ProcessHandle straggler : processesMentioning(sandbox.root.toString())) {
        say(out, "pid " + straggler.pid() + " still runs in the sandbox (" + straggler.info().command().orElse("?")
            + "); ending it");
        straggler.destroyForcibly();
        leftRunning = true;
      }
      if (!leftRunning) {
        say(out, "nothing the demo started is still running");
      }
      if (keep) {
        say(out, "kept the sandbox: " + sandbox.root);
        return;
      }
      try {
        sandbox.delete();
        say(out, "removed the sandbox " + sandbox.root);
      } catch (IOException e) {
        say(out, "could not remove the sandbox " + sandbox.root + ": " + e.getMessage());
      }
    }

    private void stopDaemon() throws Exception {
      if (ctlEnv == null) {
        return; // nothing was started
      }
      out.println("$ solwebctl stop --json");
      out.flush();
      CtlCall stopped = CtlCall.run(root.resolve("bin/solwebctl"), ctlEnv, 60, "stop", "--json");
      String detail = stopped.stdout().isEmpty() ? stopped.stderr() : stopped.json().path("detail").asText();
      say(out, "solwebctl stop: " + detail + (stopped.exit() == 0 ? "" : " (exit " + stopped.exit() + ")"));
      long pid = daemonPid;
      if (pid <= 0) {
        return;
      }
      if (!exitsWithin(pid, 10)) {
        // Not expected after a successful stop; the pid is the daemon ensure started for us.
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroy);
        if (!exitsWithin(pid, 10)) {
          ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
          exitsWithin(pid, 5);
        }
        say(out, "solwebd pid " + pid + " did not exit after stop; ended it with a signal");
      }
      leftRunning = isRunning(pid);
      say(out, "solwebd pid " + pid + (leftRunning ? " is STILL RUNNING" : " is gone"));
    }
  }

  private static boolean exitsWithin(long pid, int seconds) {
    return Poll.until(Duration.ofSeconds(seconds), Duration.ofMillis(50),
        () -> isRunning(pid) ? Optional.empty() : Optional.of(true)).isPresent();
  }

  /**
   * Whether {@code pid} still runs. A zombie does not: the daemon was re-parented to PID 1, which
   * reaps on its own schedule, and {@link ProcessHandle#isAlive()} (kill 0) reports zombies alive.
   */
  static boolean isRunning(long pid) {
    return dev.solweb.provider.platform.ProcessInfo.isRunning(pid);
  }

  /** Live processes (zombies excluded) whose command line contains {@code text}. */
  static List<ProcessHandle> processesMentioning(String text) {
    return ProcessHandle.allProcesses()
        .filter(p -> p.pid() != ProcessHandle.current().pid() && isRunning(p.pid()))
        .filter(p -> {
          try {
            return Files.readString(Path.of("/proc", Long.toString(p.pid()), "cmdline")).contains(text);
          } catch (IOException gone) {
            return false;
          }
        })
        .toList();
  }
}

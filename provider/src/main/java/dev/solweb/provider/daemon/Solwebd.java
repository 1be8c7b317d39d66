package dev.solweb.provider.daemon;

import dev.solweb.provider.dispatch.AccountPacing;
import dev.solweb.provider.dispatch.DispatchSpacing;
import dev.solweb.provider.dispatch.HealthSnapshot;
import dev.solweb.provider.http.ServerSettings;
import dev.solweb.provider.platform.Cli;
import dev.solweb.provider.platform.ProcessInfo;
import dev.solweb.provider.platform.Refused;
import dev.solweb.provider.platform.SolwebHome;
import dev.solweb.provider.platform.TokenFile;
import dev.solweb.provider.protocol.ReplyRules;
import dev.solweb.provider.seat.SeatFactory;
import dev.solweb.provider.seat.playwright.PlaywrightOptions;
import dev.solweb.provider.seat.playwright.browser.ProfileLock;
import dev.solweb.provider.translate.AttachmentDecoder;
import dev.solweb.provider.translate.RunawayGuard;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/** {@code solwebd}: serves ChatGPT browser conversations as an OpenAI chat-completions provider. */
@Command(
    name = "solwebd",
    mixinStandardHelpOptions = true,
    versionProvider = Solwebd.VersionProvider.class,
    description = {
        "Serves a logged-in ChatGPT web session on 127.0.0.1 as an OpenAI chat-completions provider",
        "with emulated tool calls. Every route needs `Authorization: Bearer <token>`; the token is in",
        "<home>/solwebd.token (mode 0600, created on first start).",
        "",
        "Exit codes: 0 clean shutdown, 2 bad usage, 3 cannot start (token file, port, seat), 1 internal error."},
    footer = {
        "",
        "Environment: SOLWEBD_HOME, SOLWEBD_PORT, SOLWEBD_SEATS, SOLWEBD_KEEPALIVE_S (5, 0 = off),",
        "SOLWEBD_TURN_TIMEOUT (300 s), SOLWEBD_DISPATCH_SPACING (e.g. 60-75s; off), SOLWEBD_MAX_BODY (8388608),",
        "SOLWEBD_PROFILE (<home>/profile), SOLWEBD_PROJECT (a ChatGPT Project's name or URL: new conversations",
        "open there), SOLWEBD_TEMPORARY (1: new conversations are temporary chats; not with SOLWEBD_PROJECT),",
        "SOLWEBD_RETENTION_DAYS (off; N: delete managed conversations idle N days, between turns),",
        "SOLWEBD_MAX_CALLS (8: tool calls one reply may make, 1 to 64; 1 = one call per reply),",
        "SOLWEBD_LOOP_LIMIT (8: requests in a row one session may repeat the same tool call before a protocol failure),",
        "SOLWEBD_SEND_GAP_MS (2000 on a browser seat, 0 on a scripted one: the least time between two Sends or uploads on the account),",
        "SOLWEBD_BUDGET (none; e.g. high=120/3h,pro=20/7d: Sends per effort and window, then capped),",
        "SOLWEBD_MAX_ATTACHMENT_MB (10: the largest file a client may send, 1 to 512; the body limit grows to hold one),",
        "SOLWEBD_MODEL (the newest Sol model the picker offers; a family such as Astra, or one row such as \"GPT-6.2 Sol\":",
        "the model every sol-web-<effort> runs on; a page without it refuses the turn typed, never another model)."})
public final class Solwebd implements Callable<Integer> {
  static final int EXIT_CANNOT_START = 3;
  static final int EXIT_INTERNAL = 1;

  @Spec CommandSpec spec;

  @Mixin SeatMixin seatOptions;

  @Option(names = "--host", defaultValue = "127.0.0.1", description = "Loopback address to bind (default ${DEFAULT-VALUE}).")
  String host;

  @Option(names = "--port", defaultValue = "${env:SOLWEBD_PORT:-8791}", description = "Port (default ${DEFAULT-VALUE}; 0 picks a free one).")
  int port;

  @Option(names = "--home", paramLabel = "DIR", description = "Daemon home (default $SOLWEBD_HOME, else $HOME/.overdeck/gptbridge).")
  Path home;

  @Option(names = "--seats", defaultValue = "${env:SOLWEBD_SEATS:-1}", description = "Browser seats (default ${DEFAULT-VALUE}).")
  int seats;

  @Option(names = "--wait-for-seat",
      description = "Keep running when no seat could start: /healthz stays degraded with the cause in detail"
          + " until you stop the daemon. Nothing is retried (a launch failure is final); without it solwebd exits 3.")
  boolean waitForSeat;

  // Only the real main sends logging to <home>/solwebd.log: tests run Solwebd inside their own JVM.
  private final boolean logToFile;

  public Solwebd() {
    this(false);
  }

  private Solwebd(boolean logToFile) {
    this.logToFile = logToFile;
  }

  public static void main(String[] args) {
    Cli.exit(Cli.of(new Solwebd(true), "solwebd", EXIT_INTERNAL), args);
  }

  @Override
  public Integer call() throws Exception {
    String seat = seatOptions.seat();
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    Path daemonHome = home != null ? home : SolwebHome.daemonHome(System.getenv());
    if (!isLoopback(host)) {
      err.println("solwebd: refusing to bind " + host + ": only a loopback address (127.0.0.1) may serve the owner's ChatGPT account");
      return EXIT_CANNOT_START;
    }
    Duration keepAlive;
    Duration turnTimeout;
    DispatchSpacing spacing;
    long maxBody;
    long maxAttachment;
    int maxCalls;
    int loopLimit;
    HistorySettings history;
    AccountPacing.Settings pacing;
    try {
      history = HistorySettings.fromEnv(System.getenv());
      keepAlive = Duration.ofMillis(Math.round(1000 * Double.parseDouble(env("SOLWEBD_KEEPALIVE_S", "5"))));
      turnTimeout = Duration.ofMillis(Math.round(1000 * Double.parseDouble(env("SOLWEBD_TURN_TIMEOUT", "300"))));
      spacing = DispatchSpacing.parse(env("SOLWEBD_DISPATCH_SPACING", "off"));
      pacing = AccountPacing.Settings.fromEnv(System.getenv(), seat.equals("playwright"));
      maxAttachment = AttachmentDecoder.parseMegabytes(env(AttachmentDecoder.MAX_MB_ENV,
          Long.toString(AttachmentDecoder.DEFAULT_MAX_MB)));
      // One file of the largest size always fits a request, whatever SOLWEBD_MAX_BODY says.
      maxBody = AttachmentDecoder.bodyLimit(Long.parseLong(env("SOLWEBD_MAX_BODY", Long.toString(8L << 20))), maxAttachment);
      maxCalls = ReplyRules.parseCap(env(ReplyRules.MAX_CALLS_ENV, Integer.toString(ReplyRules.DEFAULT_MAX_CALLS)));
      loopLimit = RunawayGuard.parseLimit(env(RunawayGuard.LIMIT_ENV, Integer.toString(RunawayGuard.DEFAULT_LIMIT)));
    } catch (IllegalArgumentException e) {
      err.println("solwebd: bad setting: " + e.getMessage());
      return CommandLine.ExitCode.USAGE;
    }
    String token;
    SeatFactory factory;
    DiagnosedSeats diagnosed;
    ProfileLock profileLock;
    Path log = daemonHome.resolve(DaemonLog.NAME);
    try {
      Files.createDirectories(daemonHome, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      if (logToFile) {
        try {
          log = DaemonLog.toFile(daemonHome);
        } catch (IOException e) {
          err.println("solwebd: cannot open the log " + log + " (" + e.getMessage() + "); logging to the terminal");
        }
      }
      token = TokenFile.loadOrCreate(daemonHome);
      Path profile = seatOptions.profileOr(Path.of(env("SOLWEBD_PROFILE", daemonHome.resolve("profile").toString())));
      PlaywrightOptions options = seatOptions.options(daemonHome, profile).withModel(env("SOLWEBD_MODEL", null));
      Optional<SeatStartFailure> known = seat.equals("playwright") && !waitForSeat
          ? SeatStartFailure.precheck(seatAbout(options, profile)) : Optional.empty();
      if (known.isPresent()) {
        err.println("solwebd: cannot start: " + known.get().line() + " (log: " + log + ")");
        return EXIT_CANNOT_START;
      }
      // One browser per profile, taken before any seat exists: ask-gpt's direct path takes the same lock.
      profileLock = ProfileLock.tryAcquire(profile).orElse(null);
      if (profileLock == null) {
        err.println("solwebd: cannot start: the profile " + profile + " is in use (" + ProfileLock.fileFor(profile)
            + " is held by pid " + ProfileLock.holder(profile) + ": another solwebd, an ask-gpt or a solwebctl login);"
            + " fix: stop that one first (a daemon: solwebctl stop)");
        return EXIT_CANNOT_START;
      }
      factory = SeatSelection.factory(seat, options);
      diagnosed = new DiagnosedSeats(factory, index -> seatAbout(options, options.profileOf(index)), seats);
    } catch (IOException | Refused | IllegalArgumentException | IllegalStateException e) {
      err.println("solwebd: cannot start: " + e.getMessage());
      return EXIT_CANNOT_START;
    }

    long pid = ProcessHandle.current().pid();
    String generation = UUID.randomUUID().toString();
    String version = Version.current();
    Vertx vertx = Vertx.vertx();
    CountDownLatch stopped = new CountDownLatch(1);
    Runnable release = () -> {
      profileLock.close();
      try {
        Files.deleteIfExists(daemonHome.resolve(StateFile.NAME));
      } catch (IOException ignored) {
        // A stale state file fails closed in solwebctl: the pid no longer matches.
      }
      vertx.close().onComplete(done -> stopped.countDown());
    };
    ServerSettings settings = new ServerSettings(token, keepAlive, maxBody, version, generation, pid, maxAttachment);
    Daemon.Config config = new Daemon.Config(daemonHome, diagnosed, seats, turnTimeout, spacing, settings,
        Clock.systemUTC(), release, history, maxCalls, pacing, loopLimit);
    Daemon daemon;
    try {
      daemon = Daemon.listen(vertx, config, host, port).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      err.println("solwebd: cannot listen on " + host + ":" + port + ": " + e.getCause().getMessage());
      profileLock.close();
      vertx.close();
      return EXIT_CANNOT_START;
    }
    new StateFile(pid, ProcessInfo.of(Path.of("/proc"), pid).map(ProcessInfo::startTicks).orElse(-1L), generation, daemon.port(), version, seat).write(daemonHome);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> daemon.stop().join(), "solwebd-shutdown-hook"));
    out.println("solwebd " + version + " listening on http://" + host + ":" + daemon.port() + " (seat " + seat
        + ", seats " + seats + ", home " + daemonHome + ", new conversations in " + history.describe() + ")");
    out.flush();
    AtomicInteger exit = new AtomicInteger(CommandLine.ExitCode.OK);
    Path logFile = log;
    // Runs on the last failing seat's thread, before the dispatcher reports its seats: the daemon
    // goes away before /healthz could say anything but "starting", so ensure sees the exit, not a state.
    diagnosed.noSeatStarted().thenAccept(failed -> {
      failed.forEach((index, why) -> err.println("solwebd: seat " + index + " cannot start: " + why.line()
          + " (log: " + logFile + ")"));
      if (!waitForSeat) {
        err.println("solwebd: no seat could start; exiting " + EXIT_CANNOT_START
            + " (--wait-for-seat keeps the daemon up, reporting the cause on /healthz)");
        exit.set(EXIT_CANNOT_START);
        try {
          daemon.stopListening().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
          // The full stop closes Vert.x, and the server with it.
        }
        daemon.stop();
      }
      err.flush();
    });
    daemon.startSeats().whenComplete((ok, error) -> {
      if (exit.get() != CommandLine.ExitCode.OK) {
        return;
      }
      Map<Integer, SeatStartFailure> failed = diagnosed.noSeatStarted().isDone() ? Map.of() : diagnosed.launchFailures();
      failed.forEach((index, why) -> err.println("solwebd: seat " + index + " cannot start: " + why.line()
          + " (log: " + logFile + ")"));
      err.flush();
      HealthSnapshot now = daemon.dispatcher().snapshot();
      boolean explained = !diagnosed.launchFailures().isEmpty() || now.state().equals("ready");
      out.println("solwebd: seats started, state " + now.state() + (explained ? "" : " (" + now.detail() + ")"));
      out.flush();
    });
    stopped.await();
    return exit.get();
  }

  private static SeatStartFailure.Seat seatAbout(PlaywrightOptions options, Path profile) {
    return SeatStartFailure.Seat.of(options.chromiumPath(), profile, options.headless(), System.getenv());
  }

  private static boolean isLoopback(String host) {
    try {
      return InetAddress.getByName(host).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }

  private static String env(String name, String fallback) {
    String value = System.getenv(name);
    return value == null || value.isBlank() ? fallback : value;
  }

  /** Reports the stamped build version. */
  static final class VersionProvider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"solwebd " + Version.current()};
    }
  }
}
